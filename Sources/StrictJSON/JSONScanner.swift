/// A pull scanner over JSON bytes: the building block of ``JSONParser`` and of decoders that read a known
/// shape in one pass without building a tree (the selection decoder does).
///
/// The scanner reads from an `UnsafeBufferPointer`, so use it only inside the closure that provides the buffer.
/// Every method checks bounds and throws ``JSONParseError``; none traps.
public struct JSONScanner {
    public let buffer: UnsafeBufferPointer<UInt8>
    public let maxDepth: Int
    /// The byte offset of the next byte to read.
    public var index = 0
    /// How many containers are open.
    public var depth = 0
    /// Byte offset of the first key repeated within one object, among the objects read so far.
    public var firstDuplicate: Int?

    public init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    /// Rejects a byte order mark at the start.
    public mutating func checkNoByteOrderMark() throws(JSONParseError) {
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            throw JSONParseError(.byteOrderMark, at: 0)
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONParser.Parsed {
        try beginDocument()
        let value = try parseValue()
        try endDocument()
        return JSONParser.Parsed(value: value, firstDuplicateKeyOffset: firstDuplicate)
    }

    /// Checks the start of a document: no byte order mark, and a value after any whitespace.
    public mutating func beginDocument() throws(JSONParseError) {
        try checkNoByteOrderMark()
        skipWhitespace()
        if index == buffer.count { throw JSONParseError(.empty, at: index) }
    }

    /// Checks that only whitespace follows the document's value.
    public mutating func endDocument() throws(JSONParseError) {
        skipWhitespace()
        if index != buffer.count { throw JSONParseError(.trailingData, at: index) }
    }

    /// Consumes `byte` (after whitespace), or throws `unexpectedByte` / `unexpectedEnd`.
    public mutating func consume(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard try peek() == byte else { throw JSONParseError(.unexpectedByte, at: index) }
        index += 1
    }

    /// After a member or element: consumes `,` and returns `true`, or consumes `close` and returns `false`.
    public mutating func consumeSeparator(close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        let c = try peek()
        if c == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if c == close {
            index += 1
            return false
        }
        throw JSONParseError(.unexpectedByte, at: index)
    }

    /// Consumes `open` and then, if the container is empty, its `close`; returns whether there are members.
    /// Counts the container's depth (call ``leave()`` after its last member).
    public mutating func openContainer(_ open: UInt8, close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard try peek() == open else { throw JSONParseError(.unexpectedByte, at: index) }
        try enter()
        index += 1
        skipWhitespace()
        if try peek() == close {
            index += 1
            return false
        }
        return true
    }

    /// Closes a container opened with ``openContainer(_:close:)``.
    public mutating func leave() { depth -= 1 }

    /// Reads one object member's key and the `:` after it, leaving the scanner at the value (after whitespace).
    /// Returns the key and the byte offset of its opening quote.
    public mutating func parseMemberKey() throws(JSONParseError) -> (key: String, offset: Int) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedByte, at: index) }
        let offset = index
        let key = try parseString()
        try consume(UInt8(ascii: ":"))
        skipWhitespace()
        return (key, offset)
    }

    /// A member key as ``parseMemberKeyBytes()`` read it.
    public enum MemberKey {
        /// Printable ASCII without escapes: the key is exactly the bytes of ``JSONScanner/buffer`` in this range.
        case plain(Range<Int>)
        /// Any other key (escapes, non-ASCII), unescaped.
        case decoded(String)

        /// Calls `body` with the key's bytes (UTF-8: for JSON keys, equal bytes are equal code points); `buffer`
        /// is the scanner's, which a plain key's range refers to.
        public func withBytes<R>(in buffer: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
        {
            switch self {
            case .plain(let range): return body(UnsafeBufferPointer(rebasing: buffer[range]))
            case .decoded(var text): return text.withUTF8(body)
            }
        }
    }

    /// ``parseMemberKey()`` without building a `String` for the common key (printable ASCII, no escapes): a
    /// decoder that only needs to recognise known keys then allocates nothing for them. The same checks, the same
    /// errors at the same offsets, and the scanner ends at the same place.
    public mutating func parseMemberKeyBytes() throws(JSONParseError) -> (key: MemberKey, offset: Int) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedByte, at: index) }
        let offset = index
        var i = skipPlainBytes(from: index + 1)
        while i < buffer.count {
            let c = buffer[i]
            if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
            i += 1
        }
        let key: MemberKey
        if i < buffer.count, buffer[i] == UInt8(ascii: "\"") {
            key = .plain((offset + 1)..<i)
            index = i + 1
        } else {
            key = .decoded(try parseString())
        }
        try consume(UInt8(ascii: ":"))
        skipWhitespace()
        return (key, offset)
    }

    /// Calls `body` with the bytes of `key`, read by this scanner.
    public func withBytes<R>(of key: MemberKey, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        key.withBytes(in: buffer, body)
    }

    /// `key` as a `String` (built here for a plain key).
    public func string(_ key: MemberKey) -> String {
        switch key {
        case .plain(let range): return String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        case .decoded(let text): return text
        }
    }

    /// Validates one value without building it (still strict: UTF-8, escapes, numbers, depth), recording
    /// repeated keys in ``firstDuplicate``.
    public mutating func skipValue() throws(JSONParseError) {
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) else {
                depth -= 1
                return
            }
            var keys = ObjectKeys()
            repeat {
                let (key, keyOffset) = try parseMemberKeyBytes()
                if !keys.insert(key, of: self), firstDuplicate == nil { firstDuplicate = keyOffset }
                try skipValue()
            } while try consumeSeparator(close: UInt8(ascii: "}"))
            depth -= 1
        case UInt8(ascii: "["):
            guard try openContainer(UInt8(ascii: "["), close: UInt8(ascii: "]")) else {
                depth -= 1
                return
            }
            repeat {
                try skipValue()
            } while try consumeSeparator(close: UInt8(ascii: "]"))
            depth -= 1
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw JSONParseError(.unexpectedByte, at: index)
        }
    }

    @inline(__always)
    public mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inline(__always)
    public func peek() throws(JSONParseError) -> UInt8 {
        guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        return buffer[index]
    }

    public mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONParseError(.unexpectedByte, at: index)
        }
    }

    public mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = word.utf8Start
        for i in 0..<word.utf8CodeUnitCount {
            guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard buffer[index] == start[i] else { throw JSONParseError(.unexpectedByte, at: index) }
            index += 1
        }
    }

    public mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw JSONParseError(.tooDeep, at: index) }
    }

    public mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if try openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) {
            repeat {
                let (key, keyOffset) = try parseMemberKey()
                let value = try parseValue()
                // A repeated key is one with the same code points. Swift's dictionary also merges keys that are only
                // canonically equivalent ("Café" in NFC and NFD): those are not duplicates, but the tree keeps one.
                if let existing = members.index(forKey: key) {
                    if UTF8Bytes.equal(members.keys[existing], key), firstDuplicate == nil {
                        firstDuplicate = keyOffset
                    }
                    members.remove(at: existing)
                }
                members[key] = value
            } while try consumeSeparator(close: UInt8(ascii: "}"))
        }
        leave()
        return .object(members)
    }

    public mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        if try openContainer(UInt8(ascii: "["), close: UInt8(ascii: "]")) {
            repeat {
                skipWhitespace()
                elements.append(try parseValue())
            } while try consumeSeparator(close: UInt8(ascii: "]"))
        }
        leave()
        return .array(elements)
    }

    /// Parses a number at the current index: the RFC 8259 grammar, and a finite `Double` (``JSONParseError/Reason/numberOutOfRange`` otherwise).
    public mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        try scanNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(.invalidNumber, at: start) }
        guard value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return value
    }

    /// Checks the RFC 8259 number grammar and moves past the number.
    public mutating func scanNumber() throws(JSONParseError) {
        guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
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
    }

    @inline(__always)
    public func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// Parses a string starting at the opening quote; validates UTF-8 and escapes.
    public mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: printable ASCII with no escapes, eight bytes at a time up to the first byte that is not.
        index = skipPlainBytes(from: index)
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
        // Escapes or non-ASCII: check the rest first (no allocation, and any error is found there), then
        // unescape into the String's own storage. Unescaped text is never longer than its JSON (an escape of
        // 2, 6 or 12 bytes gives 1 to 4), so the JSON's length is capacity enough: one allocation, none when short.
        let plainEnd = index
        var bytes = DiscardingSink()
        try scanStringRest(into: &bytes)
        let end = index
        index = plainEnd
        let text = String(unsafeUninitializedCapacity: end - start) { storage in
            var sink = PointerSink(storage)
            sink.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<plainEnd]))
            // Checked above: the same pass cannot fail now.
            do throws(JSONParseError) { try scanStringRest(into: &sink) } catch { return 0 }
            return sink.count
        }
        index = end
        return text
    }

    /// Checks a string starting at the opening quote exactly as ``parseString()`` does (same errors, same end),
    /// without building it: for values that are only validated.
    public mutating func skipString() throws(JSONParseError) {
        index = skipPlainBytes(from: index + 1)
        var sink = DiscardingSink()
        try scanStringRest(into: &sink)
    }

    /// The rest of a string from `index` (inside it) to after its closing quote: validates escapes and UTF-8,
    /// and hands the unescaped bytes to `sink`.
    mutating func scanStringRest<Sink: StringSink>(into bytes: inout Sink) throws(JSONParseError) {
        while true {
            guard index < buffer.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            let c = buffer[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try parseEscape(into: &bytes)
            case 0..<0x20:
                throw JSONParseError(.controlCharacterInString, at: index)
            case 0x20..<0x80:
                // A run of printable ASCII without quote or backslash, copied in one go.
                let runStart = index
                index = skipPlainBytes(from: index + 1)
                while index < buffer.count {
                    let d = buffer[index]
                    if d < 0x20 || d >= 0x80 || d == UInt8(ascii: "\"") || d == UInt8(ascii: "\\") { break }
                    index += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
            default:
                try copyUTF8Scalar(into: &bytes)
            }
        }
    }

    /// The offset of the first byte at or after `start` that is a quote, a backslash, a control character or
    /// not ASCII (or of the last few bytes, which are left to the byte-by-byte loop), skipping eight plain bytes
    /// per step: SWAR tests whose lowest flagged byte is always exact (borrows only flag bytes above a true hit).
    @inline(__always)
    func skipPlainBytes(from start: Int) -> Int {
        guard let base = buffer.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* 0x22
        let backslashes = ones &* 0x5C
        var i = start
        while i &+ 8 <= buffer.count {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let q = w ^ quotes
            let b = w ^ backslashes
            let special =
                (w & highs) | ((w &- ones &* 0x20) & ~w & highs) | ((q &- ones) & ~q & highs)
                | ((b &- ones) & ~b & highs)
            if special != 0 { return i &+ special.trailingZeroBitCount / 8 }
            i &+= 8
        }
        return i
    }

    /// Copies one multi-byte UTF-8 sequence after checking it (no overlongs, no surrogates, ≤ U+10FFFF).
    mutating func copyUTF8Scalar<Sink: StringSink>(into bytes: inout Sink) throws(JSONParseError) {
        let start = index
        guard let lead = UTF8Lead(buffer[index]) else { throw JSONParseError(.invalidUTF8, at: start) }
        let length = 1 + lead.continuationCount
        guard start + length <= buffer.count else { throw JSONParseError(.invalidUTF8, at: start) }
        guard lead.firstContinuation.contains(buffer[start + 1]) else { throw JSONParseError(.invalidUTF8, at: start) }
        var i = 2
        while i < length {
            guard buffer[start + i] & 0xC0 == 0x80 else { throw JSONParseError(.invalidUTF8, at: start) }
            i += 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]))
        index += length
    }

    mutating func parseEscape<Sink: StringSink>(into bytes: inout Sink) throws(JSONParseError) {
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
                guard index + 1 < buffer.count, buffer[index] == UInt8(ascii: "\\"),
                    buffer[index + 1] == UInt8(ascii: "u")
                else { throw JSONParseError(.invalidUnicodeEscape, at: start) }
                index += 2
                let second = try hex4()
                guard (0xDC00...0xDFFF).contains(second) else { throw JSONParseError(.invalidUnicodeEscape, at: start) }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw JSONParseError(.invalidUnicodeEscape, at: start)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw JSONParseError(.invalidUnicodeEscape, at: start)
            }
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

/// Where ``JSONScanner`` puts the unescaped bytes of a string it reads.
protocol StringSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

/// Writes the bytes into storage known to be large enough (``JSONScanner/parseString()``); a write past its
/// end is dropped rather than made.
struct PointerSink: StringSink {
    let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }

    mutating func append(_ byte: UInt8) {
        guard count < storage.count else { return }
        storage[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        let n = min(bytes.count, storage.count - count)
        guard n > 0, let target = storage.baseAddress, let source = bytes.baseAddress else { return }
        (target + count).update(from: source, count: n)
        count += n
    }
}

/// Drops the bytes (``JSONScanner/skipString()``): the string is only checked.
struct DiscardingSink: StringSink {
    func append(_ byte: UInt8) {}
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {}
}
