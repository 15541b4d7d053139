import StrictJSON

/// Finds the selections inside a JSON document and where they are (`SPEC.md` §1.3).
///
/// Rule: a selection is an object with a member named `applicationTokens`, `categoryTokens` or `webDomainTokens`;
/// objects are searched depth first in document order, never inside a selection; each is named by its JSON
/// Pointer (RFC 6901). The whole document must be valid JSON (depth 32 from its root), and a key repeated in an
/// object outside the selections is the document's `schema` error. Source: RFC 6901; RFC 8259 §4; Assumption A15.
struct SelectionDocumentReader {
    /// One selection's place: its pointer and its object's bytes in the document.
    struct Found {
        var path: String
        var range: Range<Int>
    }

    private var scanner: JSONScanner
    private(set) var found: [Found] = []
    /// The first key repeated in an object outside the selections.
    private(set) var repeatedKey: Int?

    init(buffer: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(buffer: buffer, maxDepth: SelectionDecoder.maximumDepth)
    }

    /// Reads the whole document, recording the selections; throws its first syntax error.
    mutating func read() throws(JSONParseError) {
        try scanner.beginDocument()
        try value(at: "")
        try scanner.endDocument()
    }

    private mutating func value(at path: String) throws(JSONParseError) {
        switch try scanner.peek() {
        case UInt8(ascii: "{"):
            if try isSelection() {
                let start = scanner.index
                // A repeated key inside a selection is that selection's own `schema`, not the document's.
                let outside = scanner.firstDuplicate
                try scanner.skipValue()
                scanner.firstDuplicate = outside
                found.append(Found(path: path, range: start..<scanner.index))
                return
            }
            // An empty container is opened and closed at once, and still left: its depth counted too.
            guard try scanner.openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) else {
                scanner.leave()
                return
            }
            var keys = ObjectKeys()
            repeat {
                let (key, offset) = try scanner.parseMemberKeyBytes()
                if !keys.insert(key, of: scanner), repeatedKey == nil { repeatedKey = offset }
                try value(at: path + "/" + Self.escaped(scanner.string(key)))
            } while try scanner.consumeSeparator(close: UInt8(ascii: "}"))
            scanner.leave()
        case UInt8(ascii: "["):
            guard try scanner.openContainer(UInt8(ascii: "["), close: UInt8(ascii: "]")) else {
                scanner.leave()
                return
            }
            var index = 0
            repeat {
                scanner.skipWhitespace()
                try value(at: path + "/" + String(index))
                index += 1
            } while try scanner.consumeSeparator(close: UInt8(ascii: "]"))
            scanner.leave()
        default:
            try scanner.skipValue()
        }
    }

    /// Whether the object at the scanner has a token-array member: its keys read ahead by a copy of the scanner.
    /// A syntax error met on the way is left for the real reading to throw, at the same place.
    private func isSelection() throws(JSONParseError) -> Bool {
        var ahead = scanner
        do throws(JSONParseError) {
            guard try ahead.openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) else { return false }
            repeat {
                let (key, _) = try ahead.parseMemberKeyBytes()
                let isTokenArray = ahead.withBytes(of: key) { bytes in
                    SelectionReader.knownKeyIndex(bytes).map { $0 == 0 || $0 == 1 || $0 == 6 } ?? false
                }
                if isTokenArray { return true }
                try ahead.skipValue()
            } while try ahead.consumeSeparator(close: UInt8(ascii: "}"))
            return false
        } catch {
            return false
        }
    }

    /// A member name as a JSON Pointer reference token: `~` as `~0`, `/` as `~1` (RFC 6901 §3).
    static func escaped(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        return name.replacingTilde()
    }
}

extension String {
    fileprivate func replacingTilde() -> String {
        var out = ""
        for character in unicodeScalars {
            switch character {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
