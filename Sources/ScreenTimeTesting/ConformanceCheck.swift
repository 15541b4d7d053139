import Conformance

/// Every shipped vector against an implementation, in this process: what `stc conformance --adapter` does, judged
/// by the same runner and matcher, without a subprocess.
///
/// Rules:
/// - The cases of every operation the implementation has a closure for run, unless ``operations`` names the
///   operations to run; ``tags`` keeps the cases with any of the tags. Operations in the implementation's
///   `mayTrap` never run here (a trap would end the test process): run them through ``ScreenTimeAdapter``.
/// - Each case that does not pass is an issue: its id and operation, the expected and actual answers, and the
///   difference, as `stc conformance` prints them. A summary comes first.
/// - ``expectedFailures`` is strict both ways, like `--expect-failures`: a listed case that fails is a known
///   issue, a listed case that passes and a listed id that names no case are issues. Listed cases left out by
///   ``operations`` or ``tags`` are neither.
/// - ``vectors`` adds suite files of your own (regressions kept from ``ExplorationCheck``), run after the
///   shipped suites.
///
/// ```swift
/// @Test func shippedVectors() {
///     ConformanceCheck(expectedFailures: .file("expected-failures.txt")).verify(app)
/// }
/// ```
public struct ConformanceCheck: ImplementationCheck {
    /// The operations whose cases run; `nil` for every operation the implementation has a closure for.
    public var operations: Set<ScreenTimeOperation>?
    /// When not empty, only cases with at least one of these tags run (`field-bug-4`, `assumption`, …).
    public var tags: Set<String>
    /// Case ids that are known deviations, strict both ways.
    public var expectedFailures: ExpectedList
    /// Suite files run besides the shipped ones.
    public var vectors: [String]

    /// A check of the shipped vectors; every argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - operations: The operations whose cases run; `nil` for every one with a closure.
    ///   - tags: When not empty, only cases with at least one of these tags run.
    ///   - expectedFailures: Case ids that are known deviations.
    ///   - vectors: Suite files run besides the shipped ones.
    public init(
        operations: Set<ScreenTimeOperation>? = nil, tags: Set<String> = [], expectedFailures: ExpectedList = [],
        vectors: [String] = []
    ) {
        self.operations = operations
        self.tags = tags
        self.expectedFailures = expectedFailures
        self.vectors = vectors
    }

    /// The shipped suites, read once per process.
    private static let shipped = Result { () throws(SuiteLoadFailure) in try ShippedSuites.load() }

    /// Runs the check and records nothing (``ImplementationCheck/verify(_:fileID:filePath:line:column:)`` records).
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - directory: Where relative paths (the list, `vectors`) are read; `""` for as given.
    /// - Returns: Each case's status, as issues and a summary.
    public func run(_ implementation: ScreenTimeImplementation, relativeTo directory: String) -> ConformanceCheckResult
    {
        let plan = OperationPlan(implementation, asked: operations)
        let suites: [Suite]
        let list: ExpectedFailures?
        do {
            let extra = vectors.map { TestFilePath.resolve($0, from: directory) }
            suites = try Self.shipped.get() + (extra.isEmpty ? [] : try SuiteLoader.load(paths: extra))
            list = try expectedFailureList(relativeTo: directory)
        } catch {
            let text = "\(implementation.name): the check could not start: \(error)"
            return ConformanceCheckResult(run: nil, issues: [CheckIssue(subject: nil, text: text)], summary: text)
        }
        let runner = ConformanceRunner(suites: suites) { c in
            plan.runs(c.op) && (tags.isEmpty || c.tags.contains(where: tags.contains))
        }
        let run = runner.run([(WireOperations(implementation).inProcess(named: implementation.name), list)])
        return ConformanceCheckResult(run: run, plan: plan)
    }

    private func expectedFailureList(relativeTo directory: String) throws(ExpectedFailures.ParseError)
        -> ExpectedFailures?
    {
        switch expectedFailures {
        case .file(let path): return try ExpectedFailures.load(path: TestFilePath.resolve(path, from: directory))
        case .entries(let ids): return ids.isEmpty ? nil : ExpectedFailures(file: "expectedFailures", ids: ids)
        }
    }
}

/// What a ``ConformanceCheck`` found.
public struct ConformanceCheckResult: ImplementationCheckResult {
    /// The run as `stc conformance` reports it (`nil` when the vectors or the list could not be read).
    public let run: ConformanceRun?
    public let issues: [CheckIssue]
    public let summary: String

    init(run: ConformanceRun?, issues: [CheckIssue], summary: String) {
        self.run = run
        self.issues = issues
        self.summary = summary
    }

    init(run: ConformanceRun, plan: OperationPlan) {
        let implementation = run.implementations[0]
        let file = implementation.expectedFailuresFile ?? ""
        var issues: [CheckIssue] = []
        for result in implementation.results where result.status != .pass || result.listed == .unexpectedPass {
            let id = run.cases[result.caseIndex].id
            switch result.listed {
            case .expectedFailure:
                // One line: a listed deviation is known, what matters is that it is still the same one.
                let heading = TextReport.problem(result, in: run).prefix { $0 != "\n" }
                let text = "\(heading)  (listed in \(file)): \(Escape.controls(result.problem))"
                issues.append(CheckIssue(subject: id, text: text, isKnown: true))
            case .unexpectedPass:
                issues.append(
                    CheckIssue(
                        subject: id,
                        text: TextReport.problem(result, in: run) + "\n  listed in \(file), passes now: remove the line"
                    ))
            case .notListed:
                issues.append(CheckIssue(subject: id, text: TextReport.problem(result, in: run)))
            }
        }
        for entry in implementation.unknownExpectedFailures {
            issues.append(
                CheckIssue(
                    subject: entry.id,
                    text:
                        "UNKNOWN \(entry.id): listed in \(file) line \(entry.line), no case has this id: remove the line"
                ))
        }
        if run.cases.isEmpty { issues.append(CheckIssue(subject: nil, text: "\(implementation.name): no case ran")) }
        let failed = issues.contains { !$0.isKnown }
        var lines = [
            "\(implementation.name), shipped vectors in process: \(failed ? "FAILED" : "OK") — "
                + TextReport.countsLine(run.counts(implementation))
        ]
        lines += TextReport.table(run, implementation).split(separator: "\n").map(String.init)
        lines += plan.leftOut.map { "  " + $0 }
        let summary = lines.joined(separator: "\n")
        self.run = run
        self.issues = issues.withSummaryFirst(summary)
        self.summary = summary
    }

    /// Each selected case's status, by case id.
    public var statuses: [String: CaseStatus] {
        guard let run, let implementation = run.implementations.first else { return [:] }
        var statuses: [String: CaseStatus] = [:]
        for result in implementation.results { statuses[run.cases[result.caseIndex].id] = result.status }
        return statuses
    }
}
