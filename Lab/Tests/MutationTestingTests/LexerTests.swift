import Testing

@testable import MutationTesting

/// The lexer sees code only where the compiler does: not in comments, strings, attributes, `#if` lines or
/// branches that are not built.
@Suite struct LexerTests {
    func texts(_ source: String) throws -> [String] { try SwiftLexer.tokenize(source).map(\.text) }

    @Test func commentsAreSkippedIncludingNestedBlockComments() throws {
        let source = """
            a // b < c
            /* d < e /* nested < */ still comment < */ f
            """
        #expect(try texts(source) == ["a", "f"])
    }

    @Test func aStringIsOneTokenWithItsInterpolations() throws {
        let source = #"let s = "x < y \(f("(")) && \(a < b) done" + t"#
        #expect(try texts(source) == ["let", "s", "=", #""x < y \(f("(")) && \(a < b) done""#, "+", "t"])
    }

    @Test func multiLineAndRawStringsAreOneToken() throws {
        let source = ##"""
            let a = """
                if x < y { "quoted" }
                """
            let b = #"raw " still raw \(not) < "#
            let c = #"""
                \#(x) < y """ not the end
                """#
            d
            """##
        let tokens = try SwiftLexer.tokenize(source)
        #expect(tokens.filter { $0.kind == .string }.count == 3)
        #expect(tokens.last?.text == "d")
        #expect(tokens.last?.line == 8)
        #expect(!tokens.contains { $0.text == "<" })
    }

    @Test func operatorsAreMaximalRunsAndGenericsAreNotSpaced() throws {
        let tokens = try SwiftLexer.tokenize("func f<T: P>(a: Array<Int>) -> Set<T> { 0..<n; 0...n; a <= b }")
        #expect(tokens.contains { $0.text == "->" })
        #expect(tokens.contains { $0.text == "..<" })
        #expect(tokens.contains { $0.text == "..." })
        let spaced = tokens.filter(\.isSpacedBinaryOperator).map(\.text)
        #expect(spaced == ["->", "<="])
    }

    @Test func attributesAreSkippedWithTheirArguments() throws {
        #expect(try texts("@inline(__always) @available(iOS 16, *) func f() {}") == ["func", "f", "(", ")", "{", "}"])
    }

    @Test func numbersAreIntegersOrNot() throws {
        let tokens = try SwiftLexer.tokenize("0x1F 1_000 0b101 1.5 1e3 0x1p4 pair.0")
        #expect(
            tokens.map(\.kind) == [
                .integer, .integer, .integer, .number, .number, .number, .identifier, .punctuation, .integer,
            ])
    }

    @Test func onlyTheBuiltBranchOfAnIfIsTokenized() throws {
        let source = """
            #if os(Windows)
            windows
            #elseif canImport(Glibc) || canImport(Darwin)
            unix
            #else
            other
            #endif
            #if DEBUG && !RELEASE_ONLY
            debug
            #endif
            """
        #expect(try texts(source) == ["unix", "debug"])
    }

    @Test func unbalancedInputIsATypedError() {
        #expect(throws: SwiftLexerError.self) { try SwiftLexer.tokenize("let s = \"never closed") }
        #expect(throws: SwiftLexerError.self) { try SwiftLexer.tokenize("/* open") }
        #expect(throws: SwiftLexerError.self) { try SwiftLexer.tokenize("#if DEBUG\nx") }
        #expect(throws: SwiftLexerError.self) { try SourceStructure(tokens: SwiftLexer.tokenize("f(a[0)]")) }
    }

    @Test func conditionsEvaluateLikeTheCompiler() throws {
        let host = CompilationConditions(flags: ["DEBUG"], os: "Linux", arch: "x86_64", importableModules: ["Glibc"])
        #expect(try host.evaluate("DEBUG", line: 1))
        #expect(try !host.evaluate("SOME_FLAG", line: 1))
        #expect(try host.evaluate("!SOME_FLAG && (os(Linux) || os(macOS))", line: 1))
        #expect(try host.evaluate("compiler(>=6.0) && canImport(Glibc)", line: 1))
        #expect(try !host.evaluate("canImport(Darwin) || arch(arm64)", line: 1))
        #expect(throws: SwiftLexerError.self) { try host.evaluate("DEBUG &&", line: 3) }
    }
}
