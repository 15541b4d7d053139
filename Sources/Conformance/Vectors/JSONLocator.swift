import StrictJSON

/// One step of a path into a JSON document: an object member or an array element.
public enum JSONPathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let k): return ".\(k)"
        case .index(let i): return "[\(i)]"
        }
    }
}

/// Finds where a value sits in the bytes of a document that ``JSONParser`` already accepted.
///
/// The parser gives values without positions (that keeps it fast); a loader that finds a *schema* error walks the
/// bytes once more with this to tell the user the line and column. Only used on error paths. It is defensive
/// (every index is bounds-checked) even though the input is known to be well-formed.
public struct JSONLocator {
    private let bytes: [UInt8]
    private var i = 0

    /// A locator over a document's bytes.
    ///
    /// - Parameter bytes: A document that ``JSONParser`` accepted.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The byte offset of the value at `path`, or of its deepest ancestor that exists.
    /// When a key repeats, the last one wins (as in ``JSONParser``).
    ///
    /// - Parameters:
    ///   - path: The value's path from the root.
    ///   - bytes: The document's bytes.
    /// - Returns: The byte offset.
    public static func offset(of path: [JSONPathComponent], in bytes: [UInt8]) -> Int {
        var locator = JSONLocator(bytes)
        return locator.locate(path)
    }

    /// 1-based line and byte column of `offset`.
    ///
    /// - Parameters:
    ///   - offset: A byte offset.
    ///   - bytes: The document's bytes.
    /// - Returns: The line and byte column, from 1.
    public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var k = 0
        let end = min(max(offset, 0), bytes.count)
        while k < end {
            if bytes[k] == 0x0A {
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return (line, end - lineStart + 1)
    }

    private mutating func locate(_ path: [JSONPathComponent]) -> Int {
        skipWhitespace()
        for component in path {
            let containerStart = i
            guard i < bytes.count else { return containerStart }
            var found: Int?
            switch component {
            case .key(let wanted):
                guard bytes[i] == UInt8(ascii: "{") else { return containerStart }
                i += 1
                while true {
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { break }
                    let key = readString()
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { break }
                    i += 1
                    skipWhitespace()
                    if key == wanted { found = i }
                    skipValue()
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                    i += 1
                }
            case .index(let wanted):
                guard bytes[i] == UInt8(ascii: "[") else { return containerStart }
                i += 1
                var n = 0
                while true {
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] != UInt8(ascii: "]") else { break }
                    if n == wanted {
                        found = i
                        break
                    }
                    skipValue()
                    n += 1
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                    i += 1
                }
            }
            guard let at = found else { return containerStart }
            i = at
        }
        return i
    }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    /// Reads a string at the opening quote and returns its decoded value (escapes resolved through the parser).
    private mutating func readString() -> String {
        let start = i
        skipString()
        let slice = Array(bytes[start..<min(i, bytes.count)])
        if !slice.contains(UInt8(ascii: "\\")), slice.count >= 2 {
            return String(decoding: slice[1..<(slice.count - 1)], as: UTF8.self)
        }
        return (try? JSONParser.value(slice))?.stringValue ?? ""
    }

    private mutating func skipString() {
        i += 1
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            i += 1
            if c == UInt8(ascii: "\"") { return }
        }
    }

    private mutating func skipValue() {
        guard i < bytes.count else { return }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    skipString()
                    continue
                }
                i += 1
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    depth += 1
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return }
                }
            }
        default:
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == 0x20 || c == 0x0A
                    || c == 0x0D || c == 0x09
                {
                    return
                }
                i += 1
            }
        }
    }
}
