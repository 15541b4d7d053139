import Testing

@testable import StrictJSON

@Suite struct JSONParserTests {
    @Test func parsesEveryValueKind() throws {
        let v = try JSONParser.value(#"{"a":[1,-2.5,1e3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#)
        #expect(v["a"] == [1, -2.5, 1000, true, false, nil, "x\né😀"])
        #expect(v["b"] == .object([:]))
    }

    @Test(arguments: [
        ("", JSONParseError.Reason.empty),
        ("  ", .empty),
        ("{", .unexpectedEnd),
        ("[1,]", .unexpectedByte),
        ("01", .trailingData),
        ("-", .unexpectedEnd),
        ("1.", .invalidNumber),
        ("1e", .invalidNumber),
        ("9999999E99999999999999999", .numberOutOfRange),
        ("[-1e400]", .numberOutOfRange),
        (".5", .unexpectedByte),
        ("+1", .unexpectedByte),
        ("NaN", .unexpectedByte),
        ("\"\\x\"", .invalidEscape),
        ("\"\\ud800\"", .invalidUnicodeEscape),
        ("\"\\udc00\"", .invalidUnicodeEscape),
        ("\"\\ud800\\u0041\"", .invalidUnicodeEscape),
        ("\"a\u{01}\"", .controlCharacterInString),
        ("[1] [2]", .trailingData),
        ("tru", .unexpectedEnd),
        ("nul1", .unexpectedByte),
    ])
    func rejectsMalformedText(text: String, reason: JSONParseError.Reason) {
        #expect(throws: JSONParseError.self) { try JSONParser.value(text) }
        do {
            _ = try JSONParser.value(text)
        } catch {
            #expect(error.reason == reason, "\(text.debugDescription): \(error)")
        }
    }

    @Test func rejectsInvalidUTF8WithOffset() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82],
        ] {
            do {
                _ = try JSONParser.value(bytes)
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.reason == .invalidUTF8 && error.offset == 1, "\(bytes): \(error)")
            }
        }
    }

    @Test func rejectsByteOrderMark() {
        #expect(throws: JSONParseError(.byteOrderMark, at: 0)) { try JSONParser.value([0xEF, 0xBB, 0xBF, 0x31]) }
    }

    @Test func enforcesDepthLimit() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        _ = try JSONParser.value(ok, limits: .init(maxDepth: 32))
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: JSONParseError(.tooDeep, at: 32)) { try JSONParser.value(deep, limits: .init(maxDepth: 32)) }
        // A hostile nesting far past the limit fails fast instead of exhausting the stack.
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParseError.self) { try JSONParser.value(hostile) }
    }

    @Test func reportsFirstDuplicateKeyWithoutFailing() throws {
        let parsed = try JSONParser.parse(#"{"a":1,"b":{"c":1,"c":2},"a":3}"#)
        #expect(parsed.firstDuplicateKeyOffset == 18)
        #expect(parsed.value["a"] == 3)
    }

    @Test func writerSortsKeysByCodePointAndRoundTrips() throws {
        let v: JSONValue = ["b": 1, "a": ["é": "x/y\u{0}\"\\"], "Z": 1.5, "é": nil]
        let text = JSONWriter.string(v)
        #expect(text == #"{"Z":1.5,"a":{"é":"x/y\u0000\"\\"},"b":1,"é":null}"#)
        #expect(try JSONParser.value(text) == v)
        #expect(JSONWriter.string("a/b", options: .init(escapeSlashes: true)) == #""a\/b""#)
    }
}

@Suite struct CodePointEqualityTests {
    static let nfc = "Caf\u{E9}"
    static let nfd = "Cafe\u{301}"

    @Test func swiftStringsAreCanonicallyEquivalentButJSONValuesAreNot() {
        #expect(Self.nfc == Self.nfd)  // Swift's rule, the reason this type exists
        #expect(CodePointString(Self.nfc) != CodePointString(Self.nfd))
        #expect(Set([CodePointString(Self.nfc), CodePointString(Self.nfd)]).count == 2)
        #expect(JSONValue.string(Self.nfc) != JSONValue.string(Self.nfd))
        #expect(JSONValue.array([.string(Self.nfc)]) != JSONValue.array([.string(Self.nfd)]))
        #expect(JSONValue.object(["k": .string(Self.nfc)]) != JSONValue.object(["k": .string(Self.nfd)]))
        #expect(JSONValue.object([Self.nfc: 1]) != JSONValue.object([Self.nfd: 1]))
        #expect(JSONValue.object([Self.nfc: 1]) == JSONValue.object([Self.nfc: 1]))
        #expect(CodePointString("a") < CodePointString("b") && CodePointString("Z") < CodePointString("a"))
    }

    @Test func codePointComparisonsFollowTheirDefinition() {
        // Equality, order and hashing (done on UTF-8 bytes with memcmp) against the definition on code points.
        let long = String(repeating: "QUJD", count: 300)
        let strings = [
            "", "a", "b", "ab", "abc", "abd", "Z", "~", "\u{7F}", Self.nfc, Self.nfd, "Cafe", "Caf", "é", "e\u{301}",
            "日本",
            "日本語", "😀", "\u{FFFF}", "\u{10000}", long, long + "a", String(long.dropLast()) + "E",
            String(Self.nfd.unicodeScalars),
        ]
        for a in strings {
            for b in strings {
                let (x, y) = (Array(a.unicodeScalars).map(\.value), Array(b.unicodeScalars).map(\.value))
                #expect((CodePointString(a) == CodePointString(b)) == (x == y), "\(a) == \(b)")
                #expect((CodePointString(a) < CodePointString(b)) == x.lexicographicallyPrecedes(y), "\(a) < \(b)")
                #expect(JSONWriter.codePointLess(a, b) == x.lexicographicallyPrecedes(y))
                if x == y { #expect(CodePointString(a).hashValue == CodePointString(b).hashValue) }
                #expect((JSONValue.string(a) == JSONValue.string(b)) == (x == y))
                #expect((JSONValue.object([a: 1, "k": [nil]]) == JSONValue.object(["k": [nil], b: 1])) == (x == y))
            }
        }
        let distinct = Set(strings.map { CodePointString($0) })
        #expect(distinct.count == strings.count - 1)  // the NFD copy is the same code points
    }

    @Test func equalValuesHashEqual() {
        let pairs: [(JSONValue, JSONValue)] = [
            (["b": 1, "a": [nil, true]], ["a": [nil, true], "b": 1]), (0.0, -0.0),
            (.string(Self.nfc), .string(Self.nfc)),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
        #expect(Set<JSONValue>([.string(Self.nfc), .string(Self.nfd)]).count == 2)
    }
}

@Suite struct UTF8LeadTests {
    /// The table agrees with the standard library's validator on every 2-, 3- and 4-byte sequence prefix.
    @Test func agreesWithTheStandardLibraryOnEveryLeadAndFirstContinuation() {
        for lead in UInt8(0x80)...0xFF {
            for second in UInt8(0x00)...0xFF {
                let expected = UTF8Lead(lead).map { $0.firstContinuation.contains(second) } ?? false
                let count = UTF8Lead(lead)?.continuationCount ?? 1  // an invalid lead is invalid at any length
                let bytes = [lead, second] + Array(repeating: UInt8(0x80), count: count - 1)
                #expect((String(validating: bytes, as: UTF8.self) != nil) == expected, "\(lead) \(second)")
            }
        }
    }
}
