import Foundation
import Testing

@testable import MutationTesting

/// A mutant schema compiles, and `STC_MUTANT=n` turns on mutant `n` and no other: each run of one compiled
/// program prints what the program with that one change, made by hand, prints.
@Suite struct SchemaTests {
    static let function = """
        func classify(_ n: Int) -> String {
            guard n >= 0 else { return "negative" }
            var label = "small"
            if n > 9 { label = "large" }
            if n == 0 { return "zero" }
            return n < 100 && n != 7 ? label : label + "!"
        }

        """
    static let main = #"print([-1, 0, 7, 9, 10, 100].map(classify).joined(separator: " "))"# + "\n"

    /// Each mutant of ``function``, in the finder's order, and what the program prints with it on (worked out by
    /// hand from the mutated source).
    static let expected: [(change: String, output: String)] = [
        ("2 negate-condition", "small negative negative negative negative negative"),
        ("2 remove-guard", "small zero small! small large large!"),
        ("2 relational >= → >", "negative negative small! small large large!"),
        ("2 constant 0 → 1", "negative negative small! small large large!"),
        ("4 negate-condition", "negative zero large! large small small!"),
        ("4 relational > → >=", "negative zero small! large large large!"),
        ("4 constant 9 → 10", "negative zero small! small small large!"),
        ("4 empty-branch", "negative zero small! small small small!"),
        ("5 negate-condition", "negative small zero zero zero zero"),
        ("5 relational == → !=", "negative small zero zero zero zero"),
        ("5 constant 0 → 1", "negative small small! small large large!"),
        ("5 remove-return", "negative small small! small large large!"),
        ("6 relational < → <=", "negative zero small! small large large"),
        ("6 constant 100 → 101", "negative zero small! small large large"),
        ("6 boolean && → ||", "negative zero small small large large"),
        ("6 relational != → ==", "negative zero small small! large! large!"),
        ("6 constant 7 → 8", "negative zero small small large large!"),
    ]
    static let original = "negative zero small! small large large!"

    func change(_ mutant: Mutant) -> String {
        switch mutant.mutationOperator {
        case .relational, .boolean, .constant:
            return "\(mutant.line) \(mutant.mutationOperator.rawValue) \(mutant.original) → \(mutant.replacement)"
        default: return "\(mutant.line) \(mutant.mutationOperator.rawValue)"
        }
    }

    @Test func theFinderFindsTheMutantsTheTableExpects() throws {
        let mutants = try MutantFinder.mutants(in: Self.function, file: "Sources/StrictJSON/main.swift")
        #expect(mutants.map(change) == Self.expected.map(\.change))
    }

