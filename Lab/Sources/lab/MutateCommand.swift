import Benchmarking
import Conformance
import Foundation
import MutationTesting
import _CommandSupport

/// `lab mutate`: the mutation score of the test suite over the reference (see `--help`, docs/MUTATION-TESTING.md).
enum MutateCommand {
    static let help = HelpPage(
        "lab mutate",
        usage: [
            """
            [--json] [--output FILE] [--quick | --sample N] [--jobs N] [--filter PATH]... [--list] [--package DIR] \
            [--equivalents FILE] [--threshold PERCENT]
            """
        ],
        description: """
            Measures how many small changes to the reference (Sources/StrictJSON, ScreenTimeSelection,
            ScreenTimeEncoding, ScreenTimeReference) the shipped vectors and the fast test suites notice. A mutant
            flips a relational or Boolean operator, negates a condition, removes a guard or an early return, moves
            an integer constant up by one, or empties an if body.

            Every mutant goes into one debug build of a copy of the package under .build/mutation (a mutant schema:
            the working tree is never written), switched on at run time by STC_MUTANT; mutants the compiler rejects
            are unviable and left out. A clean run learns which vectors and suites reach which mutant. Each reached
            mutant then runs against the vectors (stc conformance), then against the fast suites that reach it,
            each with a time limit of 3x its clean time + 5 s: caught, missed, timeout or unviable. Unreached
            mutants are not covered, outside the score:
              score = (caught + timeout) / (caught + missed + timeout - survivors argued equivalent)

            A survivor (missed mutant) is handled when a new test or vector kills it, or when its id is listed, with
            the argument for its equivalence, in Lab/Mutation/equivalent.txt. An entry naming no mutant of the
            reference now is an error, and so is a listed mutant that a run catches.

            The first run builds the copy (minutes); later runs rebuild only what changed. Progress goes to
            standard error. Details of the last run (verdict and killer per mutant) are in
            .build/mutation/results.tsv.
            """,
        options: [
            .init(
                "--json",
                """
                print the report as one JSON object, keys sorted: {"mutation": {mutants, caught, missed, unviable,
                timeout, score, survivors}, …} (with --list: {"mutants": […]})
                """),
            .init("--output FILE", "write the JSON to FILE (atomically) instead of standard output; needs --json"),
            .init(
                "--quick",
                """
                a fixed sample (4 reached mutants per module and a canary the vectors must catch): checks that the
                machinery works, for CI; the threshold does not apply
                """),
            .init(
                "--sample N",
                """
                judge N of the covered mutants, those whose stable ids hash lowest: the same sample in every run
                while the code is; the threshold applies
                """),
            .init("--jobs N", "mutants judged at once, 1 to 64 (default 2)"),
            .init(
                "--filter PATH",
                """
                only mutants of a module (StrictJSON), of files whose path starts with PATH
                (Sources/StrictJSON/JSONWriter.swift), or with an id starting with PATH; may be repeated; the
                threshold does not apply
                """),
            .init("--list", "print the mutants (file:line, operator, change, stable id); nothing is built"),
            .init("--package DIR", "the package (default: the lab's parent, found from here or from the lab binary)"),
            .init("--equivalents FILE", "the list of equivalent mutants (default: Lab/Mutation/equivalent.txt)"),
            .init("--threshold PERCENT", "the score a full run must reach, 0 to 100 (default 90)"),
        ],
        exitCodes: [
            .init(
                "0",
                """
                the run passed (full: the score reaches the threshold, every survivor is handled; --quick: the
                machinery works)
                """),
            .init(
                "1",
                """
                it did not (full: score below the threshold, an unhandled survivor or a caught equivalent;
                --quick: the canary survived, or the schema build or the clean run failed)
                """),
            .init("2", "usage or I/O error (a bad equivalent list, a filter that selects nothing)"),
            .init("3", "the schema build or the clean run failed in a full run (nothing could be judged)"),
        ])

    static let command = Command(
        "mutate", summary: "mutation score of the tests and vectors over the reference",
        syntax: CommandSyntax(options: [
            .flag("--json"), .value("--output", "FILE"), .flag("--quick"), .value("--sample", "N"),
            .value("--jobs", "N"),
            .value("--filter", "PATH", repeats: true), .flag("--list"), .value("--package", "DIR"),
            .value("--equivalents", "FILE"), .value("--threshold", "PERCENT"),
        ]),
        help: help, run: main)

    /// The exit status when the schema build or the clean run of a full run fails.
    static let cleanFailureStatus: Int32 = 3

