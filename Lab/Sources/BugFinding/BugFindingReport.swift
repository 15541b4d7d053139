import Foundation
import MutationTesting

/// What the bug-finding benchmark measured: per planted bug, whether the vectors fail and each hammer's median
/// seconds to the first find (`nil`: not found within the cap), the naive baseline beside them, and the clean
/// controls. Encoded as `lab bench --filter bugs --json` prints it (keys sorted; schema 1).
public struct BugFindingReport: Codable, Sendable {
    public struct Caps: Codable, Sendable {
        public var check: Double
        public var fuzz: Double
        public var explore: Double
        public var naive: Double
    }

    /// A hammer run with no bug on, which must find nothing.
    public struct Control: Codable, Sendable {
        public var hammer: Hammer
        public var subject: String
        public var passed: Bool
        public var detail: String?
    }

    /// One planted bug's figures.
    public struct Bug: Codable, Sendable {
        public var name: String
        public var family: String
        public var fieldBug: String?
        public var summary: String
        /// Whether the shipped vectors fail with the bug on.
        public var vectors: Bool
        /// Median seconds to the first failure of `stc check` over its family (`nil`: not found).
        public var check: Double?
        /// Median seconds to the first crash of the family's fuzz target.
        public var fuzz: Double?
        /// Median seconds to the explorer's first finding.
        public var explore: Double?
        /// The naive baseline's median seconds to its first crash.
        public var naive: Double?
        /// The family's fuzz target, `nil` when none reaches the bug.
        public var fuzzTarget: String?
        public var naiveHarness: String
        /// Per hammer, each seed's seconds in seed order (`nil`: not found); seeds after an early stop are absent.
        public var runs: [String: [Double?]] = [:]
        /// Attempts that measured nothing (a binary missing, a run that could not start).
        public var problems: [String] = []

        init(entry: PlantedBugEntry, vectors: Bool) {
            name = entry.name
            family = entry.family
            fieldBug = entry.fieldBug
            summary = entry.summary
            self.vectors = vectors
            fuzzTarget = entry.fuzzTarget
            naiveHarness = entry.naive
        }

        mutating func setMedian(_ hammer: Hammer, _ seconds: Double?) {
            switch hammer {
            case .vectors: break
            case .check: check = seconds
            case .fuzz: fuzz = seconds
            case .explore: explore = seconds
            case .naive: naive = seconds
            }
        }

        /// Our hammers that find it (the naive baseline is not one of them).
        public var hammersFinding: [Hammer] {
            var found: [Hammer] = vectors ? [.vectors] : []
            if check != nil { found.append(.check) }
            if fuzz != nil { found.append(.fuzz) }
            if explore != nil { found.append(.explore) }
            return found
        }

        /// The naive baseline's time over each of our timed hammers' times, where both find the bug.
        public var naiveRatios: [String: Double] {
            guard let naive else { return [:] }
            var ratios: [String: Double] = [:]
            for (hammer, ours) in [(Hammer.check, check), (.fuzz, fuzz), (.explore, explore)] {
                if let ours, ours > 0 { ratios[hammer.rawValue] = naive / ours }
            }
            return ratios
        }

        /// The naive baseline's time over our fastest hammer's, where both find the bug.
        public var naiveRatio: Double? { naiveRatios.values.max() }

        enum CodingKeys: String, CodingKey {
            case name, family, fieldBug, summary, vectors, check, fuzz, explore, naive, fuzzTarget, naiveHarness
            case runs, problems, hammersFinding, naiveRatio, naiveRatios
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(family, forKey: .family)
            try c.encode(fieldBug, forKey: .fieldBug)
            try c.encode(summary, forKey: .summary)
            try c.encode(vectors, forKey: .vectors)
            try c.encode(check, forKey: .check)
            try c.encode(fuzz, forKey: .fuzz)
            try c.encode(explore, forKey: .explore)
            try c.encode(naive, forKey: .naive)
            try c.encode(fuzzTarget, forKey: .fuzzTarget)
            try c.encode(naiveHarness, forKey: .naiveHarness)
            try c.encode(runs, forKey: .runs)
            try c.encode(problems, forKey: .problems)
            try c.encode(hammersFinding, forKey: .hammersFinding)
            try c.encode(naiveRatio, forKey: .naiveRatio)
            try c.encode(naiveRatios, forKey: .naiveRatios)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            family = try c.decode(String.self, forKey: .family)
            fieldBug = try c.decodeIfPresent(String.self, forKey: .fieldBug)
            summary = try c.decode(String.self, forKey: .summary)
            vectors = try c.decode(Bool.self, forKey: .vectors)
            check = try c.decodeIfPresent(Double.self, forKey: .check)
            fuzz = try c.decodeIfPresent(Double.self, forKey: .fuzz)
            explore = try c.decodeIfPresent(Double.self, forKey: .explore)
            naive = try c.decodeIfPresent(Double.self, forKey: .naive)
            fuzzTarget = try c.decodeIfPresent(String.self, forKey: .fuzzTarget)
            naiveHarness = try c.decode(String.self, forKey: .naiveHarness)
            runs = try c.decode([String: [Double?]].self, forKey: .runs)
            problems = try c.decode([String].self, forKey: .problems)
        }
    }

