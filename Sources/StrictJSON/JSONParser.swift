/// A strict RFC 8259 parser over UTF-8 bytes, written in pure Swift so that coverage-guided fuzzing sees it.
///
/// Rules (each violation is a ``JSONParseError`` with the byte offset where it was found):
/// - the whole input is one value, with only JSON whitespace (space, tab, LF, CR) around it; no byte order mark;
/// - strings are valid UTF-8, control characters must be escaped, `\u` escapes must form Unicode scalars
///   (a lone surrogate is an error);
/// - numbers follow the RFC grammar (no leading zeros, no `+`, no bare `.5`, no `NaN`) and are within the finite
///   range of a `Double` (`1e400` is an error: RFC 8259 §6 lets a parser limit the range, and a tree number that
///   became infinity could not be written back; the writer has no spelling for it). The scanner's one-pass readers
///   only check the grammar of the numbers they skip;
/// - nesting deeper than ``Limits/maxDepth`` is an error (the top-level container is depth 1).
///
/// Keys are compared by code point (RFC 8259 §8.3). A tree object is a Swift dictionary, which cannot hold two keys
/// that differ only in Unicode normalization (`"Café"` in NFC and NFD): the tree keeps the last of them; the
/// scanner's one-pass readers (such as the selection decoder) tell them apart.
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
            var scanner = JSONScanner(buffer: buffer, maxDepth: limits.maxDepth)
            return try scanner.parseDocument()
        }
    }

    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> Parsed {
        try parse(Array(text.utf8), limits: limits)
    }

    /// Parses bytes in place (no copy), and returns only the value.
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) throws(JSONParseError)
        -> JSONValue
    {
        var scanner = JSONScanner(buffer: bytes, maxDepth: limits.maxDepth)
        return try scanner.parseDocument().value
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
        case numberOutOfRange = "number outside the range of a Double"
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