    @Test func aSchemaCompilesAndSwitchesOnExactlyOneMutant() throws {
        let mutants = try MutantFinder.mutants(in: Self.function, file: "Sources/StrictJSON/main.swift")
        try #require(mutants.count == Self.expected.count)
        let rewritten = SchemaRewriter.rewrite(
            Self.function, module: SchemaRuntime.module, mutants: mutants.enumerated().map { ($1, $0 + 1) })
        // Same lines as the original: compiler errors keep their line numbers.
        #expect(rewritten.text.split(separator: "\n").count == Self.function.split(separator: "\n").count)
        #expect(rewritten.extents.map(\.number) == Array(1...mutants.count))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stc-schema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data((rewritten.text + Self.main).utf8).write(to: directory.appendingPathComponent("main.swift"))
        try Data(SchemaRuntime.source(count: mutants.count).utf8).write(
            to: directory.appendingPathComponent(SchemaRuntime.fileName))
        let swiftc = try #require(ChildRun.which("swiftc"), "no swiftc in PATH")
        let log = directory.path + "/build.log"
        let build = try ChildRun.run(
            swiftc, ["-module-name", "Schema", "-o", "schema", "main.swift", SchemaRuntime.fileName],
            in: directory.path, log: log, timeout: 600)
        let buildLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(build.succeeded, "the schema does not compile:\n\(buildLog)")

        func output(_ mutant: Int, coverage: String? = nil) throws -> String {
            var environment = ProcessInfo.processInfo.environment
            environment["STC_MUTANT"] = String(mutant)
            environment["STC_MUTANT_COVERAGE"] = coverage
            let runLog = directory.path + "/run-\(mutant).log"
            let run = try ChildRun.run(
                directory.path + "/schema", [], in: directory.path, environment: environment, log: runLog,
                timeout: 60)
            #expect(run.succeeded, "mutant \(mutant): \(run.end)")
            return ((try? String(contentsOfFile: runLog, encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try output(0) == Self.original)
        for (index, expected) in Self.expected.enumerated() {
            #expect(try output(index + 1) == expected.output, "mutant \(index + 1): \(expected.change)")
        }

        // The clean run's coverage: every switch the inputs reach, each once.
        let coverage = directory.path + "/coverage"
        try FileManager.default.createDirectory(atPath: coverage, withIntermediateDirectories: true)
        #expect(try output(0, coverage: coverage) == Self.original)
        let files = try FileManager.default.contentsOfDirectory(atPath: coverage)
        try #require(files.count == 1)
        let hits = try String(contentsOfFile: coverage + "/" + files[0], encoding: .utf8).split(separator: "\n")
        #expect(hits.compactMap { Int($0) } == Array(1...mutants.count))
    }

    @Test func aLiteralMovedPastItsTypeExitsAsUnviable() throws {
        let source = "let b: UInt8 = 255\n"
        let mutants = try MutantFinder.mutants(in: source, file: "Sources/StrictJSON/main.swift")
        try #require(mutants.count == 1)
        let rewritten = SchemaRewriter.rewrite(source, module: SchemaRuntime.module, mutants: [(mutants[0], 1)])
        #expect(rewritten.text == "let b: UInt8 = _STCMutation.plusOne(1, 255)\n")
        #expect(SchemaRuntime.source(count: 1).contains("exit(\(SchemaRuntime.unviableExitStatus))"))
    }

    @Test func aFileOfAnotherModuleImportsTheRuntimeOnItsLastLine() throws {
        let source = "func f(_ a: Int) -> Bool { a < 3 }"
        let mutants = try MutantFinder.mutants(in: source, file: "Sources/ScreenTimeSelection/F.swift")
        let rewritten = SchemaRewriter.rewrite(
            source, module: "ScreenTimeSelection", mutants: mutants.enumerated().map { ($1, $0 + 1) })
        #expect(
            rewritten.text
                == "func f(_ a: Int) -> Bool { a ^^| 1 ^<^ _STCMutation.plusOne(2, 3) }\nimport StrictJSON\n")
        #expect(SchemaRewriter.rewrite(source, module: "ScreenTimeSelection", mutants: []).text == source)
    }

    @Test func compilerErrorsAreAttributedToTheMutantAtTheirPlace() throws {
        let source = "func f(_ a: Int) -> Bool { a < 3 }\n"
        let mutants = try MutantFinder.mutants(in: source, file: "Sources/M/F.swift")
        let byNumber = Dictionary(uniqueKeysWithValues: mutants.enumerated().map { ($0.offset + 1, $0.element) })
        let rewritten = SchemaRewriter.rewrite(source, module: "M", mutants: byNumber.map { ($0.value, $0.key) })
        // `a ^^| 1 ^<^ _STCMutation.plusOne(2, 3)`: column 45 is inside the constant's switch.
        let log = """
            /copy/Sources/M/F.swift:1:45: error: cannot convert value
            /copy/Sources/M/F.swift:1:45: error: cannot convert value
            /copy/Sources/Other/G.swift:9:1: error: unrelated
            warning: not an error
            """
        let errors = UnviableAttribution.errors(inLog: log, root: "/copy")
        #expect(errors.map(\.file) == ["Sources/M/F.swift", "Sources/Other/G.swift"])
        let (unviable, unexplained) = UnviableAttribution.attribute(
            errors, files: ["Sources/M/F.swift": rewritten], mutants: byNumber)
        #expect(unviable.keys.sorted() == [2])
        #expect(unexplained.map(\.file) == ["Sources/Other/G.swift"])
    }
}
