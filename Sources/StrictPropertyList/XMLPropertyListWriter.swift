/// The canonical XML writer (`SPEC.md` §1.1 "Canonical output per format"): Foundation's layout, with `<data>`
/// on one base64 line.
///
/// The layout: the declaration `<?xml version="1.0" encoding="UTF-8"?>`, Apple's DOCTYPE, `<plist
/// version="1.0">`, then the top value at column 0 and each nested element one tab deeper, one element per line,
/// `</plist>` and a final line feed. Empty containers are `<dict/>` and `<array/>`; an empty string is
/// `<string></string>`. Data is written as Foundation writes it, but unwrapped: `<data>`, a line feed, the
/// element's indentation, the whole base64 on one line, a line feed, the indentation again and `</data>`; empty
/// data is `<data>`, a line feed, the indentation and `</data>`.
struct XMLPropertyListWriter {
    private var out: [UInt8] = []

    /// The document holding `node` as its value.
    static func write(_ node: PropertyListNode) -> [UInt8] {
        var writer = XMLPropertyListWriter()
        writer.out += Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        writer.write(node.value, depth: 0)
        writer.out += Array("</plist>\n".utf8)
        return writer.out
    }

    /// Writes `value` as one element (and its contents) at `depth` tabs.
    private mutating func write(_ value: PropertyListValue, depth: Int) {
        indent(depth)
        switch value {
        case .dictionary(let members):
            guard !members.isEmpty else { return line("<dict/>") }
            line("<dict>")
            for member in members {
                indent(depth + 1)
                element("key", text: member.keyText)
                write(member.value.value, depth: depth + 1)
            }
            indent(depth)
            line("</dict>")
        case .array(let elements):
            guard !elements.isEmpty else { return line("<array/>") }
            line("<array>")
            for element in elements { write(element.value, depth: depth + 1) }
            indent(depth)
            line("</array>")
        case .string(let text):
            element("string", text: text)
        case .data(let bytes):
            line("<data>")
            indent(depth)
            if !bytes.isEmpty {
                out += PropertyListBase64.encode(bytes)
                out.append(0x0A)
                indent(depth)
            }
            line("</data>")
        case .bool(let flag):
            line(flag ? "<true/>" : "<false/>")
        case .integer(let number):
            line("<integer>\(number)</integer>")
        case .unsignedInteger(let number):
            // Above Int64.max this is outside the reader's `<integer>` range: it does not read back (SPEC §1.2).
            line("<integer>\(number)</integer>")
        case .real(let number):
            line("<real>\(Self.real(number))</real>")
        case .date(let seconds):
            line("<date>\(Self.date(seconds))</date>")
        case .uid(let number):
            // XML lists have no UID; Foundation writes one as a dictionary `CF$UID` → integer.
            line("<dict>")
            indent(depth + 1)
            line("<key>CF$UID</key>")
            indent(depth + 1)
            line("<integer>\(number)</integer>")
            indent(depth)
            line("</dict>")
        }
    }

    /// Writes `<name>TEXT</name>` and a line feed, escaping the text.
    private mutating func element(_ name: String, text: String) {
        out += Array("<\(name)>".utf8)
        escape(text)
        line("</\(name)>")
    }

    /// Appends `text` escaped: `&`, `<` and `>` as entities, a carriage return as `&#13;` (a raw one would read as
    /// a line feed), and every scalar XML forbids as `&#N;`. XML cannot hold those scalars at all, so the reader
    /// refuses that reference: such a string is not written faithfully and does not read back (SPEC §1.2).
    private mutating func escape(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x09, 0x0A, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                out += Array(String(scalar).utf8)
            default:
                out += Array("&#\(scalar.value);".utf8)
            }
        }
    }

    /// A real in the `<real>` grammar: Swift's shortest round-tripping digits, `nan`, `inf` or `-inf`.
    private static func real(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        let text = "\(number)"
        return text
    }

    /// A date as `YYYY-MM-DDTHH:MM:SSZ`, rounded down to a whole second (XML dates have no fraction). A date that
    /// is not finite or lies outside the years 0000 … 9999 cannot be written in that form: it is written as
    /// 2001-01-01T00:00:00Z, and does not read back.
    private static func date(_ seconds: Double) -> String {
        guard let civil = PropertyListDate.civil(seconds) else { return "2001-01-01T00:00:00Z" }
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = "\(value)"
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(civil.year, 4))-\(pad(civil.month, 2))-\(pad(civil.day, 2))T"
            + "\(pad(civil.hour, 2)):\(pad(civil.minute, 2)):\(pad(civil.second, 2))Z"
    }

    private mutating func indent(_ depth: Int) {
        out += repeatElement(0x09, count: depth)
    }

    private mutating func line(_ text: String) {
        out += Array(text.utf8)
        out.append(0x0A)
    }
}
