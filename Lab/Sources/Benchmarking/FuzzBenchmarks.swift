import Foundation
import _Subprocess

/// How the fuzz section runs each libFuzzer binary, so that its exec/s are those of a real fuzzing run: `stc`
/// passes the flags and environment of `stc fuzz run` (per-target `-max_len`, dictionary, ASan options). The
/// default is libFuzzer's own defaults with the Swift backtracer off.
public struct FuzzRunSettings: Sendable {
    /// Extra libFuzzer flags for a target, given its name and the package root.
    public var flags: @Sendable (_ target: String, _ packageRoot: String) -> [String]
    /// Variables set on top of this process's environment (`SWIFT_BACKTRACE=enable=no` is always set).
    public var environment: [String: String]

    public init(
        flags: @escaping @Sendable (_ target: String, _ packageRoot: String) -> [String] = { _, _ in [] },
        environment: [String: String] = [:]
    ) {
        self.flags = flags
        self.environment = environment
    }
}

extension BenchSuite {
    /// Runs each built fuzzer in `Fuzz/.build/release/` a few times for a few seconds and reads libFuzzer's final
    /// stats: the figure is min/median/max of the measured runs, like every other figure.
    func fuzzSection(into report: inout BenchReport) {
        let section = "fuzz exec/s (libFuzzer, \(Self.measuredFuzzRuns) runs per target)"
        guard let root = packageRoot else {
            report.skips.append(Skip(section: section, reason: "package root not found"))
            return
        }
        let sources = root + "/Fuzz/Sources"
        let binaries = root + "/Fuzz/.build/release"
        let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).sorted()
            .filter { selected("fuzz." + $0) }
        let built = targets.filter { FileManager.default.isExecutableFile(atPath: binaries + "/" + $0) }
        if built.isEmpty {
            if !targets.isEmpty {
                report.skips.append(
                    Skip(section: section, reason: "build the fuzzers first (stc fuzz run … or scripts/ci-fuzz.sh)"))
            }
            return
        }
        // The first seconds from the seeds are mostly start-up and new coverage being written out, so a run
        // first warms a scratch corpus up, and the measured runs go on from that corpus.
        let seconds = plan.repetitions <= 3 ? 1 : 5
        for target in built {
            let flags = fuzzSettings.flags(target, root)
            switch runFuzzer(binaries + "/" + target, seeds: root + "/corpus/" + target, seconds: seconds, flags: flags)
            {
            case .success(let runs):
                let maxLen = flags.last { $0.hasPrefix("-max_len=") }.map { ", " + $0.dropFirst() } ?? ""
                report.figures.append(
                    Figure(
                        id: "fuzz.\(target)", section: section,
                        label: "\(target) (\(runs.count) × \(seconds) s after \(seconds) s\(maxLen))",
                        unit: "exec/s", itemsPerSecond: Stats(runs), bytesPerItem: nil, repetitions: runs.count))
            case .failure(let problem):
                report.skips.append(Skip(section: section, reason: "\(target): \(problem.message)"))
            }
        }
        if built.count < targets.count {
            let missing = targets.filter { !built.contains($0) }
            report.skips.append(Skip(section: section, reason: "not built: \(missing.joined(separator: ", "))"))
        }
    }

    struct FuzzProblem: Error { var message: String }

    /// Measured runs per fuzz target, after the warm-up run. A single short run moves too much from one minute
    /// to the next on a shared machine for one figure alone to say whether a target is met
    /// (docs/PERFORMANCE.md#decisions).
    static let measuredFuzzRuns = 3

    /// Runs one fuzzer on a scratch copy of its seeds (libFuzzer writes into its corpus directory): a warm-up run,
    /// then ``measuredFuzzRuns`` runs on the corpus it grew, and gives the exec/s of each measured run.
    func runFuzzer(_ binary: String, seeds: String, seconds: Int, flags: [String]) -> Result<[Double], FuzzProblem> {
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent(
            "stc-bench-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: scratch) }
        let corpus = scratch.appendingPathComponent("corpus")
        do {
            try fm.createDirectory(at: corpus, withIntermediateDirectories: true)
            for name in (try? fm.contentsOfDirectory(atPath: seeds)) ?? [] {
                try? fm.copyItem(atPath: seeds + "/" + name, toPath: corpus.appendingPathComponent(name).path)
            }
        } catch {
            return .failure(FuzzProblem(message: "cannot make a scratch corpus: \(error)"))
        }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(fuzzSettings.environment) { _, given in given }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        var runs: [Double] = []
        for run in 0...Self.measuredFuzzRuns {
            let arguments =
                ["-max_total_time=\(seconds)", "-print_final_stats=1", "-artifact_prefix=" + scratch.path + "/"] + flags
                + [corpus.path]
            let result: Subprocess.Result
            do {
                result = try Subprocess.run(
                    Command(binary, arguments, environment: environment), stdout: .discard, stderr: .capture)
            } catch {
                return .failure(FuzzProblem(message: "cannot start: \(error)"))
            }
            guard let execs = Self.averageExecsPerSecond(inFuzzerOutput: result.stderrText) else {
                return .failure(
                    FuzzProblem(message: "no stat::average_exec_per_sec in its output (\(result.termination))"))
            }
            if run > 0 { runs.append(execs) }  // run 0 is the warm-up
        }
        return .success(runs)
    }

    /// The value of libFuzzer's `stat::average_exec_per_sec:` line.
    static func averageExecsPerSecond(inFuzzerOutput text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("stat::average_exec_per_sec:") {
            let value = line.dropFirst("stat::average_exec_per_sec:".count).trimmingCharacters(in: .whitespaces)
            if let n = Double(value) { return n }
        }
        return nil
    }
}
