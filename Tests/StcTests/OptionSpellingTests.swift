import Foundation
import Testing
import _CommandSupport

@testable import stc

/// For every command and every option that takes a value, `--opt value` and `--opt=value` give the same exit code
/// and the same output, and that output shows the value was used. The options come from the commands'
/// declarations, so an option added later fails here until it has its case in ``cases``.
///
/// Each case is cheap and deterministic: a quick real run (an in-process replay, a stand-in fuzzer, a conformance
/// run over a small suite), or a usage error that the value itself causes. Nothing builds a fuzzer or runs
/// libFuzzer: fuzz runs use the stand-in binary of ``FuzzCommandTests/standInWorkspace()`` with `--no-build`.
@Suite struct OptionSpellingTests {
    /// `stc fuzz run --time`, … for every option that takes a value.
    static let valuedOptions: [String] = CommandTable.all.flatMap { path, command in
        command.syntax.options.filter(\.takesValue).map { (["stc"] + path + [$0.name]).joined(separator: " ") }
    }

    /// One option's test: `stc <path> <option> <value> <arguments>` against `stc <path> <option>=<value> <arguments>`.
    struct Case {
        var value: String
        var arguments: [String] = []
        /// Found in standard output or standard error: evidence that the value, not a default, was used.
        var shows: String
        var stdin = ""
        var environment: [String: String?] = [:]
        /// Run each spelling in a new empty current directory (prepared by `setUp`), for commands that write
        /// there; otherwise in the package root.
        var freshDirectory = false
        var setUp: (URL) throws -> Void = { _ in }
        /// A file the run leaves in its fresh directory, and text it holds: where the value shows.
        var leaves: (file: String, text: String)?
        /// Timing figures in the output (cases/s, seconds) are replaced before comparing.
        var timed = false
    }

    /// Directories a case may use, made on first use and removed when the test ends.
    final class Fixture {
        private var made: [URL] = []
        private var standIn: (package: URL, corpus: URL)?

        deinit { for directory in made { try? FileManager.default.removeItem(at: directory) } }

        func keep(_ url: URL) -> URL {
            made.append(url)
            return url
        }

        func directory() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("stc-spelling-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return keep(url)
        }

        /// A package with a stand-in libFuzzer binary for `url`, and a corpus holding `url`'s seeds.
        func fuzzWorkspace() throws -> (package: String, corpus: String) {
            if standIn == nil {
                let workspace = try FuzzCommandTests.standInWorkspace()
                standIn = (keep(workspace.package), keep(workspace.corpus))
            }
            return (standIn!.package.path, standIn!.corpus.path)
        }

        let basic = ConformanceFixtures.suite("basic.json")

        /// A corpus with one saved regression of `template.total`, which `stc check` replays first.
        func checkCorpus() throws -> String {
            let corpus = try directory()
            let regressions = corpus.appendingPathComponent("template.total/regressions")
            try FileManager.default.createDirectory(at: regressions, withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: regressions.appendingPathComponent("0000000000000001"))
            return corpus.path
        }

        /// A `swift` first in PATH whose `dump-package` names one module after the package directory it is given.
        func standInSwift() throws -> String {
            let bin = try directory()
            let swift = bin.appendingPathComponent("swift")
            try Data(
                """
                #!/bin/sh
                # package --package-path ROOT --scratch-path DIR dump-package
                printf '{"targets": [{"name": "%s", "type": "regular", "settings": []}]}' "$(basename "$3")"

                """.utf8
            ).write(to: swift)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
            return bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        }
    }

    static func writeInput(_ directory: URL) throws {
        try Data("%E6%97".utf8).write(to: directory.appendingPathComponent("input"))
    }

