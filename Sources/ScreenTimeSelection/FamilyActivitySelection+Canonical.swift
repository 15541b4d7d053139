import StrictJSON

/// The canonical encoding of a selection (ours, `SPEC.md` §1).
///
/// Keys sorted by code point, no whitespace, `/` written `\/` (as `JSONEncoder` does), each token array sorted
/// by its `data` string (ASCII order), untokenized identifiers sorted without duplicates, then standard padded
/// base64. Two selections are equal iff their canonical encodings are equal; comparing the stored strings
/// themselves is field bug 3 (a no-op pick re-encodes the same sets in another order).
///
/// The canonical form is a fixed point: decoding it gives the same selection, and re-encoding gives the same
/// string. It also decodes with Foundation's `JSONDecoder` into the same sets.
///
/// ```swift
/// if old.canonicalBase64 != new.canonicalBase64 { reapplyShields() }   // or simply: old != new
/// ```
extension FamilyActivitySelection {
    /// The canonical JSON bytes.
    public var canonicalJSON: [UInt8] {
        let (writer, texts) = CanonicalWriter.of(self)
        return texts.withUnsafeBufferPointer { texts in
            [UInt8](unsafeUninitializedCapacity: writer.capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }  // the capacity is never 0
                initialized = writer.write(into: base, texts: texts)
            }
        }
    }

    /// The canonical stored string: standard padded base64 of ``canonicalJSON``, encoded from a scratch buffer
    /// (no array of the JSON is made).
    public var canonicalBase64: String {
        let (writer, texts) = CanonicalWriter.of(self)
        return texts.withUnsafeBufferPointer { writer.base64(texts: $0) }
    }
}

/// Writes the canonical JSON with plain stores into a buffer of ``capacity`` bytes, which bounds it from
/// above: every token byte counted twice (it might be a `/`, written `\/`), plus 16 bytes of slack so that the
/// token copy can store whole 8-byte words.
///
/// The tokens are given as their `data` texts: ranges of one byte buffer, each kind's in stable order without
/// duplicates. A selection lays its tokens' texts end to end (``of(_:)``); the decoder's direct path
/// (``SelectionDecoder/canonicalBase64(of:)``) hands over the texts it read, where they are.
struct CanonicalWriter {
    let applications: [Range<Int>]
    let categories: [Range<Int>]
    let webDomains: [Range<Int>]
    let includeEntireCategory: Bool
    /// The three untokenized identifier arrays, written (`[…]`).
    let identifiers: (applications: [UInt8], categories: [UInt8], webDomains: [UInt8])
    let capacity: Int

    init(
        applications: [Range<Int>], categories: [Range<Int>], webDomains: [Range<Int>], includeEntireCategory: Bool,
        identifiers: (applications: [UInt8], categories: [UInt8], webDomains: [UInt8])
    ) {
        self.applications = applications
        self.categories = categories
        self.webDomains = webDomains
        self.includeEntireCategory = includeEntireCategory
        self.identifiers = identifiers
        var capacity = 256 + identifiers.0.count + identifiers.1.count + identifiers.2.count
        for text in applications { capacity += 2 * text.count + 12 }
        for text in categories { capacity += 2 * text.count + 12 }
        for text in webDomains { capacity += 2 * text.count + 12 }
        self.capacity = capacity
    }

    /// The writer for a selection, and the buffer its ranges point into: each kind's texts laid end to end in set
    /// order, then their ranges sorted by bytes (the order of ``Token``'s `<`; a set has no duplicates).
    static func of(_ selection: FamilyActivitySelection) -> (CanonicalWriter, [UInt8]) {
        var texts: [UInt8] = []
        texts.reserveCapacity(
            (selection.applicationTokens.count + selection.categoryTokens.count + selection.webDomainTokens.count) * 176
        )
        func lay<Kind>(_ tokens: Set<Token<Kind>>) -> [Range<Int>] {
            tokens.map { token in
                let start = texts.count
                var data = token.data
                data.withUTF8 { texts.append(contentsOf: $0) }
                return start..<texts.count
            }
        }
        var applications = lay(selection.applicationTokens)
        var categories = lay(selection.categoryTokens)
        var webDomains = lay(selection.webDomainTokens)
        texts.withUnsafeBufferPointer { texts in
            sortByBytes(&applications, in: texts)
            sortByBytes(&categories, in: texts)
            sortByBytes(&webDomains, in: texts)
        }
        let writer = CanonicalWriter(
            applications: applications, categories: categories, webDomains: webDomains,
            includeEntireCategory: selection.includeEntireCategory,
            identifiers: (
                strings(selection.untokenizedApplicationIdentifiers), strings(selection.untokenizedCategoryIdentifiers),
                strings(selection.untokenizedWebDomainIdentifiers)
            ))
        return (writer, texts)
    }

    /// Sorts ranges of `texts` by their bytes (the order of ``Token``'s `<`).
    static func sortByBytes(_ ranges: inout [Range<Int>], in texts: UnsafeBufferPointer<UInt8>) {
        guard ranges.count > 1 else { return }
        ranges.sort {
            JSONWriter.bytesLess(UnsafeBufferPointer(rebasing: texts[$0]), UnsafeBufferPointer(rebasing: texts[$1]))
        }
    }

