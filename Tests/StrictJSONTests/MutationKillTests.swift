import Testing

@testable import StrictJSON

/// Behaviour no other test pinned down, each found by a mutant of `lab mutate` that survived the suite
/// (docs/MUTATION-TESTING.md): the exact bounds of the depth limit, the byte order mark, surrogate pairs, UTF-8
/// continuation bytes, the pretty layout of arrays and the byte order of keys; the depth that `skipValue` keeps,
/// the byte 0x80 at the end of a plain run, backslashes in an escaped string's runs and a lone low surrogate.
@Suite struct MutationKillTests {
    func reason(_ bytes: [UInt8], limits: JSONParser.Limits = .init()) -> JSONParseError.Reason? {
        do {
            _ = try JSONParser.value(bytes, limits: limits)
            return nil
        } catch {
            return error.reason
        }
    }

    func reason(_ text: String) -> JSONParseError.Reason? { reason(Array(text.utf8)) }

    func nested(_ depth: Int, prefix: String = "", suffix: String = "") -> String {
        prefix + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + suffix
    }

    @Test func theDefaultDepthLimitIs512() {
        #expect(JSONParser.Limits().maxDepth == 512)
        #expect(reason(nested(512)) == nil)
        #expect(reason(nested(513)) == .tooDeep)
    }

    @Test func anEmptyObjectLeavesTheDepthAsItWas() {
        // `{}` opens and closes a level: the arrays after it are as deep as without it.
        #expect(reason(nested(511, prefix: "[{},", suffix: "]")) == nil)
        #expect(reason(nested(512, prefix: "[{},{},", suffix: "]")) == .tooDeep)
    }

    @Test func aByteOrderMarkAloneIsReportedAsOne() {
        #expect(reason([0xEF, 0xBB, 0xBF]) == .byteOrderMark)
        #expect(reason([0xEF, 0xBB, 0xBF, 0x31]) == .byteOrderMark)
    }

    @Test func surrogatesPairOnlyHighThenLow() throws {
        #expect(try JSONParser.value(#""\ud800\udc00""#) == .string("\u{10000}"))
        #expect(try JSONParser.value(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
        #expect(reason(#""\ud800\ue000""#) == .invalidUnicodeEscape)  // the second is past the low surrogates
        #expect(reason(#""\udc00""#) == .invalidUnicodeEscape)  // a lone low surrogate
        #expect(reason(#""\udc00\udc00""#) == .invalidUnicodeEscape)  // low, low: not a pair
        #expect(try JSONParser.value(#""\ue000""#) == .string("\u{E000}"))
    }

    @Test func everyContinuationByteIsChecked() {
        // A three-byte sequence whose last byte is not a continuation byte.
        #expect(reason([0x22, 0xE2, 0x82, 0x41, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0xF0, 0x9F, 0x98, 0x41, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0xE2, 0x82, 0xAC, 0x22]) == nil)  // €
    }

    @Test func prettyArraysCloseOnTheirOwnLine() {
        let pretty = JSONWriter.Options(pretty: true)
        #expect(JSONWriter.string([1], options: pretty) == "[\n  1\n]")
        #expect(JSONWriter.string([], options: pretty) == "[]")
        #expect(JSONWriter.string(["a": [2, 3]], options: pretty) == "{\n  \"a\": [\n    2,\n    3\n  ]\n}")
    }

    @Test func bytesLessIsByteOrderThenLength() {
        func less(_ a: String, _ b: String) -> Bool {
            Array(a.utf8).withUnsafeBufferPointer { x in
                Array(b.utf8).withUnsafeBufferPointer { y in JSONWriter.bytesLess(x, y) }
            }
        }
        #expect(!less("b", "ab"))
        #expect(less("ab", "b"))
        #expect(!less("ba", "a"))
        #expect(less("a", "ab"))
        #expect(!less("a", "a"))
    }

    func skipReason(_ text: String, maxDepth: Int) -> JSONParseError.Reason? {
        [UInt8](text.utf8).withUnsafeBufferPointer { buffer -> JSONParseError.Reason? in
            var scanner = JSONScanner(buffer: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                try scanner.skipValue()
                return nil
            } catch {
                return error.reason
            }
        }
    }

    /// Validating without building (JSONScanner.skipValue) keeps the depth limit as parsing does: `{}` and `[]`
    /// open and close one level, and the arrays after them are as deep as without them. (Mutants
    /// `Sources/StrictJSON/JSONScanner.swift:constant:68aafb75` and `:68aafb75-3` leave two levels after an empty
    /// object or array.)
    @Test func skippingAnEmptyObjectLeavesTheDepthAsItWas() {
        #expect(skipReason("[{},[[]]]", maxDepth: 3) == nil)
        #expect(skipReason("[{},[[[]]]]", maxDepth: 3) == .tooDeep)
        #expect(skipReason("[{},{},[[[]]]]", maxDepth: 3) == .tooDeep)
        #expect(skipReason("[[],[[]]]", maxDepth: 3) == nil)
        #expect(skipReason("[[],[[[]]]]", maxDepth: 3) == .tooDeep)
    }

    /// A byte 0x80 in a string is invalid UTF-8 (a continuation byte with no lead), also as the first byte
    /// after a plain run or after an escape. (Mutants `Sources/StrictJSON/JSONScanner.swift:relational:61281832`
    /// and `:constant:3334ba65` let 0x80 into the plain run of `parseString` and of `scanStringRest`.)
    @Test func aByte0x80EndsPlainRunsAsInvalidUTF8() {
        #expect(reason([0x22, 0x80, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0x61, 0x80, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0x5C, 0x6E, 0x61, 0x80, 0x22]) == .invalidUTF8)  // "\na" then 0x80
        #expect(reason([0x22, 0xC2, 0x80, 0x22]) == nil)  // U+0080
    }

    /// A backslash after a plain run in an escaped string starts an escape; it is never copied as text.
    /// (Mutant `Sources/StrictJSON/JSONScanner.swift:relational:d68ec012` lets the run in `scanStringRest` run
    /// over a backslash.)
    @Test func aBackslashAfterARunStartsAnEscape() throws {
        #expect(try JSONParser.value(#""\na\n""#) == .string("\na\n"))
        #expect(try JSONParser.value(#""\tab\u0041""#) == .string("\tabA"))
    }

    /// A low surrogate first is an invalid escape as soon as it is read: the escape after it is never
    /// read as its pair, so a malformed one there is not what is reported. (Mutant
    /// `Sources/StrictJSON/JSONScanner.swift:constant:4bad6c23` takes U+DC00 for a high surrogate and reads on.)
    @Test func aLoneLowSurrogateIsReportedBeforeTheNextEscape() {
        #expect(reason(#""\udc00\u00zz""#) == .invalidUnicodeEscape)
        #expect(reason(#""\udc00\u"#) == .invalidUnicodeEscape)
    }
}
