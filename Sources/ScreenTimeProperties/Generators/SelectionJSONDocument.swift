import ScreenTimeReference

/// One JSON text of a selection, as members in the order written (so mutations can edit them).
public struct SelectionJSONDocument: Sendable, Hashable {
    public var keys: [String]
    public var values: [[UInt8]]
    public var style: SelectionJSONStyle

    /// The JSON bytes.
    public var json: [UInt8] {
        let ws = Array(style.whitespace.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(values.reduce(16 * keys.count) { $0 + $1.count })
        out.append(UInt8(ascii: "{"))
        out += ws
        for (i, key) in keys.enumerated() {
            if i > 0 {
                out += ws
                out.append(UInt8(ascii: ","))
                out += ws
            }
            SelectionJSONDocument.writeString(key, style, into: &out)
            out += ws
            out.append(UInt8(ascii: ":"))
            out += ws
            out += values[i]
        }
        out += ws
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The stored string: standard padded base64 of the JSON.
    public var base64: String { Base64.encode(json) }

    /// A JSON string literal in `style`. (Appends in place: an array per character was most of the instructions
    /// of `selection.equality-under-permutation`, whose documents carry hundreds of base64 characters per token;
    /// docs/PERFORMANCE.md#decisions.)
    public static func writeString(_ text: String, _ style: SelectionJSONStyle, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Byte by byte, unless DEL and non-ASCII text are to be written as `\u` escapes (that needs the scalars):
        // ASCII and raw UTF-8 need no decoding, and token data, most of a document's bytes, is nothing else.
        var text = text
        let escaped = style.asciiOnly && text.utf8.contains { $0 >= 0x7F }
        if !escaped {
            text.withUTF8 { bytes in
                // Runs of bytes that need no escape are copied in one go.
                var run = 0
                for i in 0..<bytes.count {
                    let byte = bytes[i]
                    let plain =
                        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                        && (byte != UInt8(ascii: "/") || !style.escapeSlashes)
                    if plain { continue }
                    if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                    run = i + 1
                    switch byte {
                    case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                    case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                    case UInt8(ascii: "/"): out.append(contentsOf: #"\/"#.utf8)
                    case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                    case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                    default: writeEscape(UInt32(byte), into: &out)
                    }
                }
                if run < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
            }
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.utf8)
            case "\\": out.append(contentsOf: #"\\"#.utf8)
            case "/":
                if style.escapeSlashes { out.append(contentsOf: #"\/"#.utf8) } else { out.append(UInt8(ascii: "/")) }
            case "\n": out.append(contentsOf: #"\n"#.utf8)
            case "\t": out.append(contentsOf: #"\t"#.utf8)
            default:
                if scalar.value < 0x20 || scalar.value > 0x7E {
                    if scalar.value > 0xFFFF {
                        let v = scalar.value - 0x10000
                        writeEscape(0xD800 + (v >> 10), into: &out)
                        writeEscape(0xDC00 + (v & 0x3FF), into: &out)
                    } else {
                        writeEscape(scalar.value, into: &out)
                    }
                } else {
                    out.append(UInt8(scalar.value))
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func writeEscape(_ unit: UInt32, into out: inout [UInt8]) {
        out.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((unit >> UInt32(shift)) & 0xF)
            out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    static func array(_ elements: [[UInt8]], _ style: SelectionJSONStyle) -> [UInt8] {
        let ws = Array(style.whitespace.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(elements.reduce(2 + ws.count) { $0 + $1.count + 1 + 2 * ws.count })
        out.append(UInt8(ascii: "["))
        for (i, element) in elements.enumerated() {
            if i > 0 {
                out += ws
                out.append(UInt8(ascii: ","))
            }
            out += ws
            out += element
        }
        out += ws
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func tokenObject(_ data: String, _ style: SelectionJSONStyle) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        if style.tokenExtraMember { out += Array(#""kind":"x","#.utf8) }
        writeString("data", style, into: &out)
        out.append(UInt8(ascii: ":"))
        writeString(data, style, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func stringLiteral(_ text: String, _ style: SelectionJSONStyle) -> [UInt8] {
        var out: [UInt8] = []
        writeString(text, style, into: &out)
        return out
    }
}