    /// The naive baseline per harness: which bugs it found and its median seconds for each.
    public struct Baseline: Codable, Sendable {
        public var harness: String
        public var bugs: [String: Double?]
    }

    /// One of the issue's targets, judged on this report.
    public struct Verdict: Codable, Sendable {
        public var target: String
        public var met: Bool
        public var detail: String
    }

    public var schema = 1
    public var date: String
    public var commit: String?
    public var quick: Bool
    public var seeds: [UInt64]
    public var caps: Caps
    public var seconds: Double = 0
    public var controls: [Control] = []
    public var bugs: [Bug] = []
    /// The mutation score of the suite over the reference (`lab mutate`), when this run measured it: the run over
    /// every bug does, a filtered one does not.
    public var mutation: MutationReport?

    public init(date: String, quick: Bool, seeds: [UInt64], caps: Caps) {
        self.date = date
        self.quick = quick
        self.seeds = seeds
        self.caps = caps
    }

    public var baselines: [Baseline] {
        Dictionary(grouping: bugs, by: \.naiveHarness).keys.sorted().map { harness in
            Baseline(
                harness: harness,
                bugs: Dictionary(
                    uniqueKeysWithValues: bugs.filter { $0.naiveHarness == harness }.map { ($0.name, $0.naive) }))
        }
    }

    /// Whether every control found nothing and every attempt measured something.
    public var machineryWorks: Bool {
        controls.allSatisfy(\.passed) && bugs.allSatisfy(\.problems.isEmpty)
    }

    /// The issue's bug-finding targets, judged on these figures (the mutation score is judged beside them).
    public var verdicts: [Verdict] {
        func names(_ bugs: [Bug]) -> String { bugs.isEmpty ? "none" : bugs.map(\.name).joined(separator: ", ") }
        let underTwo = bugs.filter { $0.hammersFinding.count < 2 }
        let fieldMissed = bugs.filter { $0.fieldBug != nil && !$0.vectors }
        let slowCheck = bugs.filter { ($0.check ?? 0) > 1 }
        let slowFuzz = bugs.filter { ($0.fuzz ?? 0) > 60 }
        let noCheck = bugs.filter { $0.check == nil }
        let noFuzz = bugs.filter { $0.fuzz == nil }
        let naiveFound = bugs.filter { $0.naive != nil }
        let naiveClose = naiveFound.filter { ($0.naiveRatio ?? 0) < 5 }
        let naiveNever = bugs.filter { $0.naive == nil }
        var mutationVerdicts: [Verdict] = []
        if let mutation {
            let unhandled = mutation.unhandled
            mutationVerdicts.append(
                Verdict(
                    target: "mutation score ≥ 90 % over ≥ 200 viable mutants, every survivor handled",
                    met: mutation.score >= 0.9 && mutation.mutants >= 200 && unhandled.isEmpty,
                    detail: String(format: "%.1f %% of %d; ", mutation.score * 100, mutation.mutants)
                        + "\(unhandled.count) survivor(s) neither killed nor argued equivalent"))
        }
        return [
            Verdict(
                target: "every planted bug found by at least two hammers", met: underTwo.isEmpty,
                detail: "fewer than two: \(names(underTwo))"),
            Verdict(
                target: "the vectors find every SPEC §7 class", met: fieldMissed.isEmpty,
                detail: "missed: \(names(fieldMissed))"),
            Verdict(
                target: "median time to first failure of stc check ≤ 1 s", met: slowCheck.isEmpty && noCheck.isEmpty,
                detail: "slower: \(names(slowCheck)); not found within the cap: \(names(noCheck))"),
            Verdict(
                target: "median time to first crash of the fuzz target ≤ 60 s", met: slowFuzz.isEmpty && noFuzz.isEmpty,
                detail: "slower: \(names(slowFuzz)); not found within the cap: \(names(noFuzz))"),
            Verdict(
                target: "≥ 5× faster than the naive harness where it finds the bug", met: naiveClose.isEmpty,
                detail: "naive finds \(naiveFound.count); under 5×: \(names(naiveClose)); "
                    + "naive never finds within the cap: \(names(naiveNever))"),
        ] + mutationVerdicts
    }