    /// Every option's case, by `stc <path> <option>`.
    static let cases: [String: @Sendable (Fixture) throws -> Case] = [
        // stc conformance: a usage error the value causes, or a run of the reference over a small suite.
        "stc conformance --vectors": { _ in Case(value: "/nonexistent/vectors", shows: "/nonexistent/vectors") },
        "stc conformance --adapter": { _ in
            Case(value: "true", arguments: ["--name", "a", "--name", "b"], shows: "2 --name for 1 --adapter")
        },
        "stc conformance --name": { _ in
            Case(
                value: "reference", arguments: ["--adapter", "true"],
                shows: #"two implementations are named "reference""#)
        },
        "stc conformance --expect-failures": { f in
            Case(
                value: "/nonexistent/list.txt",
                arguments: ["--adapter", "true", "--no-reference", "--vectors", f.basic],
                shows: "/nonexistent/list.txt: cannot read")
        },
        "stc conformance --reference-expect-failures": { f in
            Case(
                value: "/nonexistent/list.txt", arguments: ["--vectors", f.basic],
                shows: "/nonexistent/list.txt: cannot read")
        },
        "stc explore --adapter": { _ in
            Case(
                value: explorerAdapter, arguments: ["--cases", "20", "--seed", "1", "--ops", "url"],
                shows: "OK: no finding", timed: true)
        },
        "stc explore --name": { _ in
            Case(value: "mine", arguments: quickExplore, shows: "== mine (", timed: true)
        },
        "stc explore --ops": { _ in
            Case(
                value: "nope", arguments: ["--adapter", explorerAdapter], shows: "--ops: no operation or family 'nope'")
        },
        "stc explore --time": { _ in
            Case(
                value: "0", arguments: ["--adapter", explorerAdapter],
                shows: #"--time needs a number of seconds above 0, not "0""#)
        },
        "stc explore --cases": { _ in
            Case(
                value: "0", arguments: ["--adapter", explorerAdapter],
                shows: #"--cases needs a positive whole number, not "0""#)
        },
        "stc explore --seed": { _ in
            Case(
                value: "7", arguments: ["--adapter", explorerAdapter, "--cases", "5", "--ops", "url.encode"],
                shows: "seed 7, 0 finding(s)", timed: true)
        },
        "stc explore --timeout": { _ in
            Case(
                value: "0", arguments: ["--adapter", explorerAdapter],
                shows: "--timeout needs a number of seconds above 0")
        },
        "stc explore --expect-findings": { _ in
            Case(
                value: "/nonexistent/findings.txt", arguments: quickExplore,
                shows: "cannot read the expected-findings file /nonexistent/findings.txt")
        },
        "stc explore --save": { _ in
            Case(
                value: "explored.json", arguments: quickExplore, shows: "saved 0 new case(s) to explored.json",
                freshDirectory: true, leaves: ("explored.json", #""suite": "explored""#), timed: true)
        },
        "stc explore --json": { _ in
            Case(
                value: "report.json", arguments: quickExplore, shows: "OK: no finding", freshDirectory: true,
                leaves: ("report.json", #""schema":1"#), timed: true)
        },
        "stc explore --junit": { _ in
            Case(
                value: "junit.xml", arguments: quickExplore, shows: "OK: no finding", freshDirectory: true,
                leaves: ("junit.xml", "<testsuites name=\"stc explore\">"), timed: true)
        },
        "stc inspect --format": { _ in
            Case(value: "json", arguments: ["W10="], shows: "Format: JSON (json, as --format says)")
        },
        "stc explore --replay": { _ in
            Case(value: "url.encode:00", arguments: ["--adapter", explorerAdapter], shows: "url.encode: pass")
        },
        "stc conformance --json": { f in
            Case(
                value: "/nonexistent/r.json", arguments: ["--vectors", f.basic, "--quiet"],
                shows: "cannot write a report: /nonexistent/r.json")
        },
        "stc conformance --junit": { f in
            Case(
                value: "/nonexistent/r.xml", arguments: ["--vectors", f.basic, "--quiet"],
                shows: "cannot write a report: /nonexistent/r.xml")
        },
        "stc conformance --html": { f in
            Case(
                value: "/nonexistent/r.html", arguments: ["--vectors", f.basic, "--quiet"],
                shows: "cannot write a report: /nonexistent/r.html")
        },
        "stc conformance --timeout": { _ in
            Case(value: "0", shows: #"--timeout needs a number of seconds above 0, not "0""#)
        },
        "stc conformance --window": { _ in
            Case(value: "0", shows: #"--window needs a whole number from 1 to 100000, not "0""#)
        },
        "stc conformance --filter": { f in
            Case(value: "nothing*", arguments: ["--vectors", f.basic], shows: "no case id matches --filter nothing*")
        },

        // stc conformance add: real additions to a suite in a fresh directory, or an error the value causes.
        "stc conformance add --op": { _ in
            Case(
                value: "no.such", arguments: ["--input", "{}", "--suite", "s.json"],
                shows: #"unknown operation "no.such""#,
                freshDirectory: true)
        },
        "stc conformance add --input": { _ in
            Case(
                value: "-", arguments: ["--op", "url.encode", "--suite", "s.json"],
                shows: #"{"output":{"encoded":"a%20b"}}"#,
                stdin: #"{"text":"a b"}"#, freshDirectory: true)
        },
        "stc conformance add --suite": { _ in
            Case(
                value: "mine.json", arguments: ["--op", "url.encode", "--input", #"{"text":"a"}"#],
                shows: "added mine/url-encode-", freshDirectory: true)
        },
        "stc conformance add --id": { _ in
            Case(
                value: "s/chosen", arguments: ["--op", "url.encode", "--input", #"{"text":"a"}"#, "--suite", "s.json"],
                shows: "added s/chosen to s.json", freshDirectory: true)
        },
        "stc conformance add --tag": { _ in
            Case(
                value: "-odd-tag", arguments: ["--op", "url.encode", "--input", #"{"text":"a"}"#, "--suite", "s.json"],
                shows: "added s/url-encode-", freshDirectory: true, leaves: ("s.json", #""tags": ["-odd-tag"]"#))
        },
        "stc conformance add --source": { _ in
            Case(
                value: "crash report",
                arguments: ["--op", "url.encode", "--input", #"{"text":"a"}"#, "--suite", "s.json"],
                shows: "added s/url-encode-", freshDirectory: true, leaves: ("s.json", #""source": "crash report""#))
        },
        "stc conformance add --vectors": { _ in
            Case(
                value: "/nonexistent/vectors", arguments: ["--op", "url.encode", "--input", "{}", "--suite", "s.json"],
                shows: "/nonexistent/vectors", freshDirectory: true)
        },

        // stc check: errors the value causes, and a run that replays the regression saved in the given corpus.
        "stc check --seed": { _ in
            Case(value: "x", shows: "--seed takes a decimal number from 0 to 18446744073709551615, not 'x'")
        },
        "stc check --iterations": { _ in Case(value: "zero", shows: "--iterations takes a positive number, not 'zero'")
        },
        "stc check --time": { _ in Case(value: "-1", shows: "--time takes a positive number of seconds, not '-1'") },
        "stc check --replay": { _ in
            Case(value: "0g", shows: "--replay takes hex bytes (an even number of 0-9a-f), not '0g'")
        },
        "stc check --corpus": { f in
            Case(
                value: try f.checkCorpus(), arguments: ["template.total", "--iterations", "1", "--seed", "5"],
                shows: "1 regressions replayed", timed: true)
        },

        // stc fuzz: unknown targets stop build before anything is built; the rest run the stand-in fuzzer.
        "stc fuzz build --corpus": { f in
            Case(value: try f.directory().path, arguments: ["no-such-target"], shows: "unknown target 'no-such-target'")
        },
        "stc fuzz build --package": { f in
            Case(value: try f.directory().path, arguments: ["no-such-target"], shows: "unknown target 'no-such-target'")
        },
        "stc fuzz build --out": { _ in
            Case(value: "/dev/null/out", arguments: ["url"], shows: "cannot make the --out directory /dev/null/out")
        },
        // stc fuzz coverage: each value causes its own error before anything is built or run.
        "stc fuzz coverage --corpus": { f in
            Case(value: try f.directory().path, arguments: ["url"], shows: "no inputs for url: ")
        },
        "stc fuzz coverage --package": { f in
            let empty = try f.directory().path
            return Case(value: empty, arguments: ["url"], shows: "\(empty) holds no Fuzz/Package.swift")
        },
        "stc fuzz coverage --html": { _ in
            Case(value: "/dev/null/html", arguments: ["url"], shows: "cannot make the --html directory /dev/null/html")
        },
        "stc fuzz coverage --binaries": { _ in
            Case(value: "/nonexistent/bin", arguments: ["url"], shows: "no coverage binary /nonexistent/bin/url")
        },
        "stc fuzz modules --package": { f in
            Case(
                value: try f.directory().path + "/named-package", shows: "named-package\t-\tfake-frames",
                environment: ["PATH": try f.standInSwift()])
        },
        "stc fuzz run --corpus": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: corpus, arguments: ["url", "--no-build", "--time", "1", "--package", package],
                shows: "\(corpus)/url")
        },
        "stc fuzz run --package": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: package, arguments: ["url", "--no-build", "--time", "1", "--corpus", corpus],
                shows: "\(package)/Fuzz/.build/release/url")
        },
        "stc fuzz run --time": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: "7", arguments: ["url", "--no-build", "--package", package, "--corpus", corpus],
                shows: "-max_total_time=7")
        },
        "stc fuzz run --jobs": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: "2", arguments: ["url", "--no-build", "--time", "1", "--package", package, "--corpus", corpus],
                shows: "2 jobs: 300 executions")
        },
        "stc fuzz run --max-len": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: "99", arguments: ["url", "--no-build", "--time", "1", "--package", package, "--corpus", corpus],
                shows: "-max_len=99")
        },
        "stc fuzz replay --corpus": { f in
            Case(value: try f.fuzzWorkspace().corpus, arguments: ["url"], shows: "seeds, 0 regressions: ok")
        },
        "stc fuzz replay --package": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: package, arguments: ["url", "--binary", "--no-build", "--corpus", corpus],
                shows: "binary replay: all 1 targets passed")
        },
        "stc fuzz replay --repeat": { f in
            Case(
                value: "2", arguments: ["url", "--corpus", try f.fuzzWorkspace().corpus],
                shows: "(2 times each): all passed")
        },
        "stc fuzz add --corpus": { _ in
            Case(
                value: "corpus", arguments: ["url", "input"], shows: "added corpus/url/regressions/",
                freshDirectory: true,
                setUp: writeInput)
        },
        "stc fuzz add --package": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: package, arguments: ["url", "input", "--minimize", "--no-build", "--corpus", corpus],
                shows: "input does not crash url: nothing added", freshDirectory: true, setUp: writeInput)
        },
        "stc fuzz add --runs": { _ in
            Case(value: "5", arguments: ["no-such-target", "/dev/null"], shows: "unknown target 'no-such-target'")
        },
        "stc fuzz campaign --corpus": { _ in
            Case(
                value: "/nonexistent/corpus", arguments: ["--report"],
                shows: "cannot read the ledger /nonexistent/corpus/CAMPAIGN.json")
        },
        "stc fuzz campaign --package": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: package,
                arguments: ["url", "--budget", "1s", "--no-build", "--corpus", corpus, "--ledger", "ledger.json"],
                shows: "budget: 1 CPU s in all", freshDirectory: true, leaves: ("ledger.json", "\"budgetSeconds\" : 1"),
                timed: true)
        },
        "stc fuzz campaign --budget": { _ in
            Case(value: "0", shows: "--budget needs a duration above 0, not '0'")
        },
        "stc fuzz campaign --jobs": { _ in
            Case(value: "0", arguments: ["--budget", "1m"], shows: "--jobs needs a whole number ≥ 1, not '0'")
        },
        "stc fuzz campaign --slice": { _ in
            Case(value: "5x", arguments: ["--budget", "1m"], shows: "--slice takes a duration such as 90s")
        },
        "stc fuzz campaign --ledger": { _ in
            Case(
                value: "/nonexistent/L.json", arguments: ["--report"],
                shows: "cannot read the ledger /nonexistent/L.json")
        },
        "stc fuzz merge --corpus": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(value: corpus, arguments: ["url", "--package", package], shows: "nothing to merge")
        },
        "stc fuzz merge --package": { f in
            let (package, corpus) = try f.fuzzWorkspace()
            return Case(
                value: package, arguments: ["url", "--corpus", corpus],
                shows: "nothing to merge: \(package)/.build/fuzz-corpus/url is empty")
        },
    ]

    /// The reference served by the built `stc`, as an adapter for `stc explore` (an absolute path: some cases run
    /// in a fresh directory).
    static let explorerAdapter = "\(StcBinary.url?.path ?? "stc") adapter"

    /// A few cases of one operation against ``explorerAdapter``: a run of a fraction of a second.
    static let quickExplore = ["--adapter", explorerAdapter, "--cases", "5", "--seed", "1", "--ops", "url.encode"]

    static func normalized(_ text: String, timed: Bool) -> String {
        guard timed else { return text }
        return text.replacingOccurrences(of: #"\d+ cases/s"#, with: "N cases/s", options: .regularExpression)
            .replacingOccurrences(of: #"in [0-9.]+ s"#, with: "in T s", options: .regularExpression)
    }

    @Test(arguments: valuedOptions)
    func bothSpellingsAgree(option key: String) throws {
        guard let make = Self.cases[key] else {
            Issue.record("no case for \(key): add one to OptionSpellingTests.cases")
            return
        }
        let fixture = Fixture()
        let test = try make(fixture)
        let words = key.split(separator: " ").dropFirst().map(String.init)
        let (path, option) = (Array(words.dropLast()), words.last ?? "")
        var runs: [StcBinary.Run] = []
        for spelled in [[option, test.value], ["\(option)=\(test.value)"]] {
            let directory = test.freshDirectory ? try fixture.directory() : nil
            if let directory { try test.setUp(directory) }
            runs.append(
                try StcBinary.run(
                    path + spelled + test.arguments, stdin: Data(test.stdin.utf8), currentDirectory: directory,
                    environment: test.environment))
            if let directory, let (file, text) = test.leaves {
                let written = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                #expect(written?.contains(text) == true, "\(key) \(spelled): \(file) lacks \(text): \(written ?? "")")
            }
        }
        let (separate, joined) = (runs[0], runs[1])
        #expect(separate.status == joined.status, "\(key): exit \(separate.status) and \(joined.status)")
        #expect(
            Self.normalized(separate.stdout, timed: test.timed) == Self.normalized(joined.stdout, timed: test.timed),
            "\(key): standard output differs")
        #expect(separate.stderr == joined.stderr, "\(key): standard error differs")
        #expect(
            (separate.stdout + separate.stderr).contains(test.shows),
            "\(key): no sign of the value (\(test.shows)):\n\(separate.stdout)\(separate.stderr)")
    }

    /// Every case is for an option some command declares: a renamed or removed option takes its case with it.
    @Test func everyCaseIsForADeclaredOption() {
        for key in Self.cases.keys where !Self.valuedOptions.contains(key) {
            Issue.record("OptionSpellingTests.cases has \(key), which no command declares")
        }
    }
}