    static func options(_ arguments: ScannedArguments) throws(UsageError) -> MutationOptions {
        let root =
            arguments.value("--package") ?? BenchSuite.locatePackageRoot(executable: BenchSuite.runningExecutable())
            ?? FileManager.default.currentDirectoryPath
        guard FileManager.default.fileExists(atPath: root + "/Package.swift") else {
            throw UsageError("no Package.swift in \(root) (give the package with --package DIR)")
        }
        var options = MutationOptions(packageRoot: URL(fileURLWithPath: root).standardizedFileURL.path)
        options.quick = arguments.flag("--quick")
        options.filters = arguments.values("--filter")
        if let empty = options.filters.first(where: \.isEmpty) {
            throw UsageError("--filter needs a module or a path prefix, not '\(empty)'")
        }
        if let text = arguments.value("--jobs") {
            guard let jobs = Int(text), (1...64).contains(jobs) else {
                throw UsageError("--jobs needs a whole number from 1 to 64, not '\(text)'")
            }
            options.jobs = jobs
        }
        if let text = arguments.value("--threshold") {
            guard let percent = Double(text), (0...100).contains(percent) else {
                throw UsageError("--threshold needs a percentage from 0 to 100, not '\(text)'")
            }
            options.threshold = percent / 100
        }
        if let text = arguments.value("--sample") {
            guard let size = Int(text), size > 0 else {
                throw UsageError("--sample needs a positive number of mutants, not '\(text)'")
            }
            guard !options.quick else {
                throw UsageError("--quick is a fixed sample of its own: give --sample or --quick")
            }
            options.sample = size
        }
        options.equivalentsFile = arguments.value("--equivalents")
        if arguments.value("--output") != nil && !arguments.flag("--json") {
            throw UsageError("--output writes the JSON report: give --json too")
        }
        if arguments.flag("--list") && (options.quick || options.sample != nil) {
            throw UsageError("--list prints the mutants and runs nothing: it takes no --quick or --sample")
        }
        return options
    }

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let options = try options(arguments)
        let run = MutationRun(options)
        let json = arguments.flag("--json")
        let output = arguments.value("--output")
        do {
            if arguments.flag("--list") {
                let mutants = try run.selectedMutants()
                let equivalents = try run.equivalents()
                if json {
                    try emit(try encode(["mutants": mutants]), to: output, what: "\(mutants.count) mutants")
                } else {
                    Console.out(list(mutants, equivalents: equivalents))
                }
                return 0
            }
            let progress = Locked(Progress(enabled: true))
            let report = try run.run { line in
                progress.use { $0.show(line.description, final: line.final) }
            }
            progress.use { $0.finish() }
            if json {
                let text = String(decoding: try report.encoded(pretty: true), as: UTF8.self)
                try emit(text, to: output, what: "the report")
                if output != nil { Console.error(self.text(report)) }
            } else {
                Console.out(text(report))
            }
            return report.passed ? 0 : 1
        } catch let error as MutationError {
            switch error {
            case .buildFailed, .cleanRunFailed:
                Console.error("lab mutate: \(error)")
                return options.quick ? 1 : cleanFailureStatus
            default:
                throw CommandFailure(error.description)
            }
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func emit(_ text: String, to path: String?, what: String) throws {
        guard let path else {
            Console.out(text)
            return
        }
        do {
            try ReportFile.writeAtomically(text + "\n", to: path)
        } catch {
            throw CommandFailure("cannot write \(path): \(error.message)")
        }
        Console.error("wrote \(what) to \(path)")
    }

    /// One line per mutant, then the counts per operator.
    static func list(_ mutants: [Mutant], equivalents: EquivalentMutants) -> String {
        var lines = mutants.map { mutant in
            mutant.summary + (equivalents.contains(mutant.id) ? "  (listed equivalent)" : "")
        }
        var counts: [MutationOperator: Int] = [:]
        for mutant in mutants { counts[mutant.mutationOperator, default: 0] += 1 }
        let perOperator = counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
        lines.append("\(mutants.count) mutants: " + perOperator.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// The report for people: a table per module and operator, the survivors, the verdict.
    static func text(_ run: MutationRunReport) -> String {
        let report = run.mutation
        func row(_ c: MutationCounts) -> String {
            let score = c.score.map(MutationReport.percent) ?? "-"
            let cells = [c.mutants, c.caught, c.missed, c.timeout, c.unviable, c.notCovered].map {
                String($0).padded(left: 10)
            }
            return "  " + c.name.padding(toLength: 22, withPad: " ", startingAt: 0) + cells.joined()
                + score.padded(left: 9)
        }
        let header =
            "  " + "".padding(toLength: 22, withPad: " ", startingAt: 0)
            + ["mutants", "caught", "missed", "timeout", "unviable", "uncovered"].map { $0.padded(left: 10) }.joined()
            + "score".padded(left: 9)
        var scope = run.quick ? " --quick (a fixed sample)" : run.sample.map { " --sample \($0)" } ?? ""
        if !run.filters.isEmpty { scope += " (filtered)" }
        var lines = [
            "lab mutate\(scope): \(report.mutants) covered viable mutants, score \(MutationReport.percent(report.score)) "
                + "(\(MutationReport.percent(run.scoreCountingEquivalent)) counting the equivalent ones as missed)",
            "", header,
        ]
        lines += run.modules.map(row)
        lines.append("")
        lines += run.operators.map(row)
        lines.append("")
        if !report.survivors.isEmpty {
            lines.append("Survivors (\(report.survivors.count)):")
            for s in report.survivors {
                let mark = s.equivalent == nil ? "UNHANDLED " : "equivalent"
                lines.append("  \(mark) \(s.file):\(s.line) \(s.mutationOperator.rawValue) \(s.description)  \(s.id)")
            }
            lines.append("")
        }
        if !run.caughtEquivalents.isEmpty {
            lines.append("Listed as equivalent but caught (the argument is wrong; remove the entry):")
            lines += run.caughtEquivalents.map { "  \($0)" }
            lines.append("")
        }
        if let canary = run.canary { lines.append("Canary: \(canary)") }
        lines.append(
            String(
                format: "Time: %.0f s (schema build %.0f s, clean run %.0f s).", run.seconds, run.buildSeconds,
                run.cleanRunSeconds))
        let verdict =
            run.quick
            ? "the machinery works"
            : run.filters.isEmpty
                ? "the score reaches \(MutationReport.percent(run.threshold)) and every survivor is handled"
                : "every survivor of the filtered mutants is handled"
        lines.append(run.passed ? "OK: \(verdict)." : "FAILED: " + run.failures.joined(separator: "; ") + ".")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// Right-aligned in `width` columns (with one space before when it is wider).
    fileprivate func padded(left width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}

/// A value used from several threads, one at a time.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func use<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
