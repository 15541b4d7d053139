import Conformance
import Foundation

/// `stc conformance`: the command line over the runner (see `--help`).
enum ConformanceCommand {
    static let defaultVectorsPath = "corpus/conformance"

    static let usage = """
        USAGE: stc conformance [--vectors PATH]... [--adapter 'COMMAND']... [--name NAME]...
                               [--expect-failures FILE]... [--reference-expect-failures FILE]
                               [--json FILE] [--junit FILE] [--html FILE] [--timeout S] [--window N]
                               [--filter GLOB]... [--no-reference] [--quiet | --verbose]

        Runs the conformance vectors through the reference (in this process) and through each adapter,
        prints a summary, and optionally writes JSON, JUnit XML and HTML reports.

        OPTIONS:
          --vectors PATH     A suite file, or a directory whose *.json files (not recursive) are suites.
                             Repeatable. Default: corpus/conformance, relative to the current directory.
          --adapter 'COMMAND'
                             An implementation under test: COMMAND runs with /bin/sh -c and speaks the
                             adapter protocol (SPEC.md §5): one JSON request per line on stdin, one JSON
                             answer per line on stdout, flushed after each line. Repeatable. An adapter that
                             crashes is restarted (the case in flight is `crash`), one that hangs is killed
                             after --timeout (`timeout`), a malformed answer is `protocol`.
          --name NAME        The name of an adapter in the reports. The i-th --name belongs to the i-th
                             --adapter, counting each option separately in command-line order (so
                             `--adapter A --adapter B --name b` names A "b"). Adapters without a name are
                             adapter1, adapter2, … by position. Names must be unique and not "reference".
          --expect-failures FILE
                             The expected-failures list of an adapter, paired like --name: the i-th
                             --expect-failures belongs to the i-th --adapter. Giving more --name or
                             --expect-failures than --adapter is an error.
          --reference-expect-failures FILE
                             An expected-failures list for the in-process reference.
          --json FILE        Write the machine-readable report (schema 1) to FILE.
          --junit FILE       Write JUnit XML (one testsuite per implementation × suite) to FILE.
          --html FILE        Write one self-contained HTML page to FILE.
                             Reports are written atomically (a temporary file, then rename).
          --timeout S        Seconds an adapter may take to answer one case (default 5; fractions allowed).
          --window N         Requests kept in flight per adapter (default 64; 1 disables pipelining).
          --filter GLOB      Run only cases whose id matches GLOB (* any text including /, ? one
                             character, [abc] a set). Repeatable: a case runs when it matches any.
          --no-reference     Do not run the in-process reference (then at least one --adapter is needed).
          --quiet            Print one line per implementation and the verdict.
          --verbose          Print every case's status and every problem (the default caps problems at 40
                             per implementation).
          -h, --help         Show this help.

        EXPECTED-FAILURES FILES:
          Plain text, one case id per line, `#` starts a comment. A listed case that does not pass is an
          expected failure and does not fail the run. A listed case that passes is "unexpectedly passing",
          and a listed id that names no loaded case is "unknown": both fail the run (remove the lines).
          Listed cases left out by --filter are ignored.

        RESULTS:
          Each case is pass, fail, crash, timeout, protocol or unsupported. `unsupported` is not a pass: list
          the case as an expected failure if an implementation lacks the operation. Cases tagged
          `assumption` (rules nothing public confirms) count like the others but are shown apart.
          Progress goes to stderr, drawn live on a terminal; otherwise a line every 10 s on long runs only.

        EXIT STATUS:
          0  every case passed or is an expected failure, and the lists have no stale lines
          1  some case failed, crashed, timed out, broke the protocol, was unsupported or passed unexpectedly
          2  usage error, vectors missing, unreadable or invalid (the message gives file:line:column and the
             byte offset), an unreadable expected-failures file, or a report that could not be written

        SUBCOMMANDS:
          stc conformance add --op OP --input JSON …   record a field report as a new case (see add --help)

        EXAMPLES:
          stc conformance
          stc conformance --adapter 'stc adapter' --name stc-adapter --json out/report.json
          stc conformance --no-reference --adapter 'node adapter.js' --expect-failures failures_node.txt \\
                          --junit junit.xml --html report.html --filter 'selection-*'

        """

