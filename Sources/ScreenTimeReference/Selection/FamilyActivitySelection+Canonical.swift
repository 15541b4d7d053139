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
        var out: [UInt8] = []
        out.reserveCapacity(
            200 + 190 * (applicationTokens.count + categoryTokens.count + webDomainTokens.count))
        out.append(contentsOf: #"{"applicationTokens":"#.utf8)
        Self.writeTokens(orderedApplicationTokens.map(\.data), into: &out)
        out.append(contentsOf: #","categoryTokens":"#.utf8)
        Self.writeTokens(orderedCategoryTokens.map(\.data), into: &out)
        out.append(contentsOf: #","includeEntireCategory":"#.utf8)
        out.append(contentsOf: (includeEntireCategory ? "true" : "false").utf8)
        out.append(contentsOf: #","untokenizedApplicationIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedApplicationIdentifiers, into: &out)
        out.append(contentsOf: #","untokenizedCategoryIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedCategoryIdentifiers, into: &out)
        out.append(contentsOf: #","untokenizedWebDomainIdentifiers":"#.utf8)
        Self.writeStrings(untokenizedWebDomainIdentifiers, into: &out)
        out.append(contentsOf: #","webDomainTokens":"#.utf8)
        Self.writeTokens(orderedWebDomainTokens.map(\.data), into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The canonical stored string: standard padded base64 of ``canonicalJSON``.
    public var canonicalBase64: String {
        String(decoding: Base64.encodeToBytes(canonicalJSON), as: UTF8.self)
    }

    private static func writeTokens(_ data: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, d) in data.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"data":"#.utf8)
            JSONWriter.writeString(d, into: &out, escapeSlashes: true)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeStrings(_ strings: Set<String>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in strings.sorted(by: JSONWriter.codePointLess).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(s, into: &out, escapeSlashes: true)
        }
        out.append(UInt8(ascii: "]"))
    }
}
