import Testing

@testable import StrictJSON

/// The allocation-free paths (keys read as bytes, strings checked without being built, repeated keys found
/// without a set) must behave exactly like the paths that build Strings.
@Suite struct JSONScannerKeyTests {
    /// Member texts (`"key": value` and broken variants), each read from its first byte.
    static let members: [String] = [
        #""a":1"#, #""applicationTokens" : []"#, #""":0"#, #""\u0061":1"#, #""caf\u00e9":1"#, "\"café\":1",
        "\"cafe\u{301}\":1", #""a\"b":1"#, #""a\\":1"#, #""a\/b":1"#, #""😀":1"#, #""abcdefghijklmnopq":1"#,
        #""abc"#, #""abcdefghijklmn"#, "\"a\u{01}b\":1", #""a\x":1"#, #""\ud800":1"#, #""a" 1"#, #""a""#,
        "\"a\u{7F}\":1",
        "\"" + String(repeating: "k", count: 40) + "\"\t:\n2", "x:1", "", "\"\u{FF}\":1",
    ]

    static func scanner<R>(_ text: String, _ body: (inout JSONScanner) throws(JSONParseError) -> R) -> (
        Result<R, JSONParseError>, Int
    ) {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer: buffer, maxDepth: 8)
            do throws(JSONParseError) {
                return (.success(try body(&scanner)), scanner.index)
            } catch {
                return (.failure(error), scanner.index)
            }
        }
    }

    @Test(arguments: members)
    func keyBytesMatchTheStringKey(text: String) {
        let (built, builtEnd) = Self.scanner(text) { (s) throws(JSONParseError) in try s.parseMemberKey() }
        let (bytes, bytesEnd) = Self.scanner(text) { (s) throws(JSONParseError) -> (String, Int, Bool) in
            let (key, offset) = try s.parseMemberKeyBytes()
            let isPlain: Bool
            if case .plain = key { isPlain = true } else { isPlain = false }
            return (s.withBytes(of: key) { String(decoding: $0, as: UTF8.self) }, offset, isPlain)
        }
        switch (built, bytes) {
        case (.success(let a), .success(let b)):
            #expect(UTF8Bytes.equal(a.key, b.0), "\(text.debugDescription)")
            #expect(a.offset == b.1)
            #expect(builtEnd == bytesEnd)
            // Plain exactly when the key's JSON is its bytes: printable ASCII without escapes.
            let raw = text.utf8.dropFirst().prefix { $0 != UInt8(ascii: "\"") }
            #expect(
                b.2 == raw.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\\") },
                "\(text.debugDescription)")
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text.debugDescription)")
        default:
            Issue.record("\(text.debugDescription): \(built) against \(bytes)")
        }
    }

    /// String values (with what follows), each read from the opening quote.
    static let strings: [String] =
        members.filter { $0.hasPrefix("\"") } + [
            "\"" + String(repeating: "p", count: 23) + "\\n" + String(repeating: "q", count: 9) + "\"",
            "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud83d\\u0041\"", "\"\u{E9}\u{1F600}\"",
        ]

    @Test(arguments: strings)
    func skippingAStringEndsWhereParsingEnds(text: String) {
        let (parsed, parsedEnd) = Self.scanner(text) { (s) throws(JSONParseError) in try s.parseString() }
        let (skipped, skippedEnd) = Self.scanner(text) { (s) throws(JSONParseError) in try s.skipString() }
        switch (parsed, skipped) {
        case (.success, .success): #expect(parsedEnd == skippedEnd, "\(text.debugDescription)")
        case (.failure(let a), .failure(let b)): #expect(a == b, "\(text.debugDescription)")
        default: Issue.record("\(text.debugDescription): \(parsed) against \(skipped)")
        }
    }

    /// The offset of the first repeated key of an object, through `skipValue` (``ObjectKeys``), or nil.
    static func firstDuplicate(_ json: String) throws -> Int? {
        try Array(json.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer: buffer, maxDepth: 8)
            try scanner.skipValue()
            return scanner.firstDuplicate
        }
    }

    /// The same, through the tree parser (Strings and a dictionary), the reference for this test.
    static func firstDuplicateParsed(_ json: String) throws -> Int? {
        try JSONParser.parse(json).firstDuplicateKeyOffset
    }

    @Test func repeatedKeysAreFoundByCodePoint() throws {
        let cases: [(String, Int?)] = [
            (#"{"a":1,"b":2}"#, nil),
            (#"{"a":1,"a":2}"#, 7),
            (#"{"a":1,"\u0061":2}"#, 7),  // an escape spells the same key
            (#"{"\u0061":1,"a":2}"#, 12),
            ("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}", nil),  // NFC and NFD: two keys
            ("{\"caf\u{E9}\":1,\"caf\\u00e9\":2}", 11),
            (#"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6}"#, nil),  // past the four compared directly
            (#"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k3":6}"#, 36),
            (#"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k5":7}"#, 43),
            (#"{"k1":1,"k2":2,"k3":3,"k4":4,"k\u0031":5}"#, 29),
            (#"{"x":{"a":1,"a":2},"y":1}"#, 12),  // inner objects have their own keys
            (#"{"x":{"a":1},"a":2,"x":3}"#, 19),
        ]
        for (json, expected) in cases {
            #expect(try Self.firstDuplicate(json) == expected, "\(json)")
            #expect(try Self.firstDuplicateParsed(json) == expected, "\(json) (parser)")
        }
    }

    @Test func manyKeysStayDistinct() throws {
        let keys = (0..<300).map { "\"key\($0)\":\($0)" }
        #expect(try Self.firstDuplicate("{" + keys.joined(separator: ",") + "}") == nil)
        let repeated = "{" + keys.joined(separator: ",") + ",\"key150\":0}"
        #expect(try Self.firstDuplicate(repeated) == repeated.utf8.count - 11)
    }
}
