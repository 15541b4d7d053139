import Foundation
import Testing

/// `stc explore` run as a user would, against small adapters: what it prints, what it saves, its exit codes.
@Suite struct ExploreCommandTests {
    /// A Python adapter whose url.encode keeps `!` raw (as JavaScript's encodeURIComponent does).
    static let adapterScript = """
        import json, sys, urllib.parse
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("op") == "url.encode":
                text = request["input"]["text"]
                answer = {"id": request["id"], "output": {"encoded": urllib.parse.quote(text, safe="!")}}
            else:
                answer = {"id": request["id"], "unsupported": True}
            sys.stdout.write(json.dumps(answer) + "\\n")
            sys.stdout.flush()
        """

    static let key = "url.encode: output differs in encoded"

    static func workspace() throws -> (directory: URL, adapter: String) {
        let directory = TemporaryDirectory.make("stc-explore")
        let script = directory.appendingPathComponent("adapter.py")
        try Data(adapterScript.utf8).write(to: script)
        return (directory, "python3 \(script.path)")
    }

    static func explore(_ adapter: String, _ more: [String] = []) throws -> StcBinary.Run {
        try StcBinary.run(["explore", "--adapter", adapter, "--ops", "url", "--cases", "300", "--seed", "1"] + more)
    }

    @Test func aFindingIsReportedShrunkAndSavedAsAVectorThatReproducesIt() throws {
        let (directory, adapter) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = directory.appendingPathComponent("explored.json").path
        let run = try Self.explore(adapter, ["--save", suite])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("FINDING 1  \(Self.key)"), "\(run.stdout)")
        #expect(run.stdout.contains(#"input:    {"text":"!"}"#), "\(run.stdout)")
        #expect(run.stdout.contains("unsupported (skipped): url.decode"), "\(run.stdout)")
        #expect(run.stdout.contains("saved 1 new case(s) to \(suite)"), "\(run.stdout)")

        // The saved case fails the adapter through stc conformance, and the reference passes it.
        let again = try StcBinary.run(["conformance", "--vectors", suite, "--no-reference", "--adapter", adapter])
        #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("FAIL explored/url-encode-"), "\(again.stdout)")
        let reference = try StcBinary.run(["conformance", "--vectors", suite, "--quiet"])
        #expect(reference.status == 0, "\(reference.stdout)\(reference.stderr)")

        // The replay line runs exactly the minimal case.
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("replay:   stc explore") })
        let hex = try #require(line.split(separator: " ").last.map(String.init))
        let replay = try StcBinary.run(["explore", "--adapter", adapter, "--replay", hex])
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.hasPrefix("url.encode: FAIL  output differs in encoded"), "\(replay.stdout)")
        #expect(replay.stdout.contains(#"actual:   {"output":{"encoded":"!"}}"#), "\(replay.stdout)")
    }

    @Test func listedFindingsPassAndAStaleLineFails() throws {
        let (directory, adapter) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("known.txt")
        try Data("# url.encode keeps ! raw\n\(Self.key)\n".utf8).write(to: list)
        let listed = try Self.explore(adapter, ["--expect-findings", list.path, "--quiet"])
        #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
        #expect(listed.stdout.contains("OK: no finding beyond the listed ones."), "\(listed.stdout)")

        try Data("\(Self.key)\nurl.encode: crash\n".utf8).write(to: list)
        let stale = try Self.explore(adapter, ["--expect-findings", list.path, "--quiet"])
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("STALE  url.encode: crash"), "\(stale.stdout)")
    }

    @Test func theReferenceThroughItsOwnAdapterHasNoFinding() throws {
        let run = try StcBinary.run([
            "explore", "--adapter", "\(StcBinary.url?.path ?? "stc") adapter", "--cases", "2000", "--seed", "5",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2000 cases in") && run.stdout.contains("OK: no finding."), "\(run.stdout)")
    }

    @Test func anAdapterThatCannotStartExitsTwo() throws {
        let run = try StcBinary.run(["explore", "--adapter", "exit 3", "--cases", "10", "--seed", "1"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("the adapter answered no request"), "\(run.stdout)")
    }

    @Test func usageErrorsExitTwo() throws {
        for arguments in [
            ["explore"], ["explore", "--adapter", "x", "--time", "5", "--cases", "5"],
            ["explore", "--adapter", "x", "--replay", "nope"],
            ["explore", "--adapter", "x", "--replay", "url.encode:00", "--seed", "1"],
            ["explore", "--adapter", "x", "--name", "a", "--name", "b"],
        ] {
            let run = try StcBinary.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("Run 'stc explore --help' for usage."), "\(arguments): \(run.stderr)")
        }
    }
}
