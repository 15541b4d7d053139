import Foundation

/// The bug-finding benchmark: builds the planted reference three ways, then for each planted bug asks every
/// hammer to find it from the same seeds under a cap, and the naive baseline beside our fuzz target
/// (docs/BUG-FINDING.md).
///
/// Rule: a hammer's figure for a bug is the median over the seeds of the seconds to the first find, a miss
/// counting as slower than any find; it is `nil` (not found) when half the seeds or more miss. Seeds run in order
/// and a hammer stops early once that many have missed. Before the bugs, every hammer runs once on the clean
/// planted build (no bug on) and must find nothing: a find there means the machinery, not the bug, is measured.
///
/// ```swift
/// let hunt = BugHunt(settings)
/// let report = try hunt.run { line in print(line) }
/// report.bugs.filter { $0.hammersFinding < 2 }   // what the suite misses
/// ```
public struct BugHunt {
    /// What to run and how long each attempt may take.
    public struct Settings: Sendable {
        public var builds: PlantedBuilds
        public var bugs: [PlantedBugEntry]
        public var seeds: [UInt64]
        public var checkCap: Double
        public var fuzzCap: Double
        public var exploreCap: Double
        /// Seconds of each clean control run (check, fuzz, explore).
        public var controlSeconds: Double
        /// `-max_len`, `-dict` and `-timeout` of `stc fuzz run` for a target.
        public var fuzzFlags: @Sendable (String) -> [String]
        /// The environment `stc fuzz run` gives a fuzzer (its ASan options).
        public var fuzzEnvironment: [String: String]
        public var quick: Bool

        public init(
            builds: PlantedBuilds, bugs: [PlantedBugEntry] = PlantedBugCatalog.all, seeds: [UInt64] = [1, 2, 3, 4, 5],
            checkCap: Double = 30, fuzzCap: Double = 120, exploreCap: Double = 60, controlSeconds: Double = 10,
            fuzzFlags: @escaping @Sendable (String) -> [String], fuzzEnvironment: [String: String], quick: Bool
        ) {
            self.builds = builds
            self.bugs = bugs
            self.seeds = seeds
            self.checkCap = checkCap
            self.fuzzCap = fuzzCap
            self.exploreCap = exploreCap
            self.controlSeconds = controlSeconds
            self.fuzzFlags = fuzzFlags
            self.fuzzEnvironment = fuzzEnvironment
            self.quick = quick
        }
    }

    /// The run cannot measure: a build failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public var settings: Settings

    public init(_ settings: Settings) { self.settings = settings }

    var hammers: Hammers {
        Hammers(builds: settings.builds, fuzzFlags: settings.fuzzFlags, fuzzEnvironment: settings.fuzzEnvironment)
    }

