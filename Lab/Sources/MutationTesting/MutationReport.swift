import Foundation

/// What happened to one mutant.
public enum Verdict: String, Codable, Sendable, CaseIterable {
    /// A vector or a test failed (or crashed) with it on.
    case caught
    /// Everything that reaches it passed with it on: a survivor.
    case missed
    /// It does not compile (the schema build's errors, or a literal moved past its type's range).
    case unviable
    /// Its run went past the time limit (an endless loop, usually): counted as caught.
    case timeout
    /// No vector and no fast test reaches it in the clean run: not counted in the score.
    case notCovered
}

/// The mutation score of the suite over the reference: the `mutation` object of `lab mutate --json`, made to be
/// embedded as it is in other reports (`lab bench`).
///
/// Rule: ``mutants`` counts the viable mutants that the clean run reaches, `caught + missed + timeout`;
/// ``score`` is `(caught + timeout) / mutants` (0 when there are none), a timeout counting as caught (the mutant
/// made the program hang, which a test run notices). ``unviable`` counts the mutants the compiler rejected, which
/// are in no other count. A survivor argued equivalent stays missed in the score; its ``Survivor/equivalent``
/// holds the argument. Source: the counts of PIT's and Stryker's reports (killed, survived, timed out, compile
/// errors, no coverage). The encoding is stable: ``encoded()`` sorts the keys, survivors are sorted by file,
/// line and id.
///
/// ```swift
/// let report = MutationReport(results: results, equivalents: list)
/// String(decoding: try report.encoded(), as: UTF8.self)
/// // {"caught":930,"missed":31,"mutants":964,"score":0.9678,"survivors":[…],"timeout":3,"unviable":120}
/// ```
public struct MutationReport: Codable, Sendable, Equatable {
    /// A missed mutant: where it is and what it changes.
    public struct Survivor: Codable, Sendable, Equatable {
        /// Relative to the package root: `Sources/StrictJSON/JSONScanner.swift`.
        public var file: String
        public var line: Int
        /// The operator's name (``MutationOperator/rawValue``): `relational`.
        public var mutationOperator: MutationOperator
        /// The change: ``Mutant/original`` → ``Mutant/replacement``.
        public var description: String
        /// The stable id (``Mutant/id``), as the list of equivalent mutants names it.
        public var id: String
        /// The argument for its equivalence when the list has it; `nil` for an unhandled survivor.
        public var equivalent: String?

        public init(_ mutant: Mutant, equivalent: String?) {
            file = mutant.file
            line = mutant.line
            mutationOperator = mutant.mutationOperator
            description = "`\(mutant.original)` → `\(mutant.replacement)`"
            id = mutant.id
            self.equivalent = equivalent
        }

        enum CodingKeys: String, CodingKey {
            case file, line
            case mutationOperator = "operator"
            case description, id, equivalent
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(mutationOperator, forKey: .mutationOperator)
            try c.encode(description, forKey: .description)
            try c.encode(id, forKey: .id)
            try c.encode(equivalent, forKey: .equivalent)  // null, not absent: every survivor has the same keys
        }
    }

    public var mutants: Int
    public var caught: Int
    public var missed: Int
    public var unviable: Int
    public var timeout: Int
    public var score: Double
    /// Every missed mutant.
    public var survivors: [Survivor]

    public init(
        mutants: Int, caught: Int, missed: Int, unviable: Int, timeout: Int, score: Double, survivors: [Survivor]
    ) {
        self.mutants = mutants
        self.caught = caught
        self.missed = missed
        self.unviable = unviable
        self.timeout = timeout
        self.score = score
        self.survivors = survivors
    }

    /// The report of `results` (each mutant with its verdict); survivors take their arguments from `equivalents`.
    public init(results: [(Mutant, Verdict)], equivalents: EquivalentMutants) {
        let counts = MutationCounts(name: "all", results.map(\.1))
        mutants = counts.mutants
        caught = counts.caught
        missed = counts.missed
        unviable = counts.unviable
        timeout = counts.timeout
        survivors = results.filter { $0.1 == .missed }.map {
            Survivor($0.0, equivalent: equivalents.argument(for: $0.0.id))
        }
        .sorted { ($0.file, $0.line, $0.id) < ($1.file, $1.line, $1.id) }
        let judged = mutants - survivors.filter { $0.equivalent != nil }.count
        score = judged == 0 ? 0 : Double(caught + timeout) / Double(judged)
    }

    /// Survivors that are not argued equivalent: a full run must have none.
    public var unhandled: [Survivor] { survivors.filter { $0.equivalent == nil } }

    /// The JSON: keys sorted, slashes not escaped, no whitespace.
    public func encoded(pretty: Bool = false) throws -> Data {
        try stableEncoder(pretty: pretty).encode(self)
    }

