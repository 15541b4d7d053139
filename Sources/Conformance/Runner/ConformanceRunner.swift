import StrictJSON

/// One implementation's results over the selected cases.
public struct ImplementationResult: Sendable {
    public var name: String
    public var kind: ImplementationKind
    public var summary: String
    /// The expected-failures file used, if any.
    public var expectedFailuresFile: String?
    /// One result per case of ``ConformanceRun/cases``, in the same order.
    public var results: [CaseResult]
    /// Listed ids that name no loaded case (a stale list): they fail the run.
    public var unknownExpectedFailures: [ExpectedFailures.Entry]
    /// Listed ids that repeat an earlier line (harmless, reported).
    public var repeatedExpectedFailures: [ExpectedFailures.Entry]
    public var diagnostics: ImplementationDiagnostics
    /// Wall-clock seconds the implementation took.
    public var seconds: Double

    /// `true` when nothing in this implementation's results fails the run.
    public var ok: Bool { unknownExpectedFailures.isEmpty && results.allSatisfy(\.isAcceptable) }
}

/// Everything a run produced: the input to every report.
public struct ConformanceRun: Sendable {
    /// Version of the JSON report's shape.
    public static let reportSchemaVersion = 1

    /// Every loaded suite (the selected cases are a subset when a filter is given).
    public var suites: [Suite]
    /// The selected cases, suite by suite, in file order.
    public var cases: [ConformanceCase]
    public var filters: [String]
    public var timeout: Double
    public var implementations: [ImplementationResult]

    public var ok: Bool { implementations.allSatisfy(\.ok) }

    /// Names of the suites that hold at least one selected case, in load order.
    public var selectedSuiteNames: [String] {
        var seen: Set<String> = []
        return cases.compactMap { seen.insert($0.suite).inserted ? $0.suite : nil }
    }

    /// Counts for one implementation, optionally only one suite and/or only (non-)assumption cases.
    ///
    /// - Parameters:
    ///   - implementation: One of the run's implementations.
    ///   - suite: Only this suite's cases, when given.
    ///   - assumption: Only assumption (`true`) or other (`false`) cases, when given.
    /// - Returns: The counts.
    public func counts(_ implementation: ImplementationResult, suite: String? = nil, assumption: Bool? = nil)
        -> StatusCounts
    {
        var counts = StatusCounts()
        for result in implementation.results {
            guard result.caseIndex >= 0, result.caseIndex < cases.count else { continue }
            let c = cases[result.caseIndex]
            if let suite, c.suite != suite { continue }
            if let assumption, c.isAssumption != assumption { continue }
            counts.add(result)
        }
        return counts
    }
}

/// Runs selected cases through implementations and judges the answers.
public struct ConformanceRunner {
    public let suites: [Suite]
    public let filters: [String]
    /// The cases that pass the filters (all of them without filters).
    public let cases: [ConformanceCase]
    /// Recorded in reports; adapters get their own timeout when built.
    public var timeout: Double
    private let loadedIds: Set<String>

    /// `filters` are ``Glob`` patterns over case ids; a case runs when it matches any (all run when none given)
    /// and `including` accepts it (by its operation or its tags, say). A listed expected failure that either
    /// leaves out is neither expected nor unknown, as with `--filter`.
    ///
    /// - Parameters:
    ///   - suites: Every loaded suite.
    ///   - filters: Glob patterns over case ids.
    ///   - timeout: Seconds an adapter may take for one answer.
    ///   - include: Whether a case runs, besides the filters.
    public init(
        suites: [Suite], filters: [String] = [], timeout: Double = 5,
        including include: (ConformanceCase) -> Bool = { _ in true }
    ) {
        self.suites = suites
        self.filters = filters
        self.timeout = timeout
        let globs = filters.map(Glob.init)
        var selected: [ConformanceCase] = []
        var ids: Set<String> = []
        for suite in suites {
            for c in suite.cases {
                ids.insert(c.id)
                if globs.isEmpty || globs.contains(where: { $0.matches(c.id) }), include(c) { selected.append(c) }
            }
        }
        self.cases = selected
        self.loadedIds = ids
    }

    /// Runs every selected case through `implementation` and judges each answer.
    /// `progress` gets the number of cases answered so far (now and then, not for every case).
    ///
    /// - Parameters:
    ///   - implementation: What answers the cases.
    ///   - expectedFailures: Its list of known deviations, if any.
    ///   - progress: Called with the number of cases answered.
    /// - Returns: One result per selected case.
    public func run(
        _ implementation: Implementation, expectedFailures: ExpectedFailures? = nil,
        progress: (Int) -> Void = { _ in }
    ) -> ImplementationResult {
        let start = ContinuousClock.now
        var answers = implementation.answer(cases, progress: progress)
        if answers.count != cases.count {
            // An implementation that breaks its contract must not trap the runner.
            let missing = Answer.crash("the implementation returned \(answers.count) answers for \(cases.count) cases")
            answers = (0..<cases.count).map { $0 < answers.count ? answers[$0] : missing }
        }
        let listed = expectedFailures?.ids ?? []
        var results: [CaseResult] = []
        results.reserveCapacity(cases.count)
        for index in 0..<cases.count {
            // Fields read in place: copying the whole case retained every string of it, for each case.
            let (status, mismatch) = Matcher.judge(cases[index], answers[index])
            var state = ListedState.notListed
            if !listed.isEmpty, listed.contains(cases[index].id) {
                state = status == .pass ? .unexpectedPass : .expectedFailure
            }
            results.append(
                CaseResult(
                    caseIndex: index, status: status, answer: answers[index], mismatch: mismatch,
                    listed: state))
        }
        let unknown = expectedFailures?.entries.filter { !loadedIds.contains($0.id) } ?? []
        return ImplementationResult(
            name: implementation.name, kind: implementation.kind, summary: implementation.summary,
            expectedFailuresFile: expectedFailures?.file, results: results, unknownExpectedFailures: unknown,
            repeatedExpectedFailures: expectedFailures?.repeats ?? [], diagnostics: implementation.diagnostics,
            seconds: (ContinuousClock.now - start) / .seconds(1))
    }

    /// Runs each implementation in turn. `progress` gets (implementation name, cases answered, cases in all).
    ///
    /// - Parameters:
    ///   - implementations: Each implementation with its list of known deviations.
    ///   - progress: Called with an implementation's name, its cases answered, and the cases in all.
    /// - Returns: The whole run, for the reports.
    public func run(
        _ implementations: [(Implementation, ExpectedFailures?)],
        progress: (String, Int, Int) -> Void = { _, _, _ in }
    ) -> ConformanceRun {
        var results: [ImplementationResult] = []
        for (implementation, list) in implementations {
            let name = implementation.name
            let total = cases.count
            results.append(run(implementation, expectedFailures: list) { progress(name, $0, total) })
        }
        return ConformanceRun(
            suites: suites, cases: cases, filters: filters, timeout: timeout,
            implementations: results)
    }
}
