/// Writes ``JSONValue``s as compact JSON text with object keys sorted by Unicode code point.
///
/// The output is deterministic: the same value always gives the same bytes, whatever the process.
/// Integral numbers within ±2^53 are written without a fraction (`3`, not `3.0`).
public enum JSONWriter {
    public struct Options: Sendable {
        /// Write `/` as `\/`, as Foundation's `JSONEncoder` does by default.
        public var escapeSlashes: Bool
        /// Indent nested values with two spaces and put each member on its own line.
        public var pretty: Bool
        public init(escapeSlashes: Bool = false, pretty: Bool = false) {
            self.escapeSlashes = escapeSlashes
            self.pretty = pretty
        }
    }

    public static func string(_ value: JSONValue, options: Options = Options()) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out, options: options, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    public static func bytes(_ value: JSONValue, options: Options = Options()) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out, options: options, indent: 0)
        return out
    }

    public static func write(_ value: JSONValue, into out: inout [UInt8], options: Options = Options()) {
        write(value, into: &out, options: options, indent: 0)
    }

    static func write(_ value: JSONValue, into out: inout [UInt8], options: Options, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out, escapeSlashes: options.escapeSlashes)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, options, indent + 1)
                write(e, into: &out, options: options, indent: indent + 1)
            }
            if !elements.isEmpty { newline(&out, options, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Sorting the members themselves (not the keys, then looking each one up) hashes nothing.
            let sorted = members.count < 2 ? Array(members) : members.sorted { codePointLess($0.key, $1.key) }
            for (i, member) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, options, indent + 1)
                writeString(member.key, into: &out, escapeSlashes: options.escapeSlashes)
                out.append(UInt8(ascii: ":"))
                if options.pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, options: options, indent: indent + 1)
            }
            if !sorted.isEmpty { newline(&out, options, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ options: Options, _ indent: Int) {
        guard options.pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Orders strings by Unicode code point (Swift's `<` on `String` compares by canonical equivalence instead).
    public static func codePointLess(_ a: String, _ b: String) -> Bool {
        // UTF-8 byte order is code point order.
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in bytesLess(x, y) } }
    }

    /// Lexicographic byte order (for UTF-8, code point order).
    public static func bytesLess(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let c = UTF8Bytes.compare(a, b)
        return c != 0 ? c < 0 : a.count < b.count
    }

    static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        if !n.isFinite {
            out.append(contentsOf: "null".utf8)
        } else if abs(n) <= 9_007_199_254_740_992, let i = Int64(exactly: n) {
            out.append(contentsOf: String(i).utf8)
        } else {
            out.append(contentsOf: "\(n)".utf8)
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `s` as a JSON string: `"` `\` and control characters escaped, everything else as UTF-8.
    public static func writeString(_ s: String, into out: inout [UInt8], escapeSlashes: Bool = false) {
        var s = s
        s.withUTF8 { writeString(utf8: $0, into: &out, escapeSlashes: escapeSlashes) }
    }

    /// Whether a byte needs an escape in a JSON string: 1 always (`"`, `\`, controls), 2 only with escaped slashes.
    private static let escapeClass: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in 0..<0x20 { table[byte] = 1 }
        table[Int(UInt8(ascii: "\""))] = 1
        table[Int(UInt8(ascii: "\\"))] = 1
        table[Int(UInt8(ascii: "/"))] = 2
        return table
    }()

    /// ``writeString(_:into:escapeSlashes:)`` over UTF-8 bytes: runs of bytes that need no escape are copied
    /// in one go.
    public static func writeString(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], escapeSlashes: Bool = false
    ) {
        out.append(UInt8(ascii: "\""))
        let mask: UInt8 = escapeSlashes ? 3 : 1
        escapeClass.withUnsafeBufferPointer { table in
            var runStart = 0
            for i in 0..<bytes.count where table[Int(bytes[i])] & mask != 0 {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                appendEscaped(bytes[i], into: &out)
                runStart = i + 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(contentsOf: "u00".utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }
}
