import Conformance
import Foundation
import ShippedVectors
import _CommandSupport

/// `stc conformance`: the command line over the runner (see `--help`).
enum ConformanceCommand {

    static let help = HelpPage(
        "stc conformance",
        usage: [
            """
            [--vectors PATH]... [--adapter 'COMMAND']... [--name NAME]... [--expect-failures FILE]... \
            [--reference-expect-failures FILE] [--json FILE] [--junit FILE] [--html FILE] [--timeout S] \
            [--window N] [--filter GLOB]... [--no-reference] [--quiet | --verbose]
            """
        ],
        description: """
            Runs the conformance vectors through the reference (in this process) and through each adapter,
            prints a summary, and optionally writes JSON, JUnit XML and HTML reports.

            The shipped vectors (every corpus/conformance/*.json of stc's own package, as it was when stc was
            built) are built into stc: they need no files, and run from any directory.

            Progress goes to stderr, drawn live on a terminal; otherwise a line every 10 s on long runs only.
            """,
        commands: [ConformanceAddCommand.command].map { HelpPage.Item($0.name, $0.summary) },
        options: [
            .init(
                "--vectors PATH",
                """
                a suite file, a directory whose *.json files (not recursive) are suites, or `shipped`: the suites
                built into stc (`./shipped` is a path). Repeatable. Without --vectors, the shipped suites run;
                with it, exactly the suites it names, so `--vectors shipped --vectors mine.json` runs yours beside
                them. Case ids and suite names must be unique across everything loaded.
                """),
            .init(
                "--adapter 'COMMAND'",
                """
                an implementation under test: COMMAND runs with /bin/sh -c and speaks the adapter protocol
                (SPEC.md §5): one JSON request per line on stdin, one JSON answer per line on stdout, flushed after
                each line. Repeatable. An adapter that crashes is restarted (the case in flight is `crash`), one
                that hangs is killed after --timeout (`timeout`), a malformed answer is `protocol`.
                """),
            .init(
                "--name NAME",
                """
                the name of an adapter in the reports. The i-th --name belongs to the i-th --adapter, counting
                each option separately in command-line order (so `--adapter A --adapter B --name b` names A "b").
                Adapters without a name are adapter1, adapter2, … by position. Names must be unique and not
                "reference".
                """),
            .init(
                "--expect-failures FILE",
                """
                the expected-failures list of an adapter, paired like --name: the i-th --expect-failures belongs
                to the i-th --adapter. Giving more --name or --expect-failures than --adapter is an error.
                """),
            .init("--reference-expect-failures FILE", "an expected-failures list for the in-process reference"),
            .init("--json FILE", "write the machine-readable report (schema 1) to FILE"),
            .init("--junit FILE", "write JUnit XML (one testsuite per implementation × suite) to FILE"),
            .init(
                "--html FILE",
                """
                write one self-contained HTML page to FILE. Reports are written atomically (a temporary file,
                then rename).
                """),
            .init("--timeout S", "seconds an adapter may take to answer one case (default 5; fractions allowed)"),
            .init("--window N", "requests kept in flight per adapter (default 64; 1 disables pipelining)"),
            .init(
                "--filter GLOB",
                """
                run only cases whose id matches GLOB (* any text including /, ? one character, [abc] a set).
                Repeatable: a case runs when it matches any.
                """),
            .init("--no-reference", "do not run the in-process reference (then at least one --adapter is needed)"),
            .init("--quiet", "print one line per implementation and the verdict"),
            .init(
                "--verbose",
                "print every case's status and every problem (the default caps problems at 40 per implementation)"),
        ],
        sections: [
            .init(
                "Expected-failures files",
                text: """
                    Plain text, one case id per line, `#` starts a comment. A listed case that does not pass is an
                    expected failure and does not fail the run. A listed case that passes is "unexpectedly passing",
                    and a listed id that names no loaded case is "unknown": both fail the run (remove the lines).
                    Listed cases left out by --filter are ignored.
                    """),
            .init(
                "Results",
                text: """
                    Each case is pass, fail, crash, timeout, protocol or unsupported. `unsupported` is not a pass: list
                    the case as an expected failure if an implementation lacks the operation. Cases tagged
                    `assumption` (rules nothing public confirms) count like the others but are shown apart.
                    """),
        ],
        exitCodes: [
            .init("0", "every case passed or is an expected failure, and the lists have no stale lines"),
            .init(
                "1",
                """
                some case failed, crashed, timed out, broke the protocol, was unsupported or passed
                unexpectedly
                """),
            .init(
                "2",
                """
                usage error, vectors missing, unreadable or invalid (the message gives file:line:column and the
                byte offset), an unreadable expected-failures file, or a report that could not be written
                """),
        ],
        examples: """
            stc conformance
            stc conformance --vectors shipped --vectors my-vectors/ --adapter 'python3 my_adapter.py'
            stc conformance --adapter 'stc adapter' --name stc-adapter --json out/report.json
            stc conformance --no-reference --adapter 'node adapter.js' --expect-failures failures_node.txt \\
                            --junit junit.xml --html report.html --filter 'selection-*'
            """)