    struct Options {
        var vectors: [String] = []
        var adapters: [String] = []
        var names: [String] = []
        var expectFailures: [String] = []
        var referenceExpectFailures: String?
        var json: String?
        var junit: String?
        var html: String?
        var timeout: Double = 5
        var window = 64
        var filters: [String] = []
        var noReference = false
        var quiet = false
        var verbose = false
        var help = false
    }

    struct UsageError: Error { var message: String }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var i = 0
        func value(_ option: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            i += 1
            guard i < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let argument = arguments[i]
            var option = argument
            var inline: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                option = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            switch option {
            case "-h", "--help": options.help = true
            case "--vectors": options.vectors.append(try value(option, inline))
            case "--adapter": options.adapters.append(try value(option, inline))
            case "--name": options.names.append(try value(option, inline))
            case "--expect-failures": options.expectFailures.append(try value(option, inline))
            case "--reference-expect-failures": options.referenceExpectFailures = try value(option, inline)
            case "--json": options.json = try value(option, inline)
            case "--junit": options.junit = try value(option, inline)
            case "--html": options.html = try value(option, inline)
            case "--filter": options.filters.append(try value(option, inline))
            case "--timeout":
                let text = try value(option, inline)
                guard let t = Double(text), t.isFinite, t > 0, t <= 86_400 else {
                    throw UsageError(message: "--timeout needs a number of seconds above 0, not \"\(text)\"")
                }
                options.timeout = t
            case "--window":
                let text = try value(option, inline)
                guard let n = Int(text), n >= 1, n <= 100_000 else {
                    throw UsageError(message: "--window needs a whole number from 1 to 100000, not \"\(text)\"")
                }
                options.window = n
            case "--no-reference", "--quiet", "--verbose":
                if inline != nil { throw UsageError(message: "\(option) takes no value") }
                if option == "--no-reference" { options.noReference = true }
                if option == "--quiet" { options.quiet = true }
                if option == "--verbose" { options.verbose = true }
            default:
                throw UsageError(message: argument.hasPrefix("-") ? "unknown option \(argument)" : "unexpected argument \"\(argument)\"")
            }
            i += 1
        }
        if options.help { return options }
        if options.quiet && options.verbose { throw UsageError(message: "--quiet and --verbose exclude each other") }
        if options.names.count > options.adapters.count {
            throw UsageError(message: "\(options.names.count) --name for \(options.adapters.count) --adapter; each --name names the --adapter of the same rank")
        }
        if options.expectFailures.count > options.adapters.count {
            throw UsageError(message: "\(options.expectFailures.count) --expect-failures for \(options.adapters.count) --adapter; for the reference use --reference-expect-failures")
        }
        if options.noReference && options.adapters.isEmpty {
            throw UsageError(message: "--no-reference leaves nothing to run; give an --adapter")
        }
        if options.noReference && options.referenceExpectFailures != nil {
            throw UsageError(message: "--reference-expect-failures with --no-reference")
        }
        var seen: Set<String> = options.noReference ? [] : ["reference"]
        for (k, _) in options.adapters.enumerated() {
            let name = k < options.names.count ? options.names[k] : "adapter\(k + 1)"
            if name.isEmpty { throw UsageError(message: "an adapter name cannot be empty") }
            if !seen.insert(name).inserted {
                throw UsageError(message: "two implementations are named \"\(name)\"\(name == "reference" ? " (the in-process reference has that name)" : "")")
            }
        }
        return options
    }

    /// Runs the command; `arguments` exclude "stc conformance". Returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == "add" { return ConformanceAddCommand.main(Array(arguments.dropFirst())) }
        let output = Output.standard
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            output.err("stc conformance: \(error.message)\nRun 'stc conformance --help' for usage.\n")
            return 2
        }
        if options.help {
            output.out(usage)
            return 0
        }
        var vectorPaths = options.vectors
        if vectorPaths.isEmpty {
            guard FileManager.default.fileExists(atPath: defaultVectorsPath) else {
                output.err("stc conformance: no vectors at \(defaultVectorsPath) (relative to the current directory); run from the package root or pass --vectors PATH\n")
                return 2
            }
            vectorPaths = [defaultVectorsPath]
        }
        let suites: [Suite]
        do {
            suites = try SuiteLoader.load(paths: vectorPaths)
        } catch {
            output.err("stc conformance: invalid vectors:\n")
            for e in error.errors { output.err("  \(Escape.controls(e.description))\n") }
            return 2
        }
        var lists: [ExpectedFailures?] = []
        do {
            if let path = options.referenceExpectFailures, !options.noReference {
                lists.append(try ExpectedFailures.load(path: path))
            } else if !options.noReference {
                lists.append(nil)
            }
            for k in 0..<options.adapters.count {
                lists.append(k < options.expectFailures.count ? try ExpectedFailures.load(path: options.expectFailures[k]) : nil)
            }
        } catch {
            output.err("stc conformance: \(Escape.controls(error.description))\n")
            return 2
        }
        let runner = ConformanceRunner(suites: suites, filters: options.filters, timeout: options.timeout)
        if runner.cases.isEmpty {
            output.err("stc conformance: \(options.filters.isEmpty ? "the vectors hold no case" : "no case id matches --filter \(options.filters.joined(separator: " "))")\n")
            return 2
        }
        var implementations: [Implementation] = []
        if !options.noReference { implementations.append(InProcessImplementation()) }
        for (k, command) in options.adapters.enumerated() {
            let name = k < options.names.count ? options.names[k] : "adapter\(k + 1)"
            implementations.append(AdapterProcess(name: name, command: command, timeout: options.timeout, window: options.window))
        }
        let progress = Progress(output: output, enabled: !options.quiet)
        let run = runner.run(Array(zip(implementations, lists)), progress: progress.update)
        progress.finish()
        let verbosity: TextReport.Verbosity = options.quiet ? .quiet : (options.verbose ? .verbose : .normal)
        output.out(TextReport.string(run, verbosity: verbosity))
        do {
            if let path = options.json { try ReportFile.writeAtomically(JSONReport.bytes(run), to: path) }
            if let path = options.junit { try ReportFile.writeAtomically(JUnitReport.string(run), to: path) }
            if let path = options.html { try ReportFile.writeAtomically(HTMLReport.string(run), to: path) }
        } catch {
            output.err("stc conformance: cannot write a report: \(error.description)\n")
            return 2
        }
        return run.ok ? 0 : 1
    }
}

