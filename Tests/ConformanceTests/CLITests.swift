import Foundation
import Testing
import StrictJSON
@testable import Conformance
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs `stc conformance` in process and captures what it prints.
final class Captured: @unchecked Sendable {
    var out = ""
    var err = ""
    var output: ConformanceCLI.Output {
        ConformanceCLI.Output(out: { self.out += $0 }, err: { self.err += $0 }, errIsTerminal: false)
    }
}

func stc(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let captured = Captured()
    let status = ConformanceCLI.main(arguments, output: captured.output)
    return (status, captured.out, captured.err)
}

@Suite(.serialized) struct CLITests {
    let resilience = Fixtures.suite("resilience.json")
    let basic = Fixtures.suite("basic.json")

    @Test func helpIsPrintedAndExitsZero() {
        let (status, out, _) = stc(["--help"])
        #expect(status == 0)
        for option in ["--vectors", "--adapter", "--name", "--expect-failures", "--json", "--junit", "--html",
                       "--timeout", "--filter", "--no-reference", "--quiet", "--verbose", "EXIT STATUS"] {
            #expect(out.contains(option), "help lacks \(option)")
        }
    }

    @Test func usageErrorsExitTwo() {
        #expect(stc(["--bogus"]).status == 2)
        #expect(stc(["--timeout", "0", "--vectors", basic]).status == 2)
        #expect(stc(["--timeout"]).status == 2)
        #expect(stc(["--no-reference", "--vectors", basic]).status == 2)
        #expect(stc(["--name", "x", "--vectors", basic]).status == 2)
        #expect(stc(["--expect-failures", "f", "--vectors", basic]).status == 2)
        #expect(stc(["--adapter", "a", "--name", "reference", "--vectors", basic]).status == 2)
        #expect(stc(["--quiet", "--verbose", "--vectors", basic]).status == 2)
        #expect(stc(["--vectors", basic, "--filter", "nothing*"]).status == 2)
    }