    static let command = Command(
        "conformance", summary: "run the conformance vectors against the reference and adapters",
        syntax: CommandSyntax(options: [
            .value("--vectors", "PATH", repeats: true), .value("--adapter", "COMMAND", repeats: true),
            .value("--name", "NAME", repeats: true), .value("--expect-failures", "FILE", repeats: true),
            .value("--reference-expect-failures", "FILE"), .value("--json", "FILE"), .value("--junit", "FILE"),
            .value("--html", "FILE"), .value("--timeout", "S"), .value("--window", "N"),
            .value("--filter", "GLOB", repeats: true), .flag("--no-reference"), .flag("--quiet"), .flag("--verbose"),
        ]),
        help: help, subcommands: [ConformanceAddCommand.command], run: main)

    /// What a run is asked to do, from the options, once each value has been checked.
    struct Options {
        var vectors: [String]
        var adapters: [String]
        var names: [String]
        var expectFailures: [String]
        var referenceExpectFailures: String?
        var json: String?
        var junit: String?
        var html: String?
        var timeout: Double = 5
        var window = 64
        var filters: [String]
        var noReference: Bool
        var quiet: Bool
        var verbose: Bool
    }

    /// The options' values, checked alone and together.
    static func options(_ arguments: ScannedArguments) throws(UsageError) -> Options {
        var options = Options(
            vectors: arguments.values("--vectors"), adapters: arguments.values("--adapter"),
            names: arguments.values("--name"), expectFailures: arguments.values("--expect-failures"),
            referenceExpectFailures: arguments.value("--reference-expect-failures"), json: arguments.value("--json"),
            junit: arguments.value("--junit"), html: arguments.value("--html"), filters: arguments.values("--filter"),
            noReference: arguments.flag("--no-reference"), quiet: arguments.flag("--quiet"),
            verbose: arguments.flag("--verbose"))
        if let text = arguments.value("--timeout") {
            guard let t = Double(text), t.isFinite, t > 0, t <= 86_400 else {
                throw UsageError("--timeout needs a number of seconds above 0, not \"\(text)\"")
            }
            options.timeout = t
        }
        if let text = arguments.value("--window") {
            guard let n = Int(text), n >= 1, n <= 100_000 else {
                throw UsageError("--window needs a whole number from 1 to 100000, not \"\(text)\"")
            }
            options.window = n
        }
        if options.quiet && options.verbose { throw UsageError("--quiet and --verbose exclude each other") }
        if options.names.count > options.adapters.count {
            throw UsageError(
                "\(options.names.count) --name for \(options.adapters.count) --adapter; each --name names the --adapter"
                    + " of the same rank")
        }
        if options.expectFailures.count > options.adapters.count {
            throw UsageError(
                "\(options.expectFailures.count) --expect-failures for \(options.adapters.count) --adapter; for the"
                    + " reference use --reference-expect-failures")
        }
        if options.noReference && options.adapters.isEmpty {
            throw UsageError("--no-reference leaves nothing to run; give an --adapter")
        }
        if options.noReference && options.referenceExpectFailures != nil {
            throw UsageError("--reference-expect-failures with --no-reference")
        }
        var seen: Set<String> = options.noReference ? [] : ["reference"]
        for k in options.adapters.indices {
            let name = adapterName(k, options)
            if name.isEmpty { throw UsageError("an adapter name cannot be empty") }
            if !seen.insert(name).inserted {
                let note = name == "reference" ? " (the in-process reference has that name)" : ""
                throw UsageError("two implementations are named \"\(name)\"\(note)")
            }
        }
        return options
    }

