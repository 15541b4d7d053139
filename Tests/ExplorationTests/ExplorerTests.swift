import Conformance
import Exploration
import Foundation
import StrictJSON
import Testing

@Suite struct ExplorerTests {
    @Test func everyOperationOfTheTableIsExplored() {
        #expect(ExploredOperations.all.map(\.name) == OperationTable.all.map(\.name))
    }

    /// The reference judged by itself: every generated case agrees.
    @Test func theReferenceAgainstItselfFindsNothing() {
        let result = explore(InProcessImplementation(), OperationTable.all.map(\.name), cases: 3_000, seed: 7)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.key))")
        #expect(result.cases == 3_000 && result.unsupported.isEmpty && result.failedToStart == nil)
    }

    @Test func anUnsupportedOperationIsReportedOnceAndSkipped() {
        let partial = InProcessImplementation(name: "partial") { op, input in
            op == "shield.evaluate" ? .unsupported : OperationTable.perform(op, input: input)
        }
        let result = explore(partial, ["shield.evaluate", "url.encode"], cases: 400)
        #expect(result.unsupported == ["shield.evaluate"])
        #expect(result.findings.isEmpty, "\(result.findings.map(\.key))")
        #expect(result.cases == 400)
    }

    @Test func theSameSeedAndCaseCountGiveTheSameFindings() {
        let broken = planted("url.encode") { input in
            referenceOutput("url.encode", input) { $0["encoded"] = .string("x") }
        }
        let a = explore(broken, ["url.encode", "url.decode"], cases: 500, seed: 3)
        let b = explore(broken, ["url.encode", "url.decode"], cases: 500, seed: 3)
        #expect(a.findings.map(\.key) == b.findings.map(\.key))
        #expect(a.findings.map(\.first.minimal.input) == b.findings.map(\.first.minimal.input))
        #expect(a.findings.map(\.key) == ["url.encode: output differs in encoded"])
    }

    /// An implementation that answers nothing stops the run: it could not start.
    @Test func anAdapterThatNeverAnswersStopsTheRun() {
        let adapter = AdapterProcess(name: "dead", command: "exit 3", timeout: 1)
        let result = explore(adapter, ["url.encode"], cases: 100)
        #expect(result.failedToStart != nil)
        #expect(result.findings.isEmpty)
    }

    @Test func discrepanciesAreNamedForWhatDiffers() {
        let decode = "selection.decode"
        func kind(_ expected: Conformance.Expectation, _ answer: Answer) -> String? {
            Discrepancy.between(op: decode, expected: expected, reason: "why", answer: answer)?.kind.text
        }
        #expect(kind(.error("base64"), .error("base64")) == nil)
        #expect(kind(.error("base64"), .output([:])) == "expected error base64 (why), got output")
        #expect(kind(.error("base64"), .error("json")) == "expected error base64 (why), got error json")
        #expect(kind(.output(["a": 1]), .error("json")) == "expected output, got error json")
        #expect(kind(.output(["a": 1, "b": 2]), .output(["a": 1, "b": 3, "c": 4])) == "output differs in b")
        #expect(kind(.output(["b": 1, "a": 1]), .output([:])) == "output differs in a, b")
        #expect(kind(.output(["a": 1]), .unsupported) == nil)
        #expect(kind(.output(["a": 1]), .crash("x")) == "crash")
        #expect(kind(.output(["a": 1]), .timeout(1)) == "timeout")
        #expect(kind(.output(["a": 1]), .protocolViolation("x")) == "protocol violation")
    }

    /// For the selection operations an output, or an error of a later check, where the reference answers an error
    /// is one finding: the implementation let the case past that check.
    @Test func aSkippedCheckIsOneFindingWhateverFollows() throws {
        let operation = try #require(ExploredOperations.named("selection.decode"))
        let padded = try #require(Explorer.makeCase("selection.decode", ["base64": "e31="], id: "x"))
        let later = Explorer.discrepancy(operation, padded, .error("json"))
        let output = Explorer.discrepancy(operation, padded, .output([:]))
        let earlier = Explorer.discrepancy(operation, padded, .error("empty"))
        #expect(later?.key == output?.key)
        #expect(
            later?.key
                == "selection.decode: expected error base64 (non-zero pad bits (not the canonical encoding)), got output or a later error"
        )
        #expect(
            earlier?.key
                == "selection.decode: expected error base64 (non-zero pad bits (not the canonical encoding)), got error empty"
        )
    }

    @Test func expectedFindingsAreStrictBothWays() throws {
        let broken = planted("url.encode") { input in
            referenceOutput("url.encode", input) { $0["encoded"] = .string("x") }
        }
        let result = explore(broken, ["url.encode"], cases: 200)
        let list = ExpectedFindings(
            file: "known.txt", keys: ["url.encode: output differs in encoded", "url.decode: crash"])
        let (unexpected, stale) = list.compare(result.findings)
        #expect(unexpected.isEmpty)
        #expect(stale == ["url.decode: crash"])
        let none = ExpectedFindings(file: "none.txt", keys: [])
        #expect(none.compare(result.findings).unexpected.map(\.key) == ["url.encode: output differs in encoded"])
    }

    @Test func anExpectedFindingsFileIgnoresCommentsAndBlankLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stc-findings-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("# known\n\nurl.encode: output differs in encoded   # keeps !'()*\n  \n".utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(try ExpectedFindings.load(path: path).keys == ["url.encode: output differs in encoded"])
        #expect(throws: (any Error).self) { try ExpectedFindings.load(path: path + ".missing") }
    }
}
