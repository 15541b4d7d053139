/// The strict XML property-list reader of `SPEC.md` §1.2: the subset of XML 1.0 that `PropertyListEncoder`
/// writes, with Apple's PropertyList-1.0 elements written exactly.
///
/// Reading is one pass from the start; every character is checked where it is met (UTF-8, and a character XML
/// allows), so an error names the first byte at fault. Comments, CDATA sections, processing instructions other
/// than the declaration, entity references other than the five predefined ones, attributes on values and
/// unknown elements are errors.
struct XMLPropertyListReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// The values read so far (dictionary keys included).
    private var visited = 0

    /// A reader of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the whole document: declaration, DOCTYPE, `<plist>`, one value, `</plist>`.
    mutating func read() throws(PropertyListError) -> PropertyListNode {
        if starts(with: [0xEF, 0xBB, 0xBF]) {
            throw PropertyListError(at: 0, "an XML property list has no byte order mark")
        }
        if starts(with: "<?xml"), position + 5 < bytes.count, isWhitespace(bytes[position + 5]) {
            try skipScanning(to: "?>", what: "the XML declaration", refusing: nil)
        }
        var sawDoctype = false
        while true {
            try skipWhitespace(where: "outside markup")
            if !sawDoctype, starts(with: "<!DOCTYPE") {
                sawDoctype = true
                try skipScanning(to: ">", what: "the DOCTYPE", refusing: UInt8(ascii: "["))
                continue
            }
            if starts(with: "<plist"), position + 6 < bytes.count,
                bytes[position + 6] == UInt8(ascii: ">") || isWhitespace(bytes[position + 6])
            {
                break
            }
            try refuseMarkup()
            throw PropertyListError(at: position, "expected the root element <plist>")
        }
        position += 6
        try rootAttributes()
        try skipWhitespace(where: "around the value of <plist>")
        let top = try value(depth: 1)
        try skipWhitespace(where: "around the value of <plist>")
        try expect("</plist>", after: "the value of <plist>")
        try skipWhitespace(where: "outside markup")
        guard position == bytes.count else {
            try refuseMarkup()
            throw PropertyListError(at: position, "only whitespace may follow </plist>")
        }
        return top
    }

    // MARK: - Values

    /// Reads one value at `depth`, starting at its start tag's `<`.
    private mutating func value(depth: Int) throws(PropertyListError) -> PropertyListNode {
        let start = position
        try refuseMarkup()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw PropertyListError(at: position, "expected a value element")
        }
        try countValue(at: start)
        // Only containers count toward the depth (`SPEC.md` §1.2), empty ones too.
        guard depth <= PropertyListLimits.maximumDepth || !(starts(with: "<dict") || starts(with: "<array")) else {
            throw PropertyListError(at: start, "containers nest deeper than \(PropertyListLimits.maximumDepth) levels")
        }
        if take("<dict/>") { return PropertyListNode(.dictionary([]), at: start) }
        if take("<array/>") { return PropertyListNode(.array([]), at: start) }
        if take("<string/>") { return PropertyListNode(.string(""), at: start) }
        if take("<data/>") { return PropertyListNode(.data([]), at: start) }
        if take("<true/>") { return PropertyListNode(.bool(true), at: start) }
        if take("<false/>") { return PropertyListNode(.bool(false), at: start) }
        if take("<dict>") { return PropertyListNode(.dictionary(try members(depth: depth)), at: start) }
        if take("<array>") {
            var elements: [PropertyListNode] = []
            while true {
                try skipWhitespace(where: "between the elements of a dict or an array")
                if take("</array>") { break }
                elements.append(try value(depth: depth + 1))
            }
            return PropertyListNode(.array(elements), at: start)
        }
        if take("<string>") { return PropertyListNode(.string(try text(closing: "</string>")), at: start) }
        if take("<data>") { return PropertyListNode(.data(try base64()), at: start) }
        if take("<integer>") { return PropertyListNode(try integer(), at: start) }
        if take("<real>") { return PropertyListNode(.real(try real()), at: start) }
        if take("<date>") { return PropertyListNode(.date(try date()), at: start) }
        throw PropertyListError(
            at: start,
            "not a value element written exactly (dict, array, string, data, true, false, integer, real, date)")
    }

    /// Reads the members of a `<dict>` up to its `</dict>`: pairs of `<key>` and a value.
    private mutating func members(depth: Int) throws(PropertyListError) -> [PropertyListEntry] {
        var members: [PropertyListEntry] = []
        while true {
            try skipWhitespace(where: "between the elements of a dict or an array")
            if take("</dict>") { return members }
            let keyStart = position
            try refuseMarkup()
            let key: String
            if take("<key/>") {
                key = ""
            } else if take("<key>") {
                key = try text(closing: "</key>")
            } else {
                throw PropertyListError(at: position, "expected <key> or </dict> in a dictionary")
            }
            try skipWhitespace(where: "between the elements of a dict or an array")
            if starts(with: "</dict>") {
                throw PropertyListError(at: position, "the key has no value before </dict>")
            }
            let value = try value(depth: depth + 1)
            members.append(PropertyListEntry(key: PropertyListNode(.string(key), at: keyStart), value: value))
        }
    }

    /// Counts one value at `offset` against the limit of `SPEC.md` §1.2.
    private mutating func countValue(at offset: Int) throws(PropertyListError) {
        visited += 1
        guard visited <= PropertyListLimits.maximumValues else {
            throw PropertyListError(at: offset, "the list holds more than \(PropertyListLimits.maximumValues) values")
        }
    }

    // MARK: - Text

    /// Reads TEXT up to `closing`, which must follow it: characters other than `<` and `&`, and references.
    private mutating func text(closing: String) throws(PropertyListError) -> String {
        var utf8: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "<"):
                try refuseMarkup()
                try expect(closing, after: "text")
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "&"):
                appendUTF8(try reference(), to: &utf8)
            case 0x0D:
                // XML 1.0 §2.11: a carriage return, alone or before a line feed, is read as a line feed.
                utf8.append(0x0A)
                position += 1
                if position < bytes.count, bytes[position] == 0x0A { position += 1 }
            case 0x00..<0x80:
                guard byte >= 0x20 || byte == 0x09 || byte == 0x0A else {
                    throw PropertyListError(at: position, "the character \(hex(byte)) is not allowed in XML")
                }
                utf8.append(byte)
                position += 1
            default:
                let start = position
                _ = try scalar()
                utf8 += bytes[start..<position]
            }
        }
        throw PropertyListError(at: position, "the text ends before \(closing)")
    }

    /// Reads a reference at `&`: one of the five predefined entities, `&#N;` or `&#xH;`, naming a character XML
    /// allows. Returns the scalar's value.
    private mutating func reference() throws(PropertyListError) -> UInt32 {
        let start = position
        for (name, value) in [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&apos;", 0x27)]
        where take(name) {
            return UInt32(value)
        }
        guard take("&#") else {
            throw PropertyListError(
                at: start, "only &amp; &lt; &gt; &quot; &apos; and character references are allowed")
        }
        let radix: UInt32 = take("x") ? 16 : 10
        var value: UInt32 = 0
        var digits = 0
        while position < bytes.count, let digit = digitValue(bytes[position], radix: radix) {
            // Past U+10FFFF the value is out of range whatever follows; stop growing it so it cannot overflow.
            if value <= 0x10FFFF { value = value * radix + digit }
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            throw PropertyListError(at: start, "a character reference is not &#digits; or &#xhex-digits;")
        }
        position += 1
        guard isAllowed(value) else {
            throw PropertyListError(at: start, "a character reference names \(hex(value)), a character XML forbids")
        }
        return value
    }

    /// Reads the base64 of `<data>` up to `</data>`: whitespace ignored, the rest canonical.
    private mutating func base64() throws(PropertyListError) -> [UInt8] {
        var text: [UInt8] = []
        var offsets: [Int] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            if !isWhitespace(byte) {
                guard byte == UInt8(ascii: "=") || PropertyListBase64.sextet(byte) != nil else {
                    throw PropertyListError(at: position, "\(hex(byte)) is not a character of standard base64")
                }
                text.append(byte)
                offsets.append(position)
            }
            position += 1
        }
        let end = position
        let decoded = try PropertyListBase64.decodeCanonical(text, offsets: offsets, end: end)
        try refuseMarkup()
        try expect("</data>", after: "base64")
        return decoded
    }

    /// The ASCII content of a number or date element up to the next `<`, and its offset.
    private mutating func content() -> (text: [UInt8], start: Int) {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return (Array(bytes[start..<position]), start)
    }

    /// Reads `<integer>`'s content and `</integer>`: an optional sign and 1 to 19 digits, within Int64.
    private mutating func integer() throws(PropertyListError) -> PropertyListValue {
        let (text, start) = content()
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative || text.first == UInt8(ascii: "+") { index = 1 }
        var magnitude: UInt64 = 0
        guard index < text.count else {
            throw PropertyListError(at: start + index, "an <integer> has no digits")
        }
        while index < text.count {
            guard let digit = digitValue(text[index], radix: 10) else {
                throw PropertyListError(at: start + index, "an <integer> holds \(hex(text[index])), not a digit")
            }
            guard index < (negative || text.first == UInt8(ascii: "+") ? 20 : 19) else {
                throw PropertyListError(at: start + index, "an <integer> has more than 19 digits")
            }
            // At most 19 digits: below 10^19 < 2^64, so this cannot overflow.
            magnitude = magnitude * 10 + UInt64(digit)
            index += 1
        }
        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard magnitude <= limit else {
            throw PropertyListError(at: start, "an <integer> is outside the signed 64-bit range")
        }
        try expect("</integer>", after: "an integer")
        return .integer(negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude))
    }

    /// Reads `<real>`'s content and `</real>`: `[+-]?digits[.digits][(e|E)[+-]digits]`, `nan`, `inf`, `+inf` or
    /// `-inf`.
    private mutating func real() throws(PropertyListError) -> Double {
        let (text, start) = content()
        let word = String(decoding: text, as: UTF8.self)
        let special: [String: Double] = ["nan": .nan, "inf": .infinity, "+inf": .infinity, "-inf": -.infinity]
        if let value = special[word] {
            try expect("</real>", after: "a real")
            return value
        }
        var index = 0
        func digits() -> Int {
            let first = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
            return index - first
        }
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
        var valid = digits() > 0
        if valid, index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            valid = digits() > 0
        }
        if valid, index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            valid = digits() > 0
        }
        guard valid, index == text.count, let value = Double(word) else {
            throw PropertyListError(at: start + min(index, text.count), "a <real> is not a decimal number, nan or inf")
        }
        try expect("</real>", after: "a real")
        return value
    }

    /// Reads `<date>`'s content and `</date>`: `YYYY-MM-DDTHH:MM:SSZ`, a valid Gregorian date and time.
    private mutating func date() throws(PropertyListError) -> Double {
        let (text, start) = content()
        let pattern = Array("0000-00-00T00:00:00Z".utf8)
        for index in 0..<pattern.count {
            let fits: Bool
            if index >= text.count {
                fits = false
            } else if pattern[index] == UInt8(ascii: "0") {
                fits = digitValue(text[index], radix: 10) != nil
            } else {
                fits = text[index] == pattern[index]
            }
            guard fits else {
                throw PropertyListError(at: start + index, "a <date> is not YYYY-MM-DDTHH:MM:SSZ")
            }
        }
        guard text.count == pattern.count else {
            throw PropertyListError(at: start + pattern.count, "a <date> is not YYYY-MM-DDTHH:MM:SSZ")
        }
        func number(_ from: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for index in from..<(from + count) { value = value * 10 + Int64(text[index] - 0x30) }
            return value
        }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second) = (number(11, 2), number(14, 2), number(17, 2))
        guard month >= 1, month <= 12 else { throw PropertyListError(at: start + 5, "a <date>'s month is not 01 … 12") }
        guard day >= 1, day <= PropertyListDate.daysIn(month: month, year: year) else {
            throw PropertyListError(at: start + 8, "a <date>'s day is not a day of its month")
        }
        guard hour <= 23 else { throw PropertyListError(at: start + 11, "a <date>'s hour is not 00 … 23") }
        guard minute <= 59 else { throw PropertyListError(at: start + 14, "a <date>'s minute is not 00 … 59") }
        guard second <= 59 else { throw PropertyListError(at: start + 17, "a <date>'s second is not 00 … 59") }
        try expect("</date>", after: "a date")
        return PropertyListDate.seconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    // MARK: - Markup outside values

    /// Reads the attributes of `<plist` up to its `>`: `name="value"` or `name='value'`, not interpreted.
    private mutating func rootAttributes() throws(PropertyListError) {
        while true {
            let hadSpace = position < bytes.count && isWhitespace(bytes[position])
            while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
            if take(">") { return }
            guard hadSpace, position < bytes.count, isNameStart(bytes[position]) else {
                throw PropertyListError(at: position, "expected an attribute or > in <plist>")
            }
            while position < bytes.count, isNameStart(bytes[position]) || isNameDigit(bytes[position]) {
                position += 1
            }
            while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
            guard take("=") else { throw PropertyListError(at: position, "an attribute of <plist> has no =") }
            while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
                throw PropertyListError(at: position, "an attribute value of <plist> is not quoted")
            }
            let quote = bytes[position]
            position += 1
            while true {
                guard position < bytes.count else {
                    throw PropertyListError(at: position, "an attribute value of <plist> is not closed")
                }
                let byte = bytes[position]
                if byte == quote { break }
                guard byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") else {
                    throw PropertyListError(at: position, "an attribute value of <plist> holds < or &")
                }
                _ = try scalar()
            }
            position += 1
        }
    }

    /// Skips from here past the first `terminator`, checking every character, refusing the byte `refused`.
    private mutating func skipScanning(to terminator: String, what: String, refusing refused: UInt8?)
        throws(PropertyListError)
    {
        let start = position
        while position < bytes.count {
            if take(terminator) { return }
            if let refused, bytes[position] == refused {
                throw PropertyListError(at: position, "\(what) holds \(hex(refused)) (an internal subset)")
            }
            _ = try scalar()
        }
        throw PropertyListError(at: start, "\(what) is not closed by \(terminator)")
    }

    /// Skips space, tab, line feed and carriage return; any other character outside markup is an error.
    private mutating func skipWhitespace(where place: String) throws(PropertyListError) {
        while position < bytes.count {
            let byte = bytes[position]
            if isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "<") {
                return
            } else {
                throw PropertyListError(at: position, "only whitespace may stand \(place)")
            }
        }
    }

    /// Throws the error of the markup this subset refuses if it starts here: a comment, a CDATA section, a
    /// processing instruction or another declaration.
    private func refuseMarkup() throws(PropertyListError) {
        if starts(with: "<!--") { throw PropertyListError(at: position, "comments are not allowed") }
        if starts(with: "<![CDATA[") { throw PropertyListError(at: position, "CDATA sections are not allowed") }
        if starts(with: "<?") {
            throw PropertyListError(
                at: position, "processing instructions other than the XML declaration are not allowed")
        }
        if starts(with: "<!") {
            throw PropertyListError(at: position, "declarations other than one DOCTYPE are not allowed")
        }
    }

    /// Consumes `literal` if the bytes here are exactly it, or throws.
    private mutating func expect(_ literal: String, after what: String) throws(PropertyListError) {
        guard take(literal) else { throw PropertyListError(at: position, "expected \(literal) after \(what)") }
    }

    // MARK: - Characters

    /// Reads one UTF-8 scalar here, which must be well formed and a character XML allows, and returns it.
    private mutating func scalar() throws(PropertyListError) -> UInt32 {
        let start = position
        let lead = bytes[position]
        let length: Int
        var value: UInt32
        var lowest: UInt32 = 0
        switch lead {
        case 0x00..<0x80: (length, value) = (1, UInt32(lead))
        case 0xC2..<0xE0: (length, value, lowest) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0..<0xF0: (length, value, lowest) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0..<0xF5: (length, value, lowest) = (4, UInt32(lead & 0x07), 0x10000)
        default: throw PropertyListError(at: start, "the byte \(hex(lead)) is not valid UTF-8")
        }
        for index in 1..<max(length, 1) {
            guard start + index < bytes.count, bytes[start + index] & 0xC0 == 0x80 else {
                throw PropertyListError(at: start, "the bytes at \(start) are not valid UTF-8")
            }
            value = value << 6 | UInt32(bytes[start + index] & 0x3F)
        }
        guard value >= lowest, value <= 0x10FFFF, value < 0xD800 || value > 0xDFFF else {
            throw PropertyListError(at: start, "the bytes at \(start) are not valid UTF-8")
        }
        guard isAllowed(value) else {
            throw PropertyListError(at: start, "the character \(hex(value)) is not allowed in XML")
        }
        position = start + length
        return value
    }

    /// Whether XML 1.0 allows the scalar `value` (its `Char` production).
    private func isAllowed(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Appends the UTF-8 of the scalar `value` (an allowed one) to `utf8`.
    private func appendUTF8(_ value: UInt32, to utf8: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return }
        utf8 += Array(String(Character(scalar)).utf8)
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }

    private func isNameDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46 where radix == 16: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66 where radix == 16: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// Whether the bytes here start with `prefix`.
    private func starts(with prefix: String) -> Bool {
        var index = position
        for byte in prefix.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private func starts(with prefix: [UInt8]) -> Bool {
        guard bytes.count - position >= prefix.count else { return false }
        for index in 0..<prefix.count where bytes[position + index] != prefix[index] { return false }
        return true
    }

    /// Consumes `literal` if the bytes here are exactly it.
    private mutating func take(_ literal: String) -> Bool {
        guard starts(with: literal) else { return false }
        position += literal.utf8.count
        return true
    }
}
