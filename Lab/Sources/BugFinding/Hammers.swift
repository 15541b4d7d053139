import Conformance
import Exploration
import Foundation
import _Subprocess

/// A way the suite looks for bugs, timed by the benchmark (docs/BUG-FINDING.md#hammers).
public enum Hammer: String, Sendable, CaseIterable, Codable {
    /// The shipped vectors: `stc conformance` of the planted build. Deterministic: found or not, no time.
    case vectors
    /// `stc check FAMILY --seed S --time CAP --no-shrink`: time to the first failed property.
    case check
    /// The family's fuzz target, built and flagged as `stc fuzz run` does: time to the first crash.
    case fuzz
    /// `stc explore` of the family's operations against the planted `stc adapter`, judged by the reference in
    /// this process: time to the first finding.
    case explore
    /// The naive baseline harness (`Lab/Naive`): time to the first crash.
    case naive
}

/// What one timed attempt gave: found after `seconds`, or not within the cap.
struct Attempt: Sendable {
    var found: Bool
    var seconds: Double
    /// Why the attempt says nothing (a build missing, a run that could not start); `nil` for a real attempt.
    var problem: String?
}

/// The hammers, given the planted builds. Each method runs one attempt for one bug (or, with `bug == nil`, the
/// clean control run that must find nothing).
struct Hammers {
    var builds: PlantedBuilds
    var fuzzFlags: @Sendable (String) -> [String]
    var fuzzEnvironment: [String: String]

    static let bugVariable = "STC_PLANTED_BUG"

    func environment(_ bug: String?) -> [String: String] {
        ["SWIFT_BACKTRACE": "enable=no", Self.bugVariable: bug ?? ""]
    }

    /// Whether the shipped vectors fail with `bug` on (with `nil`: whether they all pass).
    func vectors(_ bug: String?) -> Attempt {
        do {
            let outcome = try TimedProcess.run(
                builds.stc, ["conformance", "--quiet"], environment: environment(bug), directory: builds.packageRoot,
                limit: 300)
            if !outcome.signaled && outcome.status == 2 {
                return Attempt(found: false, seconds: outcome.seconds, problem: "stc conformance: \(outcome.tail(5))")
            }
            return Attempt(found: outcome.signaled || outcome.status != 0, seconds: outcome.seconds, problem: nil)
        } catch {
            return Attempt(found: false, seconds: 0, problem: error.description)
        }
    }

