/// A strict RFC 8259 parser over UTF-8 bytes, written in pure Swift so that coverage-guided fuzzing sees it.
///
/// Rules (each violation is a ``JSONParseError`` with the byte offset where it was found):
/// - the whole input is one value, with only JSON whitespace (space, tab, LF, CR) around it; no byte order mark;
/// - strings are valid UTF-8, control characters must be escaped, `\u` escapes must form Unicode scalars
///   (a lone surrogate is an error);
/// - numbers follow the RFC grammar (no leading zeros, no `+`, no bare `.5`, no `NaN`);
/// - nesting deeper than ``Limits/maxDepth`` is an error (the top-level container is depth 1).
///
/// A key repeated in one object is not a syntax error (RFC 8259 only says names SHOULD be unique); the parser
/// keeps the last value and reports the offset of the first repeat in ``Parsed/firstDuplicateKeyOffset`` so that
/// a caller can treat it as a schema error. The parser never traps, whatever the input.
public struct JSONParser {
    public struct Limits: Sendable {
        public var maxDepth: Int
        public init(maxDepth: Int = 512) { self.maxDepth = maxDepth }
    }

    public struct Parsed: Sendable {
        public var value: JSONValue
        /// Byte offset of the first key repeated within one object, if any.
        public var firstDuplicateKeyOffset: Int?
    }

    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONParseError) -> Parsed {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> Parsed in
            var parser = Cursor(buffer: buffer, maxDepth: limits.maxDepth)
            return try parser.parseDocument()
        }
    }

    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> Parsed {
        try parse(Array(text.utf8), limits: limits)
    }

    /// Parses and returns only the value (duplicate keys keep their last value).
    public static func value(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try parse(bytes, limits: limits).value
    }

    public static func value(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits).value
    }
}

/// Why a text is not JSON, and where (byte offset from the start of the parsed bytes).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case empty = "no value"
        case unexpectedEnd = "unexpected end of input"
        case unexpectedByte = "unexpected byte"
        case trailingData = "data after the value"
        case invalidNumber = "invalid number"
        case invalidEscape = "invalid escape sequence"
        case invalidUnicodeEscape = "\\u escape that is not a Unicode scalar (lone surrogate)"
        case controlCharacterInString = "unescaped control character in string"
        case invalidUTF8 = "invalid UTF-8"
        case tooDeep = "nesting too deep"
        case byteOrderMark = "byte order mark"
    }

    public var reason: Reason
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}

private struct Cursor {
    let buffer: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    var firstDuplicate: Int?

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONParser.Parsed {
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            throw JSONParseError(.byteOrderMark, at: 0)
        }
        skipWhitespace()
        if index == buffer.count { throw JSONParseError(.empty, at: index) }
        let value = try parseValue()
        skipWhitespace()
        if index != buffer.count { throw JSONParseError(.trailingData, at: index) }
        return JSONParser.Parsed(value: value, firstDuplicateKeyOffset: firstDuplicate)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inline(__always)
    func peek() throws(JSONParseError) -> UInt8 {
        guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        return buffer[index]
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONParseError(.unexpectedByte, at: index)
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = word.utf8Start
        for i in 0..<word.utf8CodeUnitCount {
            guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard buffer[index] == start[i] else { throw JSONParseError(.unexpectedByte, at: index) }
            index += 1
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw JSONParseError(.tooDeep, at: index) }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedByte, at: index) }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw JSONParseError(.unexpectedByte, at: index) }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil, firstDuplicate == nil {
                firstDuplicate = keyOffset
            }
            skipWhitespace()
            let c = try peek()
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "}") { break }
            throw JSONParseError(.unexpectedByte, at: index - 1)
        }
        depth -= 1
        return .object(members)
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            let c = try peek()
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "]") { break }
            throw JSONParseError(.unexpectedByte, at: index - 1)
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(buffer[index]) {
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        } else {
            throw JSONParseError(.invalidNumber, at: index)
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            index += 1
            guard index < buffer.count, isDigit(buffer[index]) else { throw JSONParseError(.invalidNumber, at: index) }
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
            index += 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < buffer.count, isDigit(buffer[index]) else { throw JSONParseError(.invalidNumber, at: index) }
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(.invalidNumber, at: start) }
        return value
    }

    @inline(__always)
    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// Parses a string starting at the opening quote; validates UTF-8 and escapes.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: printable ASCII with no escapes.
        while index < buffer.count {
            let c = buffer[index]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
            index += 1
        }
        var bytes: [UInt8] = Array(buffer[start..<index])
        while true {
            guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            let c = buffer[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &bytes)
            case 0..<0x20:
                throw JSONParseError(.controlCharacterInString, at: index)
            case 0x20..<0x80:
                bytes.append(c)
                index += 1
            default:
                try copyUTF8Scalar(into: &bytes)
            }
        }
    }

    /// Copies one multi-byte UTF-8 sequence after checking it (no overlongs, no surrogates, ≤ U+10FFFF).
    mutating func copyUTF8Scalar(into bytes: inout [UInt8]) throws(JSONParseError) {
        let start = index
        let lead = buffer[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw JSONParseError(.invalidUTF8, at: start)
        }
        guard start + length <= buffer.count else { throw JSONParseError(.invalidUTF8, at: start) }
        let second = buffer[start + 1]
        guard second >= lower, second <= upper else { throw JSONParseError(.invalidUTF8, at: start) }
        var i = 2
        while i < length {
            guard buffer[start + i] & 0xC0 == 0x80 else { throw JSONParseError(.invalidUTF8, at: start) }
            i += 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]))
        index += length
    }

    mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1  // backslash
        guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        let c = buffer[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): bytes.append(0x22)
        case UInt8(ascii: "\\"): bytes.append(0x5C)
        case UInt8(ascii: "/"): bytes.append(0x2F)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            let first = try hex4()
            var scalarValue = UInt32(first)
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < buffer.count, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u")
                else { throw JSONParseError(.invalidUnicodeEscape, at: start) }
                index += 2
                let second = try hex4()
                guard (0xDC00...0xDFFF).contains(second) else { throw JSONParseError(.invalidUnicodeEscape, at: start) }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw JSONParseError(.invalidUnicodeEscape, at: start)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw JSONParseError(.invalidUnicodeEscape, at: start) }
            UTF8.encode(scalar) { bytes.append($0) }
        default:
            throw JSONParseError(.invalidEscape, at: start)
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            let c = buffer[index]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidEscape, at: index)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