    @Test func missingOrInvalidVectorsExitTwoWithAPosition() throws {
        let missing = stc(["--vectors", "/nonexistent/dir"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("/nonexistent/dir"))
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = dir + "/bad.json"
        try Data("{\"suite\": \"s\", \"schema\": 1,\n \"cases\": [}".utf8).write(to: URL(fileURLWithPath: bad))
        let invalid = stc(["--vectors", bad])
        #expect(invalid.status == 2)
        #expect(invalid.err.contains("bad.json:2:12 (byte 39)"), "\(invalid.err)")
    }

    @Test func misbehavingAdapterRunCompletesAndExitsOne() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out, _) = stc([
            "--vectors", resilience, "--no-reference", "--timeout", "1",
            "--adapter", Fixtures.adapter("--crash", "--hang", "--garbage", "--wrong-id", "--missing"),
            "--name", "fake", "--json", dir + "/r.json", "--junit", dir + "/r.xml", "--html", dir + "/r.html",
        ])
        #expect(status == 1)
        #expect(out.contains("CRASH resilience/crash"))
        #expect(out.contains("TIMEOUT resilience/hang"))
        #expect(out.contains("PROTOCOL resilience/garbage"))
        #expect(out.contains("fake adapter: crashing on resilience/crash"))  // stderr tail
        let report = try JSONParser.value(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))))
        #expect(report["schema"] == 1)
        #expect(report["ok"] == false)
        let results = report["implementations"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        let statuses = Dictionary(uniqueKeysWithValues: results.compactMap { r -> (String, String)? in
            guard let id = r["id"]?.stringValue, let s = r["status"]?.stringValue else { return nil }
            return (id, s)
        })
        #expect(statuses["resilience/crash"] == "crash")
        #expect(statuses["resilience/hang"] == "timeout")
        #expect(statuses["resilience/wrongid"] == "protocol")
        #expect(statuses["resilience/ok-6"] == "pass")
    }

    @Test(arguments: [["--exit-at-start"], ["--unsupported"], ["--segv"]])
    func everyKindOfBrokenAdapterExitsOne(flags: [String]) {
        let command = "python3 '\(Fixtures.root)/adapters/fake_adapter.py' " + flags.joined(separator: " ")
        let (status, _, _) = stc(["--vectors", resilience, "--no-reference", "--timeout", "1", "--adapter", command, "--quiet"])
        #expect(status == 1)
    }

    @Test func wellBehavedAdapterExitsZero() {
        let (status, out, _) = stc(["--vectors", resilience, "--no-reference", "--adapter", Fixtures.adapter()])
        #expect(status == 0, "\(out)")
        #expect(out.contains("OK"))
    }

    @Test func expectedFailuresPairWithAdaptersInOrder() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let list = dir + "/failure_list_fake.txt"
        try Data("# fails on purpose\nresilience/crash\n".utf8).write(to: URL(fileURLWithPath: list))
        let good = Fixtures.adapter()
        let crashing = Fixtures.adapter("--crash")
        // The list belongs to the first adapter (the crashing one): everything is acceptable.
        let ok = stc(["--vectors", resilience, "--no-reference", "--adapter", crashing, "--adapter", good,
                      "--expect-failures", list, "--name", "crashing", "--name", "good"])
        #expect(ok.status == 0, "\(ok.out)")
        // Swapped, the list is stale for the good adapter (unexpected pass) and the crash is unlisted.
        let swapped = stc(["--vectors", resilience, "--no-reference", "--adapter", good, "--adapter", crashing,
                           "--expect-failures", list])
        #expect(swapped.status == 1)
        #expect(swapped.out.contains("Unexpectedly passing"))
        // Unknown ids fail the run.
        let stale = dir + "/stale.txt"
        try Data("resilience/crash\nresilience/gone\n".utf8).write(to: URL(fileURLWithPath: stale))
        let unknown = stc(["--vectors", resilience, "--no-reference", "--adapter", crashing, "--expect-failures", stale])
        #expect(unknown.status == 1)
        #expect(unknown.out.contains("line 2: resilience/gone"))
    }

    @Test func reportsAreWellFormedAndEscaped() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, _, _) = stc([
            "--vectors", resilience, "--vectors", basic, "--no-reference", "--timeout", "1",
            "--adapter", Fixtures.adapter("--garbage", "--crash"), "--json", dir + "/r.json", "--junit", dir + "/r.xml",
            "--html", dir + "/r.html",
        ])
        #expect(status == 1)
        // JSON: our own strict parser accepts it.
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))))
        #expect(json.firstDuplicateKeyOffset == nil)
        #expect(json.value["cases"]?.arrayValue?.count == 17)
        // JUnit: a real XML parser accepts it, despite the control character in resilience/ok-4.
        let xml = try Data(contentsOf: URL(fileURLWithPath: dir + "/r.xml"))
        let text = String(decoding: xml, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #if canImport(FoundationXML) || canImport(Darwin)
        let parser = XMLParser(data: xml)
        let counter = SuiteCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(counter.suites == 2)
        #expect(counter.cases == 17)
        #endif
        // HTML: hostile strings are escaped, nothing external is loaded.
        let html = try String(contentsOfFile: dir + "/r.html", encoding: .utf8)
        #expect(!html.contains("</script><b>"))
        #expect(html.contains("&lt;/script&gt;&lt;b&gt;&amp;amp;"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("@import"))
        #expect(html.contains("Assumption cases"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func atomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportFile.writeAtomically("one", to: dir + "/r.txt")
        try ReportFile.writeAtomically("two", to: dir + "/r.txt")
        #expect(try String(contentsOfFile: dir + "/r.txt", encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["r.txt"])
        #expect(throws: ReportWriteError.self) { try ReportFile.writeAtomically("x", to: "/nonexistent/dir/r.txt") }
    }

    @Test func escapingReplacesWhatXMLCannotHold() {
        #expect(Escape.xml("a\u{1}b<&>\"'", attribute: true) == "a\\u{1}b&lt;&amp;&gt;&quot;&apos;")
        #expect(Escape.xml("x\ny", attribute: true) == "x&#10;y")
        #expect(Escape.html("<i>\u{1B}[31m") == "&lt;i&gt;\\u{1B}[31m")
        #expect(Escape.controls("ok\u{7F}\u{85}\u{FFFF}") == "ok\\u{7F}\\u{85}\\u{FFFF}")
    }
}

#if canImport(FoundationXML) || canImport(Darwin)
final class SuiteCounter: NSObject, XMLParserDelegate {
    var suites = 0
    var cases = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if elementName == "testsuite" { suites += 1 }
        if elementName == "testcase" { cases += 1 }
    }
}
#endif
