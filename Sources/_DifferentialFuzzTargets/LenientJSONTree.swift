/// A JSON tree read as permissively as Foundation reads JSON, or more: the shape the differential harness needs to
/// see a structural deviation (a repeated key, a `null` member, a token's `data`) in an input that also has a
/// lexical one (a trailing comma, invalid UTF-8, an unknown escape, a bare number such as `01`).
///
/// The rule: structural deviations are detected on this tree, never on ``JSONParser``'s, because the strict parser
/// stops at the first lexical deviation, and an input may show both kinds (the fuzzer found
/// `{"applicationTokens":[{"data":""}],"applicationTokens":[[],]}`: a repeated key behind a trailing comma).
/// Every member is kept, repeated ones included, in input order; strings keep their bytes (escapes decoded, invalid
/// UTF-8 left as it is). Source: assumption, checked against swift-corelibs-foundation 6.3 by the fuzz target's
/// corpus (every deviation seed) and `SelectionDifferentialTests`.
///
/// ```swift
/// let tree = LenientJSONTree.parse(Array(#"{"a":1,"a":[2,],}"#.utf8))
/// tree?.hasRepeatedKey  // true
/// ```
enum LenientJSONTree {
    case object([(key: [UInt8], value: LenientJSONTree)])
    case array([LenientJSONTree])
    case string([UInt8])
    case null
    /// A number, `true` or `false`: the harness needs none of their values.
    case scalar

    /// The tree of `bytes`, or nil when not even a permissive reader finds one value there (then Foundation
    /// rejects the text too, and no structural deviation can excuse a disagreement).
    static func parse(_ bytes: [UInt8]) -> LenientJSONTree? {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        guard let value = reader.value() else { return nil }
        reader.skipWhitespace()
        return reader.i == bytes.count ? value : nil
    }

    /// Whether some object in the tree has a key twice.
    var hasRepeatedKey: Bool {
        switch self {
        case .object(let members):
            var seen: Set<[UInt8]> = []
            for member in members {
                if !seen.insert(member.key).inserted || member.value.hasRepeatedKey { return true }
            }
            return false
        case .array(let elements): return elements.contains { $0.hasRepeatedKey }
        default: return false
        }
    }

    /// Every value of `key` in this object, repeated members included; empty for anything else.
    func values(of key: String) -> [LenientJSONTree] {
        guard case .object(let members) = self else { return [] }
        let k = Array(key.utf8)
        return members.filter { $0.key == k }.map(\.value)
    }

    var elements: [LenientJSONTree] {
        if case .array(let elements) = self { return elements }
        return []
    }

    var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func skipWhitespace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        /// One value; a trailing comma before `]` or `}` is accepted, as Foundation accepts it.
        mutating func value() -> LenientJSONTree? {
            skipWhitespace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(key: [UInt8], value: LenientJSONTree)] = []
                while !take(UInt8(ascii: "}")) {
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string(), take(UInt8(ascii: ":")),
                        let member = value(), separator(closing: UInt8(ascii: "}"))
                    else { return nil }
                    members.append((key, member))
                }
                return .object(members)
            case UInt8(ascii: "["):
                i += 1
                var elements: [LenientJSONTree] = []
                while !take(UInt8(ascii: "]")) {
                    guard let element = value(), separator(closing: UInt8(ascii: "]")) else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case UInt8(ascii: "\""):
                return string().map(LenientJSONTree.string)
            default:
                for (word, tree) in [("null", LenientJSONTree.null), ("true", .scalar), ("false", .scalar)]
                where bytes[i...].starts(with: word.utf8) {
                    i += word.utf8.count
                    return tree
                }
                let start = i
                while i < bytes.count, LexicalDeviations.numberCharacters.contains(bytes[i]) { i += 1 }
                return i > start ? .scalar : nil
            }
        }

        /// Skips whitespace, then consumes `byte` if it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// After a member or element: a comma (consumed), or the closing bracket (left for the caller's `take`).
        mutating func separator(closing: UInt8) -> Bool {
            take(UInt8(ascii: ",")) || (i < bytes.count && bytes[i] == closing)
        }

        /// What `\b \f \n \r \t` stand for; any other escaped byte stands for itself.
        static let singleByteEscapes: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
            UInt8(ascii: "t"): 0x09,
        ]

        /// A string from its opening quote: escapes decoded (`\uXXXX` to UTF-8, a lone surrogate kept as its six
        /// bytes, any other escaped byte as itself), every other byte kept.
        mutating func string() -> [UInt8]? {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return out
                }
                guard c == UInt8(ascii: "\\") else {
                    out.append(c)
                    i += 1
                    continue
                }
                guard i + 1 < bytes.count else { return nil }
                let e = bytes[i + 1]
                if e == UInt8(ascii: "u"), i + 5 < bytes.count,
                    let unit = LexicalDeviations.hex4(bytes[(i + 2)...(i + 5)])
                {
                    var scalar = Unicode.Scalar(UInt32(unit))
                    var width = 6
                    if (0xD800...0xDBFF).contains(unit), i + 11 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"),
                        bytes[i + 7] == UInt8(ascii: "u"), let low = LexicalDeviations.hex4(bytes[(i + 8)...(i + 11)]),
                        (0xDC00...0xDFFF).contains(low)
                    {
                        scalar = Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))
                        width = 12
                    }
                    if let scalar {
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    } else {
                        out.append(contentsOf: bytes[i..<(i + 6)])
                        width = 6
                    }
                    i += width
                    continue
                }
                out.append(Self.singleByteEscapes[e] ?? e)
                i += 2
            }
            return nil
        }
    }
}