    /// The i-th `--name`, or `adapter<i+1>` for an adapter without one.
    static func adapterName(_ k: Int, _ options: Options) -> String {
        k < options.names.count ? options.names[k] : "adapter\(k + 1)"
    }

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let options = try options(arguments)
        let vectorPaths = options.vectors.isEmpty ? [ShippedVectors.keyword] : options.vectors
        let suites = try loadVectors(vectorPaths, command: "stc conformance")
        var lists: [ExpectedFailures?] = []
        do {
            if let path = options.referenceExpectFailures, !options.noReference {
                lists.append(try ExpectedFailures.load(path: path))
            } else if !options.noReference {
                lists.append(nil)
            }
            for k in options.adapters.indices {
                let path = k < options.expectFailures.count ? options.expectFailures[k] : nil
                lists.append(try path.map(ExpectedFailures.load(path:)))
            }
        } catch {
            throw CommandFailure(Escape.controls(error.description))
        }
        let runner = ConformanceRunner(suites: suites, filters: options.filters, timeout: options.timeout)
        if runner.cases.isEmpty {
            throw CommandFailure(
                options.filters.isEmpty
                    ? "the vectors hold no case"
                    : "no case id matches --filter \(options.filters.joined(separator: " "))")
        }
        var implementations: [Implementation] = []
        if !options.noReference { implementations.append(InProcessImplementation()) }
        for (k, command) in options.adapters.enumerated() {
            implementations.append(
                AdapterProcess(
                    name: adapterName(k, options), command: command, timeout: options.timeout, window: options.window))
        }
        let progress = Progress(enabled: !options.quiet)
        let run = runner.run(Array(zip(implementations, lists))) { name, done, total in
            progress.show("\(Escape.controls(name)): \(done)/\(total) cases", final: done == total)
        }
        progress.finish()
        let verbosity: TextReport.Verbosity = options.quiet ? .quiet : (options.verbose ? .verbose : .normal)
        Console.write(TextReport.string(run, verbosity: verbosity, vectors: origin(vectorPaths)), to: 1)
        do {
            if let path = options.json { try ReportFile.writeAtomically(JSONReport.bytes(run), to: path) }
            if let path = options.junit { try ReportFile.writeAtomically(JUnitReport.string(run), to: path) }
            if let path = options.html { try ReportFile.writeAtomically(HTMLReport.string(run), to: path) }
        } catch {
            throw CommandFailure("cannot write a report: \(error.description)")
        }
        return run.ok ? 0 : 1
    }

    /// The suites that `--vectors` paths name, where `shipped` names the suites built into stc.
    static func loadVectors(_ paths: [String], command: String) throws(CommandFailure) -> [Suite] {
        if paths.contains(ShippedVectors.keyword), FileManager.default.fileExists(atPath: ShippedVectors.keyword) {
            Console.error(
                "\(command): note: --vectors \(ShippedVectors.keyword) names the suites built into stc, not the"
                    + " \(ShippedVectors.keyword) here; write ./\(ShippedVectors.keyword) for that")
        }
        do {
            return try ShippedVectors.load(paths: paths)
        } catch {
            let shipped = paths.contains(ShippedVectors.keyword) ? " (shipped: the suites built into stc)" : ""
            throw CommandFailure(loadFailure("invalid vectors\(shipped):", error))
        }
    }

    /// Where the suites come from, for the report's `vectors:` line.
    static func origin(_ paths: [String]) -> String {
        paths.map { path in
            guard path == ShippedVectors.keyword else { return path }
            return "shipped (\(ShippedVectors.files.count) suite files built into stc from"
                + " \(ShippedVectors.sourceDirectory)/*.json)"
        }.joined(separator: ", ")
    }

    /// A heading, then each error of the suite loader on a line of its own.
    static func loadFailure(_ heading: String, _ failure: SuiteLoadFailure) -> String {
        ([heading] + failure.errors.map { "  \(Escape.controls($0.description))" }).joined(separator: "\n")
    }
}
