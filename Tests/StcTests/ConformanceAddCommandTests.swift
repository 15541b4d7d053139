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

    /// Outside stc's repository (an installed stc) there is no default suite file, and what a new case must not
    /// repeat is the shipped suites, built in; `--vectors` names exactly the suites to check instead.
    @Test func outsideTheRepositoryTheSuiteIsRequiredAndTheShippedSuitesAreChecked() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let here = URL(fileURLWithPath: dir)
        let fresh = ["--op", "url.encode", "--input", #"{"text":"stc add test"}"#]
        let noSuite = try StcBinary.run(["conformance", "add"] + fresh, currentDirectory: here)
        #expect(noSuite.status == 2, "\(noSuite.stdout)\(noSuite.stderr)")
        #expect(noSuite.stderr.contains("give --suite FILE"), "\(noSuite.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/corpus"))

        // The input of a shipped case: refused, naming it.
        let corpus = StcBinary.packageRoot.appendingPathComponent("corpus/conformance/url-encode.json")
        let shipped = try #require(try JSONParser.value(Array(Data(contentsOf: corpus)))["cases"]?.arrayValue?.first)
        let id = try #require(shipped["id"]?.stringValue)
        let op = try #require(shipped["op"]?.stringValue)
        let input = JSONWriter.string(try #require(shipped["input"]))
        let repeated = ["--suite", "mine.json", "--op", op, "--input", input]
        let refused = try StcBinary.run(["conformance", "add"] + repeated, currentDirectory: here)
        #expect(refused.status == 1 && refused.stderr.contains(id), "\(refused.stdout)\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/mine.json"))

        // A new input is added to the file named.
        let added = try StcBinary.run(["conformance", "add", "--suite", "mine.json"] + fresh, currentDirectory: here)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(try String(contentsOfFile: dir + "/mine.json", encoding: .utf8).contains("stc add test"))

        // With --vectors, exactly those suites are checked: the shipped input is accepted against an empty set.
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        let own = try StcBinary.run(
            ["conformance", "add", "--vectors", "empty"] + repeated, currentDirectory: here)
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
    }
}