    /// Builds, runs the controls, then every bug; `log` hears each build command and a line per attempt.
    public func run(log: (String) -> Void) throws(Failure) -> BugFindingReport {
        let started = Date()
        let targets = Array(Set(settings.bugs.compactMap(\.fuzzTarget))).sorted()
        let harnesses = Array(Set(settings.bugs.map(\.naive))).sorted()
        do throws(PlantedBuilds.BuildFailure) {
            log(
                "building the planted reference: stc, fuzz targets \(targets.joined(separator: ", ")), "
                    + "naive harnesses \(harnesses.joined(separator: ", "))")
            try settings.builds.plant(log: log)
            try settings.builds.buildStc(log: log)
            try settings.builds.buildFuzzers(targets, log: log)
            try settings.builds.buildNaive(log: log)
        } catch {
            throw Failure(description: error.description)
        }
        var report = BugFindingReport(
            date: ISO8601DateFormatter().string(from: started), quick: settings.quick, seeds: settings.seeds,
            caps: .init(
                check: settings.checkCap, fuzz: settings.fuzzCap, explore: settings.exploreCap,
                naive: settings.fuzzCap))
        report.controls = controls(targets: targets, harnesses: harnesses, log: log)
        for (index, bug) in settings.bugs.enumerated() {
            log("[\(index + 1)/\(settings.bugs.count)] \(bug.name)")
            report.bugs.append(measure(bug, log: log))
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Every hammer once with no bug on: each must find nothing.
    func controls(targets: [String], harnesses: [String], log: (String) -> Void) -> [BugFindingReport.Control] {
        let h = hammers
        let seconds = settings.controlSeconds
        var controls: [BugFindingReport.Control] = []
        func record(_ hammer: Hammer, _ subject: String, _ attempt: Attempt) {
            let passed = attempt.problem == nil && !attempt.found
            let detail = attempt.problem ?? (attempt.found ? "found a failure with no bug planted" : nil)
            controls.append(.init(hammer: hammer, subject: subject, passed: passed, detail: detail))
            log("  control \(hammer.rawValue) \(subject): \(passed ? "clean" : "FAILED: \(detail ?? "")")")
        }
        record(.vectors, "corpus/conformance", h.vectors(nil))
        let families = Array(Set(settings.bugs.flatMap(\.checks))).sorted()
        // No patterns would mean every property, no operations every operation: a hammer no selected bug has is
        // not controlled.
        if !families.isEmpty {
            record(.check, families.joined(separator: " "), h.check(families, bug: nil, seed: 1, cap: seconds))
        }
        let explored = Array(Set(settings.bugs.flatMap(\.explore))).sorted()
        if !explored.isEmpty {
            record(.explore, explored.joined(separator: ","), h.explore(explored, bug: nil, seed: 1, cap: seconds))
        }
        for target in targets { record(.fuzz, target, h.ourFuzzer(target, bug: nil, seed: 1, cap: seconds)) }
        for harness in harnesses { record(.naive, harness, h.naiveFuzzer(harness, bug: nil, seed: 1, cap: seconds)) }
        return controls
    }

    /// Every hammer on one bug.
    func measure(_ bug: PlantedBugEntry, log: (String) -> Void) -> BugFindingReport.Bug {
        let h = hammers
        let vectors = h.vectors(bug.name)
        log("  vectors: \(vectors.problem ?? (vectors.found ? "fail (found)" : "pass (missed)"))")
        var result = BugFindingReport.Bug(entry: bug, vectors: vectors.found)
        if let problem = vectors.problem { result.problems.append("vectors: \(problem)") }
        // A hammer the catalog gives nothing to run (no property, target or operation reaches the bug) is not run:
        // it does not find the bug, and its runs are empty.
        typealias Plan = (UInt64) -> Attempt
        let check: Plan? =
            bug.checks.isEmpty
            ? nil : { seed in h.check(bug.checks, bug: bug.name, seed: seed, cap: settings.checkCap) }
        let fuzz: Plan? = bug.fuzzTarget.map { target -> Plan in
            { seed in h.ourFuzzer(target, bug: bug.name, seed: seed, cap: settings.fuzzCap) }
        }
        let explore: Plan? =
            bug.explore.isEmpty
            ? nil : { seed in h.explore(bug.explore, bug: bug.name, seed: seed, cap: settings.exploreCap) }
        let naive: Plan = { seed in h.naiveFuzzer(bug.naive, bug: bug.name, seed: seed, cap: settings.fuzzCap) }
        let plans: [(Hammer, Plan?)] = [(.check, check), (.fuzz, fuzz), (.explore, explore), (.naive, naive)]
        for (hammer, plan) in plans {
            guard let attempt = plan else {
                result.runs[hammer.rawValue] = []
                log("  \(hammer.rawValue): nothing in its family reaches the bug, not run")
                continue
            }
            var runs: [Double?] = []
            var misses = 0
            for seed in settings.seeds {
                if 2 * misses >= settings.seeds.count { break }
                let a = attempt(seed)
                if let problem = a.problem {
                    result.problems.append("\(hammer.rawValue) seed \(seed): \(problem)")
                    log("  \(hammer.rawValue) seed \(seed): \(problem)")
                    break
                }
                runs.append(a.found ? a.seconds : nil)
                if !a.found { misses += 1 }
                log(
                    "  \(hammer.rawValue) seed \(seed): "
                        + (a.found ? String(format: "found in %.2f s", a.seconds) : "not found within the cap"))
            }
            result.runs[hammer.rawValue] = runs
            result.setMedian(hammer, Self.median(runs, seeds: settings.seeds.count))
        }
        return result
    }

    /// The median over `seeds` attempts of which `runs` were made (a missing attempt is a miss; a miss sorts after
    /// every find); `nil` when the median is a miss.
    static func median(_ runs: [Double?], seeds: Int) -> Double? {
        guard seeds > 0 else { return nil }
        let found = runs.compactMap { $0 }.sorted()
        let middle = (seeds - 1) / 2
        return middle < found.count ? found[middle] : nil
    }
}
