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
            let keys = members.keys.sorted(by: codePointLess)
            for (i, k) in keys.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, options, indent + 1)
                writeString(k, into: &out, escapeSlashes: options.escapeSlashes)
                out.append(UInt8(ascii: ":"))
                if options.pretty { out.append(UInt8(ascii: " ")) }
                write(members[k] ?? .null, into: &out, options: options, indent: indent + 1)
            }
            if !keys.isEmpty { newline(&out, options, indent) }
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
        a.utf8.lexicographicallyPrecedes(b.utf8)
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
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "/") where escapeSlashes: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