    /// `0.9312` as `93.1 %`.
    public static func percent(_ value: Double) -> String {
        let tenths = Int((value * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }
}

/// Counts of verdicts for all mutants, one module or one operator.
///
/// Rule: `mutants = caught + missed + timeout`, `score = (caught + timeout) / mutants` (equivalents not left out),
/// `nil` when no mutant is counted.
///
/// ```swift
/// MutationCounts(name: "StrictJSON", [.caught, .missed, .unviable]).score   // 0.5
/// ```
public struct MutationCounts: Codable, Sendable, Equatable {
    public var name: String
    public var mutants = 0
    public var caught = 0
    public var missed = 0
    public var unviable = 0
    public var timeout = 0
    public var notCovered = 0
    public var score: Double?

    public init(name: String, _ verdicts: [Verdict] = []) {
        self.name = name
        for verdict in verdicts { add(verdict) }
    }

    public mutating func add(_ verdict: Verdict) {
        switch verdict {
        case .caught: caught += 1
        case .missed: missed += 1
        case .unviable: unviable += 1
        case .timeout: timeout += 1
        case .notCovered: notCovered += 1
        }
        mutants = caught + missed + timeout
        score = mutants == 0 ? nil : Double(caught + timeout) / Double(mutants)
    }
}

/// Everything `lab mutate` learned in one run: the ``MutationReport`` (`mutation`) and what a person looking
/// into the run needs besides (counts per module and operator, mutants not reached, timings, the verdict).
///
/// Rule: a full run ``passed`` when the score is at least ``threshold``, no survivor is unhandled and no listed
/// equivalent was caught (its argument was wrong); a quick run, which checks the machinery and not the suite,
/// when its canary and so at least one mutant were caught (its survivors are listed, not held against it).
///
/// ```swift
/// let run = try MutationRun(options).run { print($0) }
/// run.mutation.score   // 0.93
/// run.passed           // true
/// ```
public struct MutationRunReport: Codable, Sendable, Equatable {
    public var mutation: MutationReport
    /// Viable mutants no vector and no fast test reaches: outside the score.
    public var notCovered: Int
    /// The score with the survivors argued equivalent counted as missed: `(caught + timeout) / mutants`.
    public var scoreCountingEquivalent: Double
    public var modules: [MutationCounts]
    public var operators: [MutationCounts]
    /// Listed as equivalent, but caught in this run: the argument is wrong (a full run fails).
    public var caughtEquivalents: [String]
    /// `--quick`: a fixed sample, not the whole reference; the threshold does not apply.
    public var quick: Bool
    /// `--sample`: the number of covered mutants judged, chosen by the hashes of their ids; `nil` for all.
    public var sample: Int?
    /// `--filter`: the filters given; the threshold does not apply when there are any.
    public var filters: [String]
    public var threshold: Double
    public var passed: Bool
    /// Why it did not pass, one sentence each.
    public var failures: [String]
    /// `--quick`: the mutant that must be caught for the machinery to count as working.
    public var canary: String?
    /// Wall-clock seconds: the whole run, the schema build, the clean run.
    public var seconds: Double
    public var buildSeconds: Double
    public var cleanRunSeconds: Double

    /// The report of `results` (every selected mutant with its verdict).
    public init(
        results: [(Mutant, Verdict)], equivalents: EquivalentMutants, quick: Bool = false, sample: Int? = nil,
        filters: [String] = [],
        threshold: Double = 0.9, canary: (id: String, verdict: Verdict)? = nil, seconds: Double = 0,
        buildSeconds: Double = 0, cleanRunSeconds: Double = 0
    ) {
        mutation = MutationReport(results: results, equivalents: equivalents)
        notCovered = results.filter { $0.1 == .notCovered }.count
        let counted = mutation.mutants
        scoreCountingEquivalent = counted == 0 ? 0 : Double(mutation.caught + mutation.timeout) / Double(counted)
        var modules: [String: MutationCounts] = [:]
        var operators: [MutationOperator: MutationCounts] = [:]
        for (mutant, verdict) in results {
            modules[mutant.module, default: MutationCounts(name: mutant.module)].add(verdict)
            operators[mutant.mutationOperator, default: MutationCounts(name: mutant.mutationOperator.rawValue)].add(
                verdict)
        }
        self.modules = modules.values.sorted { $0.name < $1.name }
        self.operators = operators.sorted { $0.key < $1.key }.map(\.value)
        caughtEquivalents = results.filter { ($0.1 == .caught || $0.1 == .timeout) && equivalents.contains($0.0.id) }
            .map(\.0.id).sorted()
        self.quick = quick
        self.sample = sample
        self.filters = filters
        self.threshold = threshold
        self.canary = canary?.id
        var failures: [String] = []
        let unhandled = mutation.unhandled.count
        if unhandled > 0 && !quick {
            failures.append("\(unhandled) survivor(s) neither killed nor listed as equivalent")
        }
        if quick && mutation.caught + mutation.timeout == 0 { failures.append("no mutant of the sample was caught") }
        if !caughtEquivalents.isEmpty {
            failures.append("\(caughtEquivalents.count) mutant(s) listed as equivalent were caught")
        }
        if let canary, canary.verdict != .caught && canary.verdict != .timeout {
            failures.append("the canary \(canary.id) was not caught (\(canary.verdict.rawValue))")
        }
        if quick && canary == nil { failures.append("no canary: no negate-condition mutant is reached by the vectors") }
        if !quick && filters.isEmpty {
            if mutation.mutants == 0 {
                failures.append("no mutant is covered")
            } else if mutation.score < threshold {
                failures.append(
                    "score \(MutationReport.percent(mutation.score)) is below the threshold "
                        + MutationReport.percent(threshold))
            }
        }
        self.failures = failures
        passed = failures.isEmpty
        self.seconds = seconds
        self.buildSeconds = buildSeconds
        self.cleanRunSeconds = cleanRunSeconds
    }

    /// The JSON: keys sorted, slashes not escaped.
    public func encoded(pretty: Bool = true) throws -> Data {
        try stableEncoder(pretty: pretty).encode(self)
    }
}

/// The encoder of the reports: keys sorted and slashes as they are, so that the same run gives the same bytes.
func stableEncoder(pretty: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
        pretty
        ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        : [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}