    enum CodingKeys: String, CodingKey {
        case schema, date, commit, quick, seeds, caps, seconds, controls, bugs, baselines, verdicts, machineryWorks
        case mutation
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schema, forKey: .schema)
        try c.encode(date, forKey: .date)
        try c.encode(commit, forKey: .commit)
        try c.encode(quick, forKey: .quick)
        try c.encode(seeds, forKey: .seeds)
        try c.encode(caps, forKey: .caps)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(controls, forKey: .controls)
        try c.encode(bugs, forKey: .bugs)
        try c.encode(baselines, forKey: .baselines)
        try c.encode(verdicts, forKey: .verdicts)
        try c.encode(machineryWorks, forKey: .machineryWorks)
        try c.encode(mutation, forKey: .mutation)  // null when not measured: every report has the same keys
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decode(Int.self, forKey: .schema)
        date = try c.decode(String.self, forKey: .date)
        commit = try c.decodeIfPresent(String.self, forKey: .commit)
        quick = try c.decode(Bool.self, forKey: .quick)
        seeds = try c.decode([UInt64].self, forKey: .seeds)
        caps = try c.decode(Caps.self, forKey: .caps)
        seconds = try c.decode(Double.self, forKey: .seconds)
        controls = try c.decode([Control].self, forKey: .controls)
        bugs = try c.decode([Bug].self, forKey: .bugs)
        mutation = try c.decodeIfPresent(MutationReport.self, forKey: .mutation)
    }

    /// The figures as a table a person reads: a row per bug, then the controls' failures and the verdicts.
    public var text: String {
        func cell(_ seconds: Double?) -> String { seconds.map { String(format: "%.2f", $0) } ?? "—" }
        var lines = [
            "Bug finding (\(quick ? "quick: machinery check, not a measurement" : "full")), seeds "
                + "\(seeds.map(String.init).joined(separator: ",")), caps: check \(Int(caps.check)) s, fuzz and naive "
                + "\(Int(caps.fuzz)) s, explore \(Int(caps.explore)) s; medians in seconds, — not found",
            "",
            "bug                                       §7   vectors  check   fuzz    explore naive   naive/ours",
        ]
        for bug in bugs {
            let ratio = bug.naiveRatio.map { String(format: "%.0f×", $0) } ?? (bug.naive == nil ? "never" : "—")
            lines.append(
                bug.name.padding(toLength: 42, withPad: " ", startingAt: 0)
                    + (bug.fieldBug ?? "").padding(toLength: 5, withPad: " ", startingAt: 0)
                    + (bug.vectors ? "fail" : "pass").padding(toLength: 9, withPad: " ", startingAt: 0)
                    + [bug.check, bug.fuzz, bug.explore, bug.naive].map {
                        cell($0).padding(toLength: 8, withPad: " ", startingAt: 0)
                    }.joined() + ratio)
        }
        for bug in bugs where !bug.problems.isEmpty {
            lines.append("PROBLEM \(bug.name): " + bug.problems.joined(separator: "; "))
        }
        for control in controls where !control.passed {
            lines.append("CONTROL FAILED \(control.hammer.rawValue) \(control.subject): \(control.detail ?? "")")
        }
        lines.append("")
        for verdict in verdicts {
            lines.append("\(verdict.met ? "PASS " : "BELOW") \(verdict.target) (\(verdict.detail))")
        }
        lines.append(String(format: "%.0f s in all", seconds))
        return lines.joined(separator: "\n")
    }
}
