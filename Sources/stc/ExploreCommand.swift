import Conformance
import Exploration
import Foundation
import StrictJSON
import _CommandSupport

/// `stc explore`: generated cases against adapters, judged by the reference, shrunk, kept as vectors (see `--help`).
enum ExploreCommand {
    static let help = HelpPage(
        "stc explore",
        usage: [
            """
            --adapter 'COMMAND'... [--name NAME]... [--ops LIST] [--time S | --cases N] [--seed S] [--timeout S] \
            [--expect-findings FILE]... [--save FILE] [--json FILE] [--junit FILE] [--quiet]
            """,
            "--adapter 'COMMAND' --replay CASE",
        ],
        description: """
            Generates cases for every operation (or those of --ops) from the generators the properties and the
            structured fuzzers use: valid data, near-valid and hostile stored selections in every storage format
            (JSON, documents of several selections, binary and XML property lists; selection.encode in each),
            equal selections written differently, tokens both listed and excepted, stores past 50 tokens, notDetermined flicker, revocations,
            names in every script, malformed percent escapes and template braces. The reference answers each case in
            this process; each adapter answers it over the adapter protocol (SPEC.md §5), pipelined, restarted after
            a crash and timed out as stc conformance does, and its answer is judged as a vector is.

            A discrepancy is shrunk on its choice sequence, asking the adapter again at each step, until no smaller
            case shows it. Discrepancies of one kind are one finding (a rule), named OP: what differs (for example
            "selection.decode: expected error base64 (non-zero pad bits (not the canonical encoding)), got output").
            Findings of one root cause (the operation, the class of the reference's answer and the class of the
            adapter's: "selection.decode: answers output where the reference answers an error") are one group; the
            report lists the groups with their rules first, then each finding with its minimal input, the expected
            and actual answers, the difference, and one line that replays exactly it. An operation an adapter
            answers `unsupported` every time is reported once and skipped; one it answers for some inputs only keeps
            the others.

            Shrinking takes at most half of --time in all and 10 s per finding; after that, and once the time is up,
            a new finding is still shrunk for a quarter of a second, so that a run ends within about a second of
            --time. A Swift adapter served with the testing kit's ScreenTimeAdapter.serve survives its own traps
            (a fork server, SPEC.md §5.4); any other is restarted after a crash, and the restarts and their cost are
            in the progress line and the report.

            Progress goes to standard error: live on a terminal, otherwise a line every 10 s on long runs.
            """,
        options: [
            .init(
                "--adapter 'COMMAND'",
                """
                an implementation under test, run with /bin/sh -c (repeatable; each is explored in turn with the
                same cases)
                """),
            .init("--name NAME", "the i-th adapter's name in the reports (default adapter1, adapter2, …)"),
            .init(
                "--ops LIST",
                """
                comma-separated operations (selection.decode) or families (selection, url); default: every
                operation. Operations: \(ExploredOperations.all.map(\.name).joined(separator: ", ")).
                """),
            .init("--time S", "stop generating after S seconds per adapter (default 60; shrinking included)"),
            .init(
                "--cases N",
                """
                generate exactly N cases instead: with --seed, the run is deterministic (a warning on standard error
                when it will take more than 10 minutes)
                """),
            .init("--seed S", "the run's seed (0…18446744073709551615; default: a fresh one, printed)"),
            .init("--timeout S", "seconds an adapter may take for one case (default 5; fractions allowed)"),
            .init(
                "--expect-findings FILE",
                """
                the i-th adapter's known findings, one finding or group key a line, # comments: listed findings
                (and every finding of a listed group) do not fail the run, and a listed line that names nothing
                found does (strict both ways)
                """),
            .init(
                "--save FILE",
                """
                add each finding's minimal case to the suite FILE (created when missing; tag explored; ids from
                content; existing cases never changed; written atomically), so that stc conformance --vectors
                FILE reproduces it
                """),
            .init("--json FILE", "write the machine-readable report (schema 1)"),
            .init("--junit FILE", "write JUnit XML: a test case per finding"),
            .init("--quiet", "print each finding's name only, and the verdict"),
            .init(
                "--replay CASE",
                """
                run exactly one case, given as OP:HEX (an operation and the choices of the case, as a finding's
                replay line prints them), and print its answer. No generation, no shrinking.
                """),
        ],
        exitCodes: [
            .init("0", "no finding (or only listed ones, and no stale line); with --replay, the case passes now"),
            .init("1", "a finding, or a listed one not found; with --replay, the case still fails"),
            .init(
                "2",
                """
                usage error, an adapter that answers no request (it could not start), an unreadable list, or a
                report or suite that could not be written
                """),
        ],
        examples: """
            stc explore --adapter 'python3 my_adapter.py' --time 60 --save corpus/conformance/explored.json
            stc explore --adapter 'stc adapter' --time 30          # the reference against itself
            stc explore --adapter 'node adapter.mjs' --cases 20000 --seed 1 --expect-findings known.txt
            """)

