import Foundation
import StrictJSON
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `stc conformance …` as the built binary.
func conformance(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let run = try StcBinary.run(["conformance"] + arguments)
    return (run.status, run.stdout, run.stderr)
}

/// `stc conformance` as the built binary: usage errors, vectors, adapters that misbehave, and the reports.
/// Serialized: the adapter runs have one-second timeouts, and the machine is shared.
@Suite(.serialized) struct ConformanceCommandTests {
    let resilience = ConformanceFixtures.suite("resilience.json")
    let basic = ConformanceFixtures.suite("basic.json")

    /// The shipped suites as files: how many, how many cases they hold, and the first file and its first case id.
    static func shippedCounts() throws -> (suites: Int, cases: Int, firstFile: String, firstId: String) {
        let directory = StcBinary.packageRoot.appendingPathComponent("corpus/conformance")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }.sorted()
        var cases = 0
        var firstId = ""
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let suiteCases = try JSONParser.value(Array(data))["cases"]?.arrayValue ?? []
            cases += suiteCases.count
            if firstId.isEmpty { firstId = suiteCases.first?["id"]?.stringValue ?? "" }
        }
        return (names.count, cases, names.first ?? "", firstId)
    }

    /// Run from a directory without `corpus/conformance`, as an installed stc is: the shipped suites are built in,
    /// so every one of them runs, and the report says where they come from. (Run as a child process in that
    /// directory: changing the test process's own directory would move every test running beside it.)
    @Test func theShippedVectorsRunFromAnyDirectory() throws {
        let dir = TemporaryDirectory.make("stc-conformance")
        defer { TemporaryDirectory.remove(dir) }
        let (suites, cases, _, _) = try Self.shippedCounts()
        let run = try StcBinary.run(["conformance"], currentDirectory: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("stc conformance: \(suites) suite(s), \(cases) case(s)"), "\(run.stdout)")
        #expect(run.stdout.contains("vectors: shipped (\(suites) suite files built into stc"), "\(run.stdout)")
        #expect(run.stdout.contains("  all   ") && run.stdout.contains(" \(cases)\n"), "\(run.stdout)")
        let quiet = try StcBinary.run(["conformance", "--quiet"], currentDirectory: dir)
        #expect(quiet.stdout.contains("\(cases)/\(cases) pass"), "\(quiet.stdout)")
    }

    /// `--vectors` runs exactly what it names; `shipped` among the paths names the built-in suites, and a file or
    /// directory called shipped is `./shipped` (a note says so when one is there).
    @Test func vectorsNamesExactlyWhatRunsAndShippedNamesTheBuiltInSuites() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mine = dir + "/mine.json"
        try Data(
            #"{"suite": "mine", "schema": 1, "cases": [{"id": "mine/space", "op": "url.encode", "input": {"text": "a b"}, "expect": {"output": {"encoded": "a%20b"}}, "tags": [], "source": "test"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: mine))
        let (suites, cases, firstFile, firstId) = try Self.shippedCounts()
        let alone = try conformance(["--vectors", mine])
        #expect(alone.status == 0 && alone.out.contains("1 suite(s), 1 case(s)"), "\(alone.out)\(alone.err)")
        #expect(alone.out.contains("vectors: \(mine)\n"), "\(alone.out)")
        let both = try conformance(["--vectors", "shipped", "--vectors", mine, "--quiet"])
        #expect(both.status == 0 && both.out.contains("\(cases + 1)/\(cases + 1) pass"), "\(both.out)\(both.err)")
        let named = try conformance(["--vectors", "shipped", "--vectors", mine])
        #expect(named.out.contains("vectors: shipped (\(suites) suite files built into stc"), "\(named.out)")
        #expect(named.out.contains(", \(mine)\n"), "\(named.out)")

        // A directory named shipped: the keyword still names the built-in suites, ./shipped the directory.
        try FileManager.default.createDirectory(atPath: dir + "/shipped", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: mine, toPath: dir + "/shipped/mine.json")
        let keyword = try StcBinary.run(
            ["conformance", "--vectors", "shipped", "--quiet"], currentDirectory: URL(fileURLWithPath: dir))
        #expect(keyword.status == 0 && keyword.stdout.contains("\(cases)/\(cases) pass"), "\(keyword.stdout)")
        #expect(keyword.stderr.contains("write ./shipped"), "\(keyword.stderr)")
        let path = try StcBinary.run(
            ["conformance", "--vectors", "./shipped", "--quiet"], currentDirectory: URL(fileURLWithPath: dir))
        #expect(path.status == 0 && path.stdout.contains("1/1 pass"), "\(path.stdout)\(path.stderr)")

        // A suite of your own that reuses a shipped id cannot run beside the shipped suites.
        let clash = dir + "/clash.json"
        try Data(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: mine)), as: UTF8.self)
                .replacingOccurrences(of: "mine/space", with: firstId).utf8
        ).write(to: URL(fileURLWithPath: clash))
        let refused = try conformance(["--vectors", "shipped", "--vectors", clash])
        #expect(refused.status == 2, "\(refused.out)\(refused.err)")
        #expect(refused.err.contains("duplicate case id \"\(firstId)\""), "\(refused.err)")
        #expect(refused.err.contains("shipped:\(firstFile)"), "\(refused.err)")
    }

    @Test func helpIsPrintedAndExitsZero() throws {
        let (status, out, _) = try conformance(["--help"])
        #expect(status == 0)
        for option in [
            "--vectors", "--adapter", "--name", "--expect-failures", "--json", "--junit", "--html",
            "--timeout", "--filter", "--no-reference", "--quiet", "--verbose", "Exit codes:",
        ] {
            #expect(out.contains(option), "help lacks \(option)")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try conformance(["--bogus"]).status == 2)
        #expect(try conformance(["--timeout", "0", "--vectors", basic]).status == 2)
        #expect(try conformance(["--timeout"]).status == 2)
        #expect(try conformance(["--no-reference", "--vectors", basic]).status == 2)
        #expect(try conformance(["--name", "x", "--vectors", basic]).status == 2)
        #expect(try conformance(["--expect-failures", "f", "--vectors", basic]).status == 2)
        #expect(try conformance(["--adapter", "a", "--name", "reference", "--vectors", basic]).status == 2)
        #expect(try conformance(["--quiet", "--verbose", "--vectors", basic]).status == 2)
        #expect(try conformance(["--vectors", basic, "--filter", "nothing*"]).status == 2)
    }

    @Test func missingOrInvalidVectorsExitTwoWithAPosition() throws {
        let missing = try conformance(["--vectors", "/nonexistent/dir"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("/nonexistent/dir"))
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = dir + "/bad.json"
        try Data("{\"suite\": \"s\", \"schema\": 1,\n \"cases\": [}".utf8).write(to: URL(fileURLWithPath: bad))
        let invalid = try conformance(["--vectors", bad])
        #expect(invalid.status == 2)
        #expect(invalid.err.contains("bad.json:2:12 (byte 39)"), "\(invalid.err)")
    }

    @Test func misbehavingAdapterRunCompletesAndExitsOne() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out, _) = try conformance([
            "--vectors", resilience, "--no-reference", "--timeout", "1",
            "--adapter", ConformanceFixtures.adapter("--crash", "--hang", "--garbage", "--wrong-id", "--missing"),
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
        let statuses = Dictionary(
            uniqueKeysWithValues: results.compactMap { r -> (String, String)? in
                guard let id = r["id"]?.stringValue, let s = r["status"]?.stringValue else { return nil }
                return (id, s)
            })
        #expect(statuses["resilience/crash"] == "crash")
        #expect(statuses["resilience/hang"] == "timeout")
        #expect(statuses["resilience/wrongid"] == "protocol")
        #expect(statuses["resilience/ok-6"] == "pass")
    }

    @Test(arguments: [["--exit-at-start"], ["--unsupported"], ["--segv"]])
    func everyKindOfBrokenAdapterExitsOne(flags: [String]) throws {
        let command = "python3 '\(ConformanceFixtures.root)/adapters/fake_adapter.py' " + flags.joined(separator: " ")
        let (status, _, _) = try conformance(
            ["--vectors", resilience, "--no-reference", "--timeout", "1", "--adapter", command, "--quiet"])
        #expect(status == 1)
    }

    @Test func wellBehavedAdapterExitsZero() throws {
        let (status, out, _) = try conformance(
            ["--vectors", resilience, "--no-reference", "--adapter", ConformanceFixtures.adapter()])
        #expect(status == 0, "\(out)")
        #expect(out.contains("OK"))
    }

    @Test func expectedFailuresPairWithAdaptersInOrder() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let list = dir + "/failure_list_fake.txt"
        try Data("# fails on purpose\nresilience/crash\n".utf8).write(to: URL(fileURLWithPath: list))
        let good = ConformanceFixtures.adapter()
        let crashing = ConformanceFixtures.adapter("--crash")
        // The list belongs to the first adapter (the crashing one): everything is acceptable.
        let ok = try conformance([
            "--vectors", resilience, "--no-reference", "--adapter", crashing, "--adapter", good,
            "--expect-failures", list, "--name", "crashing", "--name", "good",
        ])
        #expect(ok.status == 0, "\(ok.out)")
        // Swapped, the list is stale for the good adapter (unexpected pass) and the crash is unlisted.
        let swapped = try conformance([
            "--vectors", resilience, "--no-reference", "--adapter", good,
            "--adapter", crashing, "--expect-failures", list,
        ])
        #expect(swapped.status == 1)
        #expect(swapped.out.contains("Unexpectedly passing"))
        // Unknown ids fail the run.
        let stale = dir + "/stale.txt"
        try Data("resilience/crash\nresilience/gone\n".utf8).write(to: URL(fileURLWithPath: stale))
        let unknown = try conformance(
            ["--vectors", resilience, "--no-reference", "--adapter", crashing, "--expect-failures", stale])
        #expect(unknown.status == 1)
        #expect(unknown.out.contains("line 2: resilience/gone"))
    }

    @Test func reportsAreWellFormedAndEscaped() throws {
        let dir = ConformanceFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, _, _) = try conformance([
            "--vectors", resilience, "--vectors", basic, "--no-reference", "--timeout", "1",
            "--adapter", ConformanceFixtures.adapter("--garbage", "--crash"), "--json", dir + "/r.json",
            "--junit", dir + "/r.xml", "--html", dir + "/r.html",
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
}

#if canImport(FoundationXML) || canImport(Darwin)
    /// Counts the JUnit report's test suites and test cases.
    final class SuiteCounter: NSObject, XMLParserDelegate {
        var suites = 0
        var cases = 0
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            if elementName == "testsuite" { suites += 1 }
            if elementName == "testcase" { cases += 1 }
        }
    }
#endif
