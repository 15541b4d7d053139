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
        let applications = orderedApplicationTokens
        let categories = orderedCategoryTokens
        let webDomains = orderedWebDomainTokens
        // An upper bound: every data byte might be a `/` written as two.
        var capacity = 256
        for token in applications { capacity += 2 * token.data.utf8.count + 12 }
        for token in categories { capacity += 2 * token.data.utf8.count + 12 }
        for token in webDomains { capacity += 2 * token.data.utf8.count + 12 }
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(contentsOf: #"{"applicationTokens":"#.utf8)
        Self.writeTokens(applications, into: &out)
        out.append(contentsOf: #","categoryTokens":"#.utf8)
        Self.writeTokens(categories, into: &out)
        out.append(contentsOf: #","includeEntireCategory":"#.utf8)
        out.append(contentsOf: (includeEntireCategory ? "true" : "false").utf8)
        out.append(contentsOf: #","untokenizedApplicationIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedApplicationIdentifiers, into: &out)
        out.append(contentsOf: #","untokenizedCategoryIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedCategoryIdentifiers, into: &out)
        out.append(contentsOf: #","untokenizedWebDomainIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedWebDomainIdentifiers, into: &out)
        out.append(contentsOf: #","webDomainTokens":"#.utf8)
        Self.writeTokens(webDomains, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The canonical stored string: standard padded base64 of ``canonicalJSON``.
    public var canonicalBase64: String {
        canonicalJSON.withUnsafeBufferPointer { Base64.encodedString($0) }
    }

    /// `[{"data":"…"},…]`. A token's data is canonical base64 (every way of making a token checks or produces
    /// that), so `/` is the only byte JSON needs escaped (`\/`, as `JSONEncoder` writes it): the runs between
    /// slashes are copied whole, exactly as ``JSONWriter/writeString(_:into:escapeSlashes:)`` would write them.
    private static func writeTokens<Kind>(_ tokens: [Token<Kind>], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, token) in tokens.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"data":""#.utf8)
            var data = token.data
            data.withUTF8 { bytes in
                var start = 0
                var i = 0
                while true {
                    // The next `/`, eight bytes at a time.
                    while i + 8 <= bytes.count {
                        let slashes = SWAR.zeroBytes(SWAR.load(bytes, i) ^ (SWAR.ones &* UInt64(UInt8(ascii: "/"))))
                        if slashes != 0 {
                            i += slashes.trailingZeroBitCount / 8
                            break
                        }
                        i += 8
                    }
                    while i < bytes.count, bytes[i] != UInt8(ascii: "/") { i += 1 }
                    guard i < bytes.count else { break }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    out.append(UInt8(ascii: "\\"))
                    start = i
                    i += 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
            out.append(contentsOf: #""}"#.utf8)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeStrings(_ strings: Set<UntokenizedIdentifier>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in strings.sorted().enumerated() {  // code point order
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(s.value, into: &out, escapeSlashes: true)
        }
        out.append(UInt8(ascii: "]"))
    }
}
