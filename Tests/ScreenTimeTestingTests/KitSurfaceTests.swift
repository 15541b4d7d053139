// This file imports the kit and Swift Testing only, as a user's test does: naming a type a result holds fails to
// compile when the kit stops re-exporting it.
import ScreenTimeTesting
import Testing

/// Every type a check's result holds is named with `import ScreenTimeTesting` alone, and the results read flat.
@Suite struct KitSurfaceTests {
    @Test func theConformanceResultsTypesNeedNoOtherImport() throws {
        let result = ConformanceCheck(operations: [.urlDecode]).run(.reference, relativeTo: "")
        let run: ConformanceRun = try #require(result.run)
        let implementation: ImplementationResult = try #require(run.implementations.first)
        let first: CaseResult = try #require(implementation.results.first)
        let status: CaseStatus = first.status
        let listed: ListedState = first.listed
        let answer: Answer = first.answer
        let c: ConformanceCase = run.cases[first.caseIndex]
        let expectation: Expectation = c.expect
        let input: JSONValue = c.input
        let counts: StatusCounts = run.counts(implementation)
        #expect(status == .pass && listed == .notListed && c.op == "url.decode")
        #expect(answer != .unsupported && expectation.json != .null && input != .null && counts.total > 0)
        let suites: [Suite] = try ShippedSuites.load()
        #expect(!suites.isEmpty)
        let _: SuiteLoadFailure.Type = SuiteLoadFailure.self
    }

    @Test func theExplorationResultReadsFlat() {
        let result = ExplorationCheck(cases: 200, seed: 3, operations: [.urlEncode])
            .run(planted { $0.encodeURLComponent = lowerHexEncoding }, relativeTo: "")
        let findings: [Finding] = result.findings
        #expect(result.cases == 200 && result.operations == ["url.encode"])
        #expect(findings.map(\.key) == ["url.encode: output differs in encoded"])
        let example: FindingExample? = findings.first?.first
        let discrepancy: Discrepancy? = findings.first?.discrepancy
        #expect(example?.minimal.op == "url.encode" && discrepancy?.key == findings.first?.key)
        let exploration: ExploreResult? = result.exploration
        #expect(exploration?.findings.count == findings.count)
    }

    @Test func aReplayHasNoGeneratedCases() {
        let replay = ExplorationCheck(replay: "url.encode:00").run(.reference, relativeTo: "")
        #expect(replay.exploration == nil && replay.findings.isEmpty && replay.cases == 0 && replay.operations.isEmpty)
    }

    /// The closure of each operation is named for it, the label and the type alike.
    @Test func closureNamesSayTheirOperation() {
        let policy: ScreenTimeImplementation.AuthorizationPolicy? = ScreenTimeImplementation.reference
            .authorizationPolicy
        let encode: ScreenTimeImplementation.EncodeURLComponent? = ScreenTimeImplementation.reference
            .encodeURLComponent
        let decode: ScreenTimeImplementation.DecodeURLComponent? = ScreenTimeImplementation.reference
            .decodeURLComponent
        let app = ScreenTimeImplementation(
            name: "policy only", authorizationPolicy: policy, encodeURLComponent: encode, decodeURLComponent: decode)
        #expect(app.supported == [.authPolicy, .urlEncode, .urlDecode])
    }
}
