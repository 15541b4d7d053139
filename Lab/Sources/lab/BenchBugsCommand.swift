import Benchmarking
import BugFinding
import Foundation
import MutationTesting
import _CommandSupport
import _FuzzCorpus
import _Subprocess

/// `lab bench --filter bugs`: the bug-finding benchmark (docs/BUG-FINDING.md). Never part of a plain `lab bench`:
/// a full run takes hours.
enum BenchBugsCommand {
    /// Whether the filters ask for the bug-finding benchmark.
    static func selected(_ filters: [String]) -> Bool {
        filters.contains { $0.lowercased().hasPrefix("bugs") }
    }

    /// The bugs a quick run plants: a semantic bug every hammer but the naive harness finds, and a trap the naive
    /// harness finds too, so that each hammer and the baseline are seen both finding and not finding.
    static let quickBugs = ["url.plus-for-space", "template.format-specifier-trap"]

    /// The planted bugs the filters select: `bugs` all of them, `bugs.shield` a family, `bugs.url.lowercase-hex`
    /// one.
    static func bugs(_ filters: [String], quick: Bool) -> [PlantedBugEntry] {
        let catalog = quick ? PlantedBugCatalog.all.filter { quickBugs.contains($0.name) } : PlantedBugCatalog.all
        let patterns = filters.map { $0.lowercased() }.filter { $0.hasPrefix("bugs") }
        if patterns.contains("bugs") { return catalog }
        return catalog.filter { bug in patterns.contains { ("bugs." + bug.name).hasPrefix($0) } }
    }

    static func main(filters: [String], json: Bool, quick: Bool) throws -> Int32 {
        guard let root = BenchSuite.locatePackageRoot(executable: BenchSuite.runningExecutable()) else {
            throw CommandFailure(
                "cannot find the package root (Package.swift); run lab from the repository (swift run --package-path Lab lab …)"
            )
        }
        let bugs = bugs(filters, quick: quick)
        if bugs.isEmpty {
            throw UsageError(
                "no planted bug matches \(filters.joined(separator: ", ")); the names: "
                    + PlantedBugCatalog.all.map(\.name).joined(separator: ", "))
        }
        let builds = PlantedBuilds(packageRoot: root, configuration: quick ? "debug" : "release")
        let settings = BugHunt.Settings(
            builds: builds, bugs: bugs, seeds: quick ? [1] : [1, 2, 3, 4, 5], checkCap: quick ? 10 : 30,
            fuzzCap: quick ? 30 : 60, exploreCap: quick ? 10 : 30, controlSeconds: quick ? 3 : 10,
            fuzzFlags: { target in
                FuzzTargets.named(target).map {
                    FuzzDefaults.flags(maxLen: $0.maxLength, dictionary: "\(root)/corpus/\(target).dict")
                } ?? []
            },
            fuzzEnvironment: [
                "ASAN_OPTIONS": FuzzDefaults.throughputASanOptions(ProcessInfo.processInfo.environment["ASAN_OPTIONS"])
            ],
            quick: quick)
        var report: BugFindingReport
        do {
            report = try BugHunt(settings).run { line in Console.error(line) }
        } catch {
            throw CommandFailure("the bug-finding benchmark could not run: \(error.description)")
        }
        report.commit = commit(root)
        var mutationPassed = true
        if filters.contains(where: { $0.lowercased() == "bugs" }) {
            let run = try mutationScore(root: root, quick: quick)
            report.mutation = run.mutation
            mutationPassed = run.passed
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Console.out(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Console.out(report.text)
        }
        if !report.machineryWorks {
            Console.error("lab bench: a control run found a failure with no bug planted, or an attempt could not run")
            return 1
        }
        if quick, let missed = report.bugs.first(where: { $0.hammersFinding.count < 2 || !$0.vectors }) {
            Console.error("lab bench: the quick run's \(missed.name) was not found by the vectors and another hammer")
            return 1
        }
        if quick && !mutationPassed {
            Console.error("lab bench: the quick mutation run did not pass (see its failures in the report)")
            return 1
        }
        return 0
    }

    /// The mutants a full run judges: `lab mutate --sample` of this many (docs/MUTATION-TESTING.md), since all of
    /// them take hours on a 2-core machine.
    static let mutationSample = 250

    /// The mutation half of the report, as `lab mutate --quick` or `lab mutate --sample 250` measures it.
    static func mutationScore(root: String, quick: Bool) throws -> MutationRunReport {
        var options = MutationOptions(packageRoot: root)
        options.quick = quick
        options.sample = quick ? nil : mutationSample
        Console.error("the mutation score: lab mutate \(quick ? "--quick" : "--sample \(mutationSample)") --jobs 2")
        do {
            return try MutationRun(options).run { line in Console.error("  " + line.description) }
        } catch {
            throw CommandFailure("the mutation score could not be measured: \(error)")
        }
    }

    /// The package's commit, for the report (`nil` outside a git checkout).
    static func commit(_ root: String) -> String? {
        let git = Command("git", ["-C", root, "rev-parse", "--short", "HEAD"])
        guard let result = try? Subprocess.run(git, stderr: .discard, timeLimit: 30), result.succeeded else {
            return nil
        }
        let commit = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }
}