    /// `stc check` of the bug's family from `seed` for at most `cap` seconds, no shrinking, into an empty
    /// regression directory (the time is to the first generated failure, not to a saved one).
    func check(_ patterns: [String], bug: String?, seed: UInt64, cap: Double) -> Attempt {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stc-bugs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            let arguments =
                ["check"] + patterns + [
                    "--seed", String(seed), "--time", String(cap), "--no-shrink", "--corpus", scratch.path,
                ]
            let outcome = try TimedProcess.run(
                builds.stc, arguments, environment: environment(bug), directory: builds.packageRoot, limit: cap + 60)
            if !outcome.signaled && outcome.status == 2 {
                return Attempt(found: false, seconds: outcome.seconds, problem: "stc check: \(outcome.tail(5))")
            }
            return Attempt(found: outcome.signaled || outcome.status == 1, seconds: outcome.seconds, problem: nil)
        } catch {
            return Attempt(found: false, seconds: 0, problem: error.description)
        }
    }

    /// One libFuzzer run of `binary` for at most `cap` seconds from `seed`: a crash (the harness traps on a
    /// failed check) is a find. `seeds` are read-only corpus directories; new inputs go to a scratch directory.
    func fuzz(binary: String, flags: [String], seeds: [String], bug: String?, seed: UInt64, cap: Double) -> Attempt {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return Attempt(found: false, seconds: 0, problem: "not built: \(binary)")
        }
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent("stc-bugs-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: scratch) }
        let corpus = scratch.appendingPathComponent("corpus")
        do {
            try fm.createDirectory(at: corpus, withIntermediateDirectories: true)
        } catch {
            return Attempt(found: false, seconds: 0, problem: "cannot make a scratch corpus: \(error)")
        }
        let arguments =
            flags + [
                "-seed=\(seed)", "-max_total_time=\(Int(cap.rounded(.up)))", "-print_final_stats=0",
                "-artifact_prefix=" + scratch.path + "/",
            ] + [corpus.path] + seeds.filter { fm.fileExists(atPath: $0) }
        do {
            let outcome = try TimedProcess.run(
                binary, arguments, environment: fuzzEnvironment.merging(environment(bug)) { _, bug in bug },
                limit: cap + 60)
            // A binary without coverage counters fuzzes blind: its misses would say nothing about the hammer.
            guard outcome.output.contains("INFO: Loaded 1 modules") else {
                return Attempt(
                    found: false, seconds: outcome.seconds,
                    problem: "\(binary) is not instrumented (no \"INFO: Loaded 1 modules\" line)")
            }
            let crashed =
                outcome.output.contains("ERROR: libFuzzer") || outcome.output.contains("ERROR: AddressSanitizer")
                || outcome.output.contains("Test unit written")
            if !crashed && outcome.status != 0 && !outcome.killed {
                return Attempt(
                    found: false, seconds: outcome.seconds,
                    problem: "exit \(outcome.status) without a crash report:\n\(outcome.tail(8))")
            }
            return Attempt(found: crashed, seconds: outcome.seconds, problem: nil)
        } catch {
            return Attempt(found: false, seconds: 0, problem: error.description)
        }
    }

    /// Our fuzz target for the bug's family, with its `stc fuzz run` flags, dictionary, seeds and regressions.
    func ourFuzzer(_ target: String, bug: String?, seed: UInt64, cap: Double) -> Attempt {
        let corpus = builds.packageRoot + "/corpus/" + target
        return fuzz(
            binary: builds.fuzzer(target), flags: fuzzFlags(target), seeds: [corpus, corpus + "/regressions"],
            bug: bug, seed: seed, cap: cap)
    }

    /// The naive harness: libFuzzer's defaults, an empty corpus, no dictionary.
    func naiveFuzzer(_ harness: String, bug: String?, seed: UInt64, cap: Double) -> Attempt {
        fuzz(binary: builds.naive(harness), flags: [], seeds: [], bug: bug, seed: seed, cap: cap)
    }

    /// The explorer over `families` (operation names or their families) from `seed`, against the planted
    /// `stc adapter` with `bug` on, until the first finding or `cap` seconds. The time holds the adapter's start.
    func explore(_ families: [String], bug: String?, seed: UInt64, cap: Double) -> Attempt {
        let operations = ExploredOperations.all.filter { op in
            families.contains { op.name == $0 || op.name.hasPrefix($0 + ".") }
        }
        guard !operations.isEmpty else {
            return Attempt(found: false, seconds: 0, problem: "no explored operation in \(families)")
        }
        let command =
            "exec env SWIFT_BACKTRACE=enable=no \(Self.bugVariable)=\(Command.shellQuoted(bug ?? "")) "
            + "\(Command.shellQuoted(builds.stc)) adapter"
        let adapter = AdapterProcess(name: "planted", command: command, timeout: 10)
        adapter.keepsRunning = true
        defer { adapter.close() }
        let started = DispatchTime.now()
        let result = Explorer(
            adapter,
            ExploreConfiguration(
                operations: operations, seed: seed, limit: .seconds(cap), shrinkBudget: 0, stopsAtFirstFinding: true)
        ).run()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        if let problem = result.failedToStart {
            return Attempt(found: false, seconds: seconds, problem: "the planted adapter did not start: \(problem)")
        }
        return Attempt(found: !result.findings.isEmpty, seconds: seconds, problem: nil)
    }
}
