import Foundation
import StrictJSON
import Testing

/// `stc conformance add` as the built binary, on suites in a temporary directory.
@Suite struct ConformanceAddCommandTests {
    func add(_ args: [String], in dir: String) throws -> (Int32, StcBinary.Run) {
        let run = try StcBinary.run(["conformance", "add"] + args + ["--vectors", dir])
        return (run.status, run)
    }

    @Test func recordsACaseWhoseExpectationTheReferenceComputes() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/field-reports.json"
        let (status, out) = try add(
            ["--suite", suite, "--op", "selection.decode", "--input", #"{"base64":"e30"}"#, "--tag", "field-bug-1"],
            in: dir)
        #expect(status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(#"{"error":"base64"}"#))
        let loaded = try JSONParser.value(Array(try Data(contentsOf: URL(fileURLWithPath: suite))))
        let c = try #require(loaded["cases"]?.arrayValue?.first)
        #expect(c["expect"] == ["error": "base64"])
        #expect(c["tags"] == ["field-bug-1"])
        #expect(c["id"]?.stringValue?.hasPrefix("field-reports/selection-decode-") == true)
        // The recorded case passes against the reference.
        let run = try StcBinary.run(["conformance", "--vectors", suite, "--quiet"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func outputsAreRecordedWholeAndTheFileStaysOneCasePerLine() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/reports.json"
        #expect(
            try add(
                ["--suite", suite, "--op", "url.encode", "--input", #"{"text":"Café & Co"}"#, "--id", "reports/cafe"],
                in: dir
            ).0 == 0)
        #expect(try add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"日本"}"#], in: dir).0 == 0)
        let text = try String(contentsOfFile: suite, encoding: .utf8)
        #expect(text.contains(#""expect": {"output":{"encoded":"Caf%C3%A9%20%26%20Co"}}"#))
        #expect(text.split(separator: "\n").filter { $0.contains("\"id\": ") }.count == 2)
        let loaded = try JSONParser.value(Array(text.utf8))
        #expect(loaded["cases"]?.arrayValue?.count == 2)
        // The runner loads both cases, and the reference passes them.
        let run = try StcBinary.run(["conformance", "--vectors", suite, "--quiet"])
        #expect(run.status == 0 && run.stdout.contains("2/2 pass"), "\(run.stdout)\(run.stderr)")
    }

    @Test func refusesDuplicatesUsedIdsUnknownOpsAndBadJSON() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let suite = dir + "/reports.json"
        #expect(
            try add(
                ["--suite", suite, "--op", "url.encode", "--input", #"{"text":"a"}"#, "--id", "reports/a"],
                in: dir
            ).0 == 0)
        let before = try String(contentsOfFile: suite, encoding: .utf8)
        let duplicate = try add(["--suite", suite, "--op", "url.encode", "--input", #"{ "text" : "a" }"#], in: dir)
        #expect(duplicate.0 == 1)
        #expect(duplicate.1.stderr.contains("reports/a"))
        #expect(
            try add(
                ["--suite", suite, "--op", "url.encode", "--input", #"{"text":"b"}"#, "--id", "reports/a"],
                in: dir
            ).0 == 1)
        #expect(try add(["--suite", suite, "--op", "no.such", "--input", #"{"text":"b"}"#], in: dir).0 == 2)
        #expect(try add(["--suite", suite, "--op", "url.encode", "--input", #"{"text":"#], in: dir).0 == 2)
        #expect(
            try add(
                ["--suite", suite, "--op", "url.encode", "--input", #"{"text":"b"}"#, "--id", "has space"],
                in: dir
            ).0 == 2)
        #expect(try add(["--suite", suite, "--input", "{}"], in: dir).0 == 2)
        #expect(try String(contentsOfFile: suite, encoding: .utf8) == before)  // nothing lost, nothing half-written
    }
}
