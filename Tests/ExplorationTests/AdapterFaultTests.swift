import Conformance
import Exploration
import Foundation
import Testing

/// Crashes and hangs, while exploring and while shrinking: each is a finding of its own, shrunk to the character
/// that causes it, and the run goes on.
@Suite struct AdapterFaultTests {
    /// A Python adapter that encodes URL components right but exits on `!`, and knows no other operation.
    static let script = """
        import json, os, sys, urllib.parse
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("op") != "url.encode":
                answer = {"id": request["id"], "unsupported": True}
            else:
                text = request["input"]["text"]
                if "!" in text:
                    os._exit(3)
                answer = {"id": request["id"], "output": {"encoded": urllib.parse.quote(text, safe="")}}
            sys.stdout.write(json.dumps(answer) + "\\n")
            sys.stdout.flush()
        """

    /// A real process that dies: the adapter is restarted after each crash, every replay of the shrinker that
    /// crashes it counts as the same finding, and the case shrinks to `!`.
    @Test func aCrashingAdapterIsRestartedAndItsCrashShrunk() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stc-faulty-\(UUID().uuidString).py")
        try Data(Self.script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let adapter = AdapterProcess(name: "faulty", command: "python3 \(file.path)", timeout: 10)
        adapter.keepsRunning = true
        defer { adapter.close() }
        let result = explore(adapter, ["url.encode", "url.decode"], cases: 400, seed: 2)
        #expect(result.unsupported == ["url.decode"])
        #expect(result.findings.map(\.key) == ["url.encode: crash"], "\(result.findings.map(\.key))")
        #expect(result.findings.first?.first.minimal.input == ["text": "!"])
        #expect(adapter.diagnostics.restarts > 0)
    }

    /// A timeout is judged like a crash: every answer that times out while shrinking shows the same finding.
    @Test func aHangIsAFindingOfItsOwnAndShrinks() throws {
        let hanging = InProcessImplementation(name: "hanging") { op, input in
            guard op == "url.encode", let text = input["text"]?.stringValue, text.contains("*") else {
                return OperationTable.perform(op, input: input)
            }
            return .error("stand-in")
        }
        // The in-process table cannot hang; this wrapper turns its "stand-in" answers into timeouts.
        let result = explore(TimingOut(hanging), ["url.encode"], cases: 600, seed: 2)
        #expect(result.findings.map(\.key) == ["url.encode: timeout"], "\(result.findings.map(\.key))")
        #expect(result.findings.first?.first.minimal.input == ["text": "*"])
    }
}

/// An implementation whose `stand-in` error answers are timeouts, as an ``AdapterProcess`` reports a hang.
final class TimingOut: Implementation {
    let inner: Implementation
    init(_ inner: Implementation) { self.inner = inner }
    var name: String { inner.name }
    var kind: ImplementationKind { inner.kind }
    var summary: String { inner.summary }
    var diagnostics: ImplementationDiagnostics { inner.diagnostics }

    func answer(_ cases: [ConformanceCase], progress: (Int) -> Void) -> [Answer] {
        inner.answer(cases, progress: progress).map { answer in
            if case .error("stand-in") = answer { return .timeout(1) }
            return answer
        }
    }
}