    static let command = Command(
        "explore", summary: "generated cases against adapters, judged by the reference, shrunk, saved as vectors",
        syntax: CommandSyntax(options: [
            .value("--adapter", "COMMAND", repeats: true), .value("--name", "NAME", repeats: true),
            .value("--ops", "LIST"), .value("--time", "S"), .value("--cases", "N"), .value("--seed", "S"),
            .value("--timeout", "S"), .value("--expect-findings", "FILE", repeats: true), .value("--save", "FILE"),
            .value("--json", "FILE"), .value("--junit", "FILE"), .flag("--quiet"), .value("--replay", "CASE"),
        ]),
        help: help, run: main)

    /// The operations a `--ops` list names: exact names, or families given as `selection` or `selection.`.
    static func operations(_ list: String?) throws(UsageError) -> [ExploredOperation] {
        guard let list else { return ExploredOperations.all }
        var selected: [ExploredOperation] = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let family = item.hasSuffix(".") ? item : item + "."
            let matches = ExploredOperations.all.filter { $0.name == item || $0.name.hasPrefix(family) }
            guard !matches.isEmpty else {
                throw UsageError(
                    "--ops: no operation or family '\(item)'; operations: "
                        + ExploredOperations.all.map(\.name).joined(separator: ", "))
            }
            for match in matches where !selected.contains(where: { $0.name == match.name }) { selected.append(match) }
        }
        guard !selected.isEmpty else { throw UsageError("--ops names no operation") }
        return selected
    }

    static func number(_ arguments: ScannedArguments, _ name: String, default value: Double) throws(UsageError)
        -> Double
    {
        guard let text = arguments.value(name) else { return value }
        guard let n = Double(text), n.isFinite, n > 0, n <= 86_400 else {
            throw UsageError("\(name) needs a number of seconds above 0, not \"\(text)\"")
        }
        return n
    }

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let adapters = arguments.values("--adapter")
        let names = arguments.values("--name")
        let lists = arguments.values("--expect-findings")
        guard !adapters.isEmpty else { throw UsageError("give an --adapter 'COMMAND' to explore") }
        if names.count > adapters.count { throw UsageError("\(names.count) --name for \(adapters.count) --adapter") }
        if lists.count > adapters.count {
            throw UsageError("\(lists.count) --expect-findings for \(adapters.count) --adapter")
        }
        let timeout = try number(arguments, "--timeout", default: 5)
        if let replay = arguments.value("--replay") {
            let given =
                ["--time", "--cases", "--seed", "--ops", "--save", "--json", "--junit"].filter {
                    arguments.value($0) != nil
                }
                + (lists.isEmpty ? [] : ["--expect-findings"])
            if let other = given.first { throw UsageError("--replay runs one case; it takes no \(other)") }
            guard adapters.count == 1 else { throw UsageError("--replay needs exactly one --adapter") }
            return try runReplay(replay, adapter: adapters[0], name: names.first ?? "adapter1", timeout: timeout)
        }
        if arguments.value("--time") != nil && arguments.value("--cases") != nil {
            throw UsageError("--time and --cases exclude each other")
        }
        var limit = ExploreLimit.seconds(try number(arguments, "--time", default: 60))
        if let text = arguments.value("--cases") {
            guard let n = Int(text), n > 0 else {
                throw UsageError("--cases needs a positive whole number, not \"\(text)\"")
            }
            limit = .cases(n)
        }
        var seed = UInt64.random(in: .min ... .max)
        if let text = arguments.value("--seed") {
            guard let s = UInt64(text) else {
                throw UsageError("--seed takes a decimal number from 0 to \(UInt64.max), not \"\(text)\"")
            }
            seed = s
        }
        let operations = try operations(arguments.value("--ops"))
        let expected: [ExpectedFindings]
        do {
            expected = try lists.map(ExpectedFindings.load(path:))
        } catch {
            throw CommandFailure("\(error)")
        }
        let quiet = arguments.flag("--quiet")
        let progress = Progress(enabled: !quiet)
        var runs: [ExploredImplementation] = []
        for (k, command) in adapters.enumerated() {
            let name = k < names.count ? names[k] : "adapter\(k + 1)"
            let adapter = AdapterProcess(name: name, command: command, timeout: timeout)
            adapter.keepsRunning = true
            defer { adapter.close() }
            let explorer = Explorer(adapter, ExploreConfiguration(operations: operations, seed: seed, limit: limit))
            let result = explorer.run { p in
                if let projected = p.projectedSeconds {
                    Console.write(
                        "stc explore: warning: at \(p.seconds > 0 ? Int(Double(p.cases) / p.seconds) : 0) cases/s, "
                            + "--cases will take about \(Int(projected / 60)) min; --time S bounds a run\n", to: 2)
                }
                var costs = ""
                if p.restarts > 0 {
                    costs += "; \(p.restarts) restart(s) (\(String(format: "%.1f", p.restartSeconds)) s)"
                }
                if p.survivedCrashes > 0 { costs += "; \(p.survivedCrashes) crash(es) survived" }
                if p.shrinkSeconds >= 0.1 { costs += "; shrinking \(String(format: "%.1f", p.shrinkSeconds)) s" }
                progress.show(
                    "\(name): \(p.cases) cases (\(p.seconds > 0 ? Int(Double(p.cases) / p.seconds) : 0)/s), "
                        + "\(p.findings) finding(s)\(costs)" + (p.shrinking.map { "; shrinking \($0)" } ?? ""))
            }
            progress.finish()
            runs.append(
                ExploredImplementation(
                    name: name, command: command, result: result, expected: k < expected.count ? expected[k] : nil))
        }
        Console.write(ExploreReport.text(runs, quiet: quiet, replay: replayLine), to: 1)
        do {
            if let path = arguments.value("--json") {
                try ReportFile.writeAtomically(JSONWriter.bytes(ExploreReport.json(runs, replay: replayLine)), to: path)
            }
            if let path = arguments.value("--junit") {
                try ReportFile.writeAtomically(ExploreReport.junit(runs, replay: replayLine), to: path)
            }
        } catch {
            throw CommandFailure("cannot write a report: \(error)")
        }
        if let path = arguments.value("--save") {
            do {
                let added = try ExploredSuite.save(runs.flatMap(\.result.findings), to: path)
                Console.write(
                    "saved \(added) new case(s) to \(path) (stc conformance --vectors \(Shell.quote(path)) replays them)\n",
                    to: 1)
            } catch {
                throw CommandFailure("\(error)")
            }
        }
        if runs.contains(where: { $0.result.failedToStart != nil }) { return 2 }
        return runs.allSatisfy(\.ok) ? 0 : 1
    }

    /// The line that reruns exactly an example's minimal case.
    static func replayLine(_ run: ExploredImplementation, _ example: FindingExample) -> String {
        "stc explore --adapter \(Shell.quote(run.command)) --replay \(ReplayCase(example).text)"
    }

    static func runReplay(_ text: String, adapter command: String, name: String, timeout: Double) throws -> Int32 {
        guard let replay = ReplayCase(text) else {
            throw UsageError("--replay takes OP:HEX, as a finding's replay line prints it, not \"\(text)\"")
        }
        let op = replay.op
        guard let operation = replay.operation else {
            throw UsageError(
                "--replay: no operation '\(op)'; operations: \(ExploredOperations.all.map(\.name).joined(separator: ", "))"
            )
        }
        let adapter = AdapterProcess(name: name, command: command, timeout: timeout)
        defer { adapter.close() }
        let explorer = Explorer(adapter, ExploreConfiguration(operations: [operation], seed: 0, limit: .cases(0)))
        guard let (c, answer, discrepancy) = explorer.replay(operation, choices: replay.choices) else {
            throw CommandFailure("the reference does not answer this case")
        }
        let lines = ExploreReport.replayed(c, answer: answer, discrepancy: discrepancy)
        Console.write(lines.joined(separator: "\n") + "\n", to: 1)
        return discrepancy == nil ? 0 : 1
    }
}
