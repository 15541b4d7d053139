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
        let writer = CanonicalWriter(self)
        return [UInt8](unsafeUninitializedCapacity: writer.capacity) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }  // the capacity is never 0
            initialized = writer.write(into: base)
        }
    }

    /// The canonical stored string: standard padded base64 of ``canonicalJSON``, encoded from a scratch buffer
    /// (no array of the JSON is made).
    public var canonicalBase64: String {
        let writer = CanonicalWriter(self)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: writer.capacity) { buffer in
            guard let base = buffer.baseAddress else { return "" }  // the capacity is never 0
            let count = writer.write(into: base)
            return Base64.encodedString(UnsafeBufferPointer(start: base, count: count))
        }
    }
}

/// Writes the canonical JSON with plain stores into a buffer of ``capacity`` bytes, which bounds it from
/// above: every token byte counted twice (it might be a `/`, written `\/`), plus 16 bytes of slack so that the
/// token copy can store whole 8-byte words.
struct CanonicalWriter {
    let applications: [ApplicationToken]
    let categories: [ActivityCategoryToken]
    let webDomains: [WebDomainToken]
    let includeEntireCategory: Bool
    /// The three untokenized identifier arrays, written (`[…]`).
    let identifiers: (applications: [UInt8], categories: [UInt8], webDomains: [UInt8])
    let capacity: Int

    init(_ selection: FamilyActivitySelection) {
        applications = selection.orderedApplicationTokens
        categories = selection.orderedCategoryTokens
        webDomains = selection.orderedWebDomainTokens
        includeEntireCategory = selection.includeEntireCategory
        identifiers = (
            Self.strings(selection.untokenizedApplicationIdentifiers),
            Self.strings(selection.untokenizedCategoryIdentifiers),
            Self.strings(selection.untokenizedWebDomainIdentifiers)
        )
        var capacity = 256 + identifiers.0.count + identifiers.1.count + identifiers.2.count
        for token in applications { capacity += 2 * token.data.utf8.count + 12 }
        for token in categories { capacity += 2 * token.data.utf8.count + 12 }
        for token in webDomains { capacity += 2 * token.data.utf8.count + 12 }
        self.capacity = capacity
    }

    /// Writes the JSON at `out`; returns its length.
    func write(into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        Self.put(#"{"applicationTokens":"#, out, &o)
        Self.putTokens(applications, out, &o)
        Self.put(#","categoryTokens":"#, out, &o)
        Self.putTokens(categories, out, &o)
        Self.put(#","includeEntireCategory":"#, out, &o)
        if includeEntireCategory { Self.put("true", out, &o) } else { Self.put("false", out, &o) }
        Self.put(#","untokenizedApplicationIdentifiers":"#, out, &o)
        Self.put(identifiers.applications, out, &o)
        Self.put(#","untokenizedCategoryIdentifiers":"#, out, &o)
        Self.put(identifiers.categories, out, &o)
        Self.put(#","untokenizedWebDomainIdentifiers":"#, out, &o)
        Self.put(identifiers.webDomains, out, &o)
        Self.put(#","webDomainTokens":"#, out, &o)
        Self.putTokens(webDomains, out, &o)
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
    private static func putTokens<Kind>(_ tokens: [Token<Kind>], _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        out[o] = UInt8(ascii: "[")
        o += 1
        for (i, token) in tokens.enumerated() {
            if i > 0 {
                out[o] = UInt8(ascii: ",")
                o += 1
            }
            put(#"{"data":""#, out, &o)
            var data = token.data
            data.withUTF8 { putEscaped($0, out, &o) }
            put(#""}"#, out, &o)
        }
        out[o] = UInt8(ascii: "]")
        o += 1
    }

    /// Copies `bytes` with each `/` written `\/`: eight bytes at a time, each word stored whole (the bytes after
    /// a slash are overwritten by what follows; the capacity's slack covers the word past the end).
    @inline(__always)
    private static func putEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
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

    /// `[…]`: the identifiers sorted by code point, each written as ``JSONWriter`` writes strings (`/` as `\/`).
    private static func strings(_ strings: Set<UntokenizedIdentifier>) -> [UInt8] {
        if strings.isEmpty { return Array("[]".utf8) }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, s) in strings.sorted().enumerated() {  // code point order
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(s.value, into: &out, escapeSlashes: true)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
