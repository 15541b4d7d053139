import Foundation
import StrictJSON
import Testing
@testable import Conformance

@Suite struct VectorAuthoringTests {
    final class Captured: @unchecked Sendable {
        var out = ""
        var err = ""
        var output: ConformanceCLI.Output {
            ConformanceCLI.Output(out: { self.out += $0 }, err: { self.err += $0 }, errIsTerminal: false)
        }
    }

    func add(_ args: [String], in dir: String) -> (Int32, Captured) {
        let captured = Captured()
        let status = ConformanceAddCLI.main(args + ["--vectors", dir], output: captured.output)
        return (status, captured)
    }

    @Test func recordsACaseWhoseExpectationTheReferenceComputes() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/field-reports.json"
        let (status, out) = add(["--suite", suite, "--op", "selection.decode", "--input", #"{"base64":"e30"}"#, "--tag", "field-bug-1"], in: dir)
        #expect(status == 0, "\(out.err)")
        #expect(out.out.contains(#"{"error":"base64"}"#))
        let loaded = try SuiteLoader.load(paths: [suite])
        let c = try #require(loaded.first?.cases.first)
        #expect(c.expect == .error("base64"))
        #expect(c.tags == ["field-bug-1"])
        #expect(c.id.hasPrefix("field-reports/selection-decode-"))
        // The recorded case passes against the reference.
        let run = ConformanceRunner(suites: loaded, filters: [], timeout: 5).run([(InProcessImplementation(), nil)], progress: { _, _, _ in })
        #expect(run.ok)
    }

    @Test func outputsAreRecordedWholeAndTheFileStaysOneCasePerLine() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/reports.json"
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"Café & Co"}"#, "--id", "reports/cafe"], in: dir).0 == 0)
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"日本"}"#], in: dir).0 == 0)
        let text = try String(contentsOfFile: suite, encoding: .utf8)
        #expect(text.contains(#""expect": {"output":{"encoded":"Caf%C3%A9%20%26%20Co"}}"#))
        #expect(text.split(separator: "\n").filter { $0.contains("\"id\": ") }.count == 2)
        #expect(try SuiteLoader.load(paths: [suite]).first?.cases.count == 2)
    }

    @Test func refusesDuplicatesUsedIdsUnknownOpsAndBadJSON() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/reports.json"
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"a"}"#, "--id", "reports/a"], in: dir).0 == 0)
        let before = try String(contentsOfFile: suite, encoding: .utf8)
        let duplicate = add(["--suite", suite, "--op", "url.encode", "--input", #"{ "text" : "a" }"#], in: dir)
        #expect(duplicate.0 == 1)
        #expect(duplicate.1.err.contains("reports/a"))
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"b"}"#, "--id", "reports/a"], in: dir).0 == 1)
        #expect(add(["--suite", suite, "--op", "no.such", "--input", #"{"text":"b"}"#], in: dir).0 == 2)
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"#], in: dir).0 == 2)
        #expect(add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"b"}"#, "--id", "has space"], in: dir).0 == 2)
        #expect(add(["--suite", suite, "--input", "{}"], in: dir).0 == 2)
        #expect(try String(contentsOfFile: suite, encoding: .utf8) == before)  // nothing lost, nothing half-written
    }

    @Test func defaultIdsAreStable() {
        let a = VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "x"])
        #expect(a == VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "x"]))
        #expect(a != VectorAuthoring.defaultId(suite: "s", op: "url.encode", input: ["text": "y"]))
        #expect(a.hasPrefix("s/url-encode-") && a.count == "s/url-encode-".count + 8)
    }
}
