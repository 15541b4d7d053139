import StrictJSON
import Testing

/// Where the tree parser stops on malformed containers, pinned (offsets as the parser reported them before
/// parseObject and parseArray were rewritten over openContainer and consumeSeparator).
@Suite struct ContainerErrorOffsetTests {
    static let cases: [(String, String)] = [
        ("{", #"unexpectedEnd @1"#),
        ("[", #"unexpectedEnd @1"#),
        ("{}", #"ok {}"#),
        ("[]", #"ok []"#),
        ("{ }", #"ok {}"#),
        ("[ ]", #"ok []"#),
        ("{\"a\":1,}", #"unexpectedByte @7"#),
        ("[1,]", #"unexpectedByte @3"#),
        ("[1 2]", #"unexpectedByte @3"#),
        ("{\"a\":1 \"b\":2}", #"unexpectedByte @7"#),
        ("{\"a\" 1}", #"unexpectedByte @5"#),
        ("{1:2}", #"unexpectedByte @1"#),
        ("[1,,2]", #"unexpectedByte @3"#),
        ("{\"a\":1,\"a\":2}", #"ok {"a":2}"#),
        ("[[[]]", #"unexpectedEnd @5"#),
        ("{\"a\":[1,{\"b\":}]}", #"unexpectedByte @13"#),
        (" [ 1 , 2 ] x", #"trailingData @11"#),
        ("{\"a\":1}}", #"trailingData @7"#),
        ("[1]]", #"trailingData @3"#),
        ("{,}", #"unexpectedByte @1"#),
        ("[,]", #"unexpectedByte @1"#),
        ("{\"a\":{\"b\":{}},\"c\":[[],[{}]]}", #"ok {"a":{"b":{}},"c":[[],[{}]]}"#),
        ("[\"x\" , \"y\" ,]", #"unexpectedByte @12"#),
        ("{\"k\":1 ,\"k\":2 }", #"ok {"k":2}"#),
    ]

    @Test func containerErrorsKeepTheirReasonAndOffset() {
        for (input, expected) in Self.cases {
            let got: String
            do {
                got = "ok \(try JSONParser.value(Array(input.utf8)))"
            } catch {
                got = "\(error.reason) @\(error.offset)"
            }
            #expect(got == expected, "\(input.debugDescription)")
        }
    }
}