/// Where the conformance commands write: standard output and standard error, without newlines of their own.
struct Output {
    var out: (String) -> Void
    var err: (String) -> Void
    /// Whether stderr is a terminal (live progress is drawn only then).
    var errIsTerminal: Bool

    static var standard: Output {
        Output(
            out: { Console.writeAll(Array($0.utf8), to: 1) },
            err: { Console.writeAll(Array($0.utf8), to: 2) },
            errIsTerminal: Console.stderrIsTerminal)
    }
}

/// Progress on stderr: redrawn in place on a terminal (at most 10 times a second); elsewhere one line every
/// 10 s, and only once a run has lasted 10 s (short runs in CI logs print nothing).
final class Progress {
    let output: Output
    let enabled: Bool
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var lastDraw: ContinuousClock.Instant?
    var drewLine = false

    init(output: Output, enabled: Bool) {
        self.output = output
        self.enabled = enabled
        start = clock.now
    }

    func update(_ name: String, _ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = clock.now
        if output.errIsTerminal {
            guard lastDraw.map({ now - $0 >= .milliseconds(100) }) ?? true || done == total else { return }
            lastDraw = now
            output.err("\r\u{1B}[K\(Escape.controls(name)): \(done)/\(total) cases")
            drewLine = true
        } else {
            guard now - start >= .seconds(10), lastDraw.map({ now - $0 >= .seconds(10) }) ?? true else { return }
            lastDraw = now
            output.err("\(Escape.controls(name)): \(done)/\(total) cases (\((now - start).components.seconds) s)\n")
        }
    }

    func finish() {
        if drewLine { output.err("\r\u{1B}[K") }
    }
}