    /// Sorts ranges of `texts` by their bytes and drops repeated texts, in place (no second array).
    static func sortByBytesRemovingDuplicates(_ ranges: inout [Range<Int>], in texts: UnsafeBufferPointer<UInt8>) {
        sortByBytes(&ranges, in: texts)
        guard ranges.count > 1 else { return }
        var kept = 1
        for i in 1..<ranges.count
        where !UTF8Bytes.equal(
            UnsafeBufferPointer(rebasing: texts[ranges[kept - 1]]), UnsafeBufferPointer(rebasing: texts[ranges[i]]))
        {
            ranges[kept] = ranges[i]
            kept += 1
        }
        ranges.removeLast(ranges.count - kept)
    }

    /// Standard padded base64 of the JSON, encoded from a scratch buffer.
    func base64(texts: UnsafeBufferPointer<UInt8>) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return "" }  // the capacity is never 0
            let count = write(into: base, texts: texts)
            return Base64.encodedString(UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Writes the JSON at `out`; returns its length.
    func write(into out: UnsafeMutablePointer<UInt8>, texts: UnsafeBufferPointer<UInt8>) -> Int {
        var o = 0
        Self.put(#"{"applicationTokens":"#, out, &o)
        Self.putTokens(applications, texts, out, &o)
        Self.put(#","categoryTokens":"#, out, &o)
        Self.putTokens(categories, texts, out, &o)
        Self.put(#","includeEntireCategory":"#, out, &o)
        if includeEntireCategory { Self.put("true", out, &o) } else { Self.put("false", out, &o) }
        Self.put(#","untokenizedApplicationIdentifiers":"#, out, &o)
        Self.put(identifiers.applications, out, &o)
        Self.put(#","untokenizedCategoryIdentifiers":"#, out, &o)
        Self.put(identifiers.categories, out, &o)
        Self.put(#","untokenizedWebDomainIdentifiers":"#, out, &o)
        Self.put(identifiers.webDomains, out, &o)
        Self.put(#","webDomainTokens":"#, out, &o)
        Self.putTokens(webDomains, texts, out, &o)
        out[o] = UInt8(ascii: "}")
        return o + 1
    }

    @inline(__always)
    private static func put(_ text: StaticString, _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        (out + o).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        o += text.utf8CodeUnitCount
    }

    private static func put(_ bytes: [UInt8], _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            (out + o).update(from: base, count: source.count)
        }
        o += bytes.count
    }

    /// `[{"data":"…"},…]`. A token's data is canonical base64 (every way of making a token checks or produces
    /// that), so `/` is the only byte JSON needs escaped (`\/`, as `JSONEncoder` writes it), exactly as
    /// ``JSONWriter/writeString(_:into:escapeSlashes:)`` would write it.
    private static func putTokens(
        _ tokens: [Range<Int>], _ texts: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int
    ) {
        out[o] = UInt8(ascii: "[")
        o += 1
        for (i, text) in tokens.enumerated() {
            if i > 0 {
                out[o] = UInt8(ascii: ",")
                o += 1
            }
            put(#"{"data":""#, out, &o)
            putEscaped(UnsafeBufferPointer(rebasing: texts[text]), out, &o)
            put(#""}"#, out, &o)
        }
        out[o] = UInt8(ascii: "]")
        o += 1
    }

    /// Copies `bytes` with each `/` written `\/`: eight bytes at a time, each word stored whole (the bytes after
    /// a slash are overwritten by what follows; the capacity's slack covers the word past the end).
    @inline(__always)
    private static func putEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int
    ) {
        let n = bytes.count
        var i = 0
        let target = UnsafeMutableRawPointer(out)
        while i + 8 <= n {
            let w = SWAR.load(bytes, i)
            target.storeBytes(of: w.littleEndian, toByteOffset: o, as: UInt64.self)
            let slashes = SWAR.zeroBytes(w ^ (SWAR.ones &* UInt64(UInt8(ascii: "/"))))
            if slashes == 0 {
                i += 8
                o += 8
                continue
            }
            // The first slash (exact: the lowest flagged byte); the bytes before it are in place.
            let k = slashes.trailingZeroBitCount / 8
            o += k
            out[o] = UInt8(ascii: "\\")
            out[o + 1] = UInt8(ascii: "/")
            o += 2
            i += k + 1
        }
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "/") {
                out[o] = UInt8(ascii: "\\")
                o += 1
            }
            out[o] = c
            o += 1
            i += 1
        }
    }

    /// `[…]`: the identifiers sorted by code point without duplicates, each written as ``JSONWriter`` writes
    /// strings (`/` as `\/`).
    static func strings(_ strings: some Collection<UntokenizedIdentifier>) -> [UInt8] {
        if strings.isEmpty { return Array("[]".utf8) }
        var out: [UInt8] = [UInt8(ascii: "[")]
        var previous: UntokenizedIdentifier?
        for s in strings.sorted() where s != previous {  // code point order
            if previous != nil { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(s.value, into: &out, escapeSlashes: true)
            previous = s
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
