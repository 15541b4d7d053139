import Conformance
import Exploration
import Foundation
import StrictJSON
import Testing
import _TestSupport

@Suite struct ExploredSuiteTests {
    static func findings() -> [Finding] {
        let broken = planted("url.encode") { input in
            referenceOutput("url.encode", input) { $0["encoded"] = .string("x") }
        }
        return explore(broken, ["url.encode"], cases: 200).findings
    }

    @Test func savedCasesAreVectorsWithTheReferencesExpectation() throws {
        let directory = TemporaryDirectory.make("stc-explored")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("explored.json").path
        let findings = Self.findings()
        let added = try ExploredSuite.save(findings, to: file)
        #expect(added == findings.flatMap(\.examples).count && added > 0)
        let suite = try #require(try SuiteLoader.load(paths: [file]).first)
        #expect(suite.name == "explored")
        for c in suite.cases {
            #expect(c.tags == ["explored"])
            #expect(c.id.hasPrefix("explored/url-encode-"))
            #expect(c.source.hasPrefix("stc explore: url.encode: output differs in encoded"))
            // The reference passes its own vectors.
            #expect(Matcher.judge(c.expect, Answer(OperationTable.perform(c.op, input: c.input))).status == .pass)
        }
        // Saving again adds nothing and changes nothing.
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(try ExploredSuite.save(findings, to: file) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    @Test func anExistingCaseIsNeverChanged() throws {
        let directory = TemporaryDirectory.make("stc-explored")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("mine.json").path
        let findings = Self.findings()
        let example = try #require(findings.first?.first)
        // A case with the same op and input, but another id and expectation, already in the file.
        let existing = ConformanceCase(
            id: "mine/hand-written", suite: "mine", op: example.minimal.op, input: example.minimal.input,
            expect: .error("written by hand"), tags: ["field-report"], source: "by hand")
        try Data(SuiteWriter.bytes(Suite(name: "mine", cases: [existing]))).write(to: URL(fileURLWithPath: file))
        _ = try ExploredSuite.save(findings, to: file)
        let suite = try #require(try SuiteLoader.load(paths: [file]).first)
        #expect(suite.cases.first == existing)
        #expect(!suite.cases.dropFirst().contains { $0.input == example.minimal.input })
    }

    @Test func anUnreadableSuiteIsRefusedAndLeftAlone() throws {
        let directory = TemporaryDirectory.make("stc-explored")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("broken.json").path
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: ExploredSuiteError.self) { try ExploredSuite.save(Self.findings(), to: file) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{not json")
    }
}
