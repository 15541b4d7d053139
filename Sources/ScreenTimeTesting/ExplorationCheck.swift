import Conformance
import Exploration

/// Generated cases against an implementation, in this process: the engine of `stc explore` (the same generators,
/// the reference as judge, the same shrinking), with the implementation's closures answering.
///
/// Rules:
/// - ``cases`` cases from ``seed``, the operations taking turns: a run is deterministic, so the test that found
///   a finding finds it again. The operations are those of ``operations``, or every one with a closure, never
///   one in the implementation's `mayTrap` (explore those with `stc explore --adapter` and ``ScreenTimeAdapter``).
/// - Each finding is an issue: its name, the minimal input it shrank to, the expected and actual answers, the
///   difference, and its replay. ``expectedFindings`` is strict both ways, like `stc explore --expect-findings`:
///   a listed finding is a known issue, a listed one not found is an issue.
/// - ``replay`` runs exactly one case, `OP:HEX` as a finding's replay names it, and nothing else.
/// - ``saveFindingsTo`` adds each finding's minimal cases to a suite file (as `stc explore --save`), which
///   `ConformanceCheck(vectors:)` and `stc conformance --vectors` then replay as regressions.
///
/// ```swift
/// @Test func generatedCases() {
///     ExplorationCheck(cases: 3_000, seed: 1, expectedFindings: .file("known-findings.txt")).verify(app)
/// }
/// ```
public struct ExplorationCheck: ImplementationCheck {
    /// How many cases to generate.
    public var cases: Int
    /// Where the generated cases start: the same seed and count give the same cases and findings.
    public var seed: UInt64
    /// The operations explored; `nil` for every operation the implementation has a closure for.
    public var operations: Set<ScreenTimeOperation>?
    /// Findings that are known deviations (finding keys, or group keys for every finding of a group), strict both
    /// ways.
    public var expectedFindings: ExpectedList
    /// A suite file that each finding's minimal cases are added to (created when missing).
    public var saveFindingsTo: String?
    /// One case to run instead of a generated run: `OP:HEX`, as a finding's replay line gives it.
    public var replay: String?

    /// A generated check; every argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - cases: How many cases to generate.
    ///   - seed: Where the generated cases start.
    ///   - operations: The operations explored; `nil` for every one with a closure.
    ///   - expectedFindings: Finding keys that are known deviations.
    ///   - saveFindingsTo: A suite file each finding's minimal cases are added to.
    ///   - replay: One case, `OP:HEX`, to run instead of a generated run.
    public init(
        cases: Int = 2_000, seed: UInt64 = 1, operations: Set<ScreenTimeOperation>? = nil,
        expectedFindings: ExpectedList = [], saveFindingsTo: String? = nil, replay: String? = nil
    ) {
        self.cases = cases
        self.seed = seed
        self.operations = operations
        self.expectedFindings = expectedFindings
        self.saveFindingsTo = saveFindingsTo
        self.replay = replay
    }

    /// Runs the check and records nothing (``ImplementationCheck/verify(_:fileID:filePath:line:column:)`` records).
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - directory: Where relative paths (the list, `saveFindingsTo`) are read; `""` for as given.
    /// - Returns: The findings, as issues and a summary.
    public func run(_ implementation: ScreenTimeImplementation, relativeTo directory: String)
        -> ExplorationCheckResult
    {
        let plan = OperationPlan(implementation, asked: operations)
        let inProcess = WireOperations(implementation).inProcess(named: implementation.name)
        let expected: ExpectedFindings?
        do {
            expected = try expectedFindingList(relativeTo: directory)
        } catch {
            return ExplorationCheckResult(failure: "\(implementation.name): the check could not start: \(error)")
        }
        if let replay { return Self.replay(replay, inProcess, plan: plan, expected: expected) }
        // Only the decode inputs some closure answers: an `unsupported` answer would end the operation's run. (Left
        // as it is when every route has a closure, so that its cases replay from their choices unfiltered.)
        let routes = DecodeRoutes(
            plain: implementation.decodeSelection != nil, formats: implementation.decodeSelectionFormat != nil,
            documents: implementation.decodeSelectionDocument != nil)
        let explored = plan.operationNames.compactMap(ExploredOperations.named).map { operation in
            guard operation.name == ScreenTimeOperation.selectionDecode.rawValue, !routes.answersEverything else {
                return operation
            }
            return ExploredOperation(
                name: operation.name, input: operation.input.filter(routes.answers), errorOrder: operation.errorOrder,
                reason: operation.reason)
        }
        let explorer = Explorer(inProcess, ExploreConfiguration(operations: explored, seed: seed, limit: .cases(cases)))
        let run = ExploredImplementation(
            name: implementation.name, command: "in process", result: explorer.run(), expected: expected)
        var saved: Swift.Result<String, any Error>?
        if let path = saveFindingsTo, !run.result.findings.isEmpty {
            let file = TestFilePath.resolve(path, from: directory)
            saved = Swift.Result {
                let added = try ExploredSuite.save(run.result.findings, to: file)
                return "saved \(added) new case(s) to \(file): ConformanceCheck(vectors: [\"\(path)\"]) replays them"
            }
        }
        return ExplorationCheckResult(run, plan: plan, saved: saved)
    }

    private func expectedFindingList(relativeTo directory: String) throws -> ExpectedFindings? {
        switch expectedFindings {
        case .file(let path): return try ExpectedFindings.load(path: TestFilePath.resolve(path, from: directory))
        case .entries(let keys): return keys.isEmpty ? nil : ExpectedFindings(file: "expectedFindings", keys: keys)
        }
    }

    /// Exactly one case, `OP:HEX`: an issue when it still differs from the reference (a known one when its
    /// finding is listed).
    private static func replay(
        _ text: String, _ implementation: InProcessImplementation, plan: OperationPlan, expected: ExpectedFindings?
    ) -> ExplorationCheckResult {
        guard let replay = ReplayCase(text), let operation = replay.operation else {
            return ExplorationCheckResult(failure: "replay: \"\(text)\" is not OP:HEX for an operation of the kit")
        }
        guard plan.runs(operation.name) else {
            return ExplorationCheckResult(
                failure: "replay: \(operation.name) is not explored in process ("
                    + (plan.leftOut.isEmpty ? "not asked for" : plan.leftOut.joined(separator: "; ")) + ")")
        }
        let explorer = Explorer(
            implementation, ExploreConfiguration(operations: [operation], seed: 0, limit: .cases(0)))
        guard let (c, answer, discrepancy) = explorer.replay(operation, choices: replay.choices) else {
            return ExplorationCheckResult(failure: "replay: the reference does not answer \(text)")
        }
        let text = ExploreReport.replayed(c, answer: answer, discrepancy: discrepancy).joined(separator: "\n")
        guard let discrepancy else { return ExplorationCheckResult(result: nil, issues: [], summary: text) }
        let known = expected.map { $0.keys.contains(discrepancy.key) || $0.keys.contains(discrepancy.group) } ?? false
        return ExplorationCheckResult(
            result: nil, issues: [CheckIssue(subject: discrepancy.key, text: text, isKnown: known)], summary: text)
    }

    /// The replay line of an in-process finding: the check that reruns exactly it, and the command that does
    /// through an adapter.
    static func replayLine(_ run: ExploredImplementation, _ example: FindingExample) -> String {
        let replay = ReplayCase(example).text
        return "ExplorationCheck(replay: \"\(replay)\"); through an adapter: stc explore --adapter … --replay \(replay)"
    }
}

/// What an ``ExplorationCheck`` found.
public struct ExplorationCheckResult: ImplementationCheckResult {
    /// The run as `stc explore` reports it (`nil` for a replay, or when the check could not start).
    public let exploration: ExploreResult?
    public let issues: [CheckIssue]
    public let summary: String

    /// Each distinct discrepancy found, shrunk, sorted by key (empty for a replay).
    public var findings: [Finding] { exploration?.findings ?? [] }
    /// The findings by root cause: the operation, the class of the reference's answer and the class of the
    /// implementation's (empty for a replay).
    public var groups: [FindingGroup] { exploration?.groups ?? [] }
    /// How many generated cases ran (0 for a replay, or when the check could not start).
    public var cases: Int { exploration?.cases ?? 0 }
    /// The wire names of the operations explored, in `SPEC.md` §5 order (empty for a replay).
    public var operations: [String] { exploration?.operations ?? [] }

    init(result: ExploreResult?, issues: [CheckIssue], summary: String) {
        self.exploration = result
        self.issues = issues
        self.summary = summary
    }

    init(failure: String) {
        self.init(result: nil, issues: [CheckIssue(subject: nil, text: failure)], summary: failure)
    }

    init(_ run: ExploredImplementation, plan: OperationPlan, saved: Swift.Result<String, any Error>?) {
        let r = run.result
        let listed = Set(run.expected?.keys ?? [])
        var issues: [CheckIssue] = []
        for (index, finding) in r.groups.flatMap(\.findings).enumerated() {
            let lines = ExploreReport.describe(
                finding, number: index + 1, of: run, quiet: false, replay: ExplorationCheck.replayLine)
            issues.append(
                CheckIssue(
                    subject: finding.key,
                    text: (lines + ["  group:    \(finding.discrepancy.group)"]).joined(separator: "\n"),
                    isKnown: run.expected?.lists(finding) ?? false))
        }
        let file = run.expected?.file ?? ""
        for key in run.stale {
            issues.append(
                CheckIssue(
                    subject: key,
                    text: "STALE \(key): listed in \(file), not found in \(r.cases) cases (seed \(r.seed))"))
        }
        if case .failure(let error)? = saved {
            issues.append(CheckIssue(subject: nil, text: "\(run.name): the findings were not saved: \(error)"))
        }
        if r.cases == 0 {
            issues.append(CheckIssue(subject: nil, text: "\(run.name): no operation to explore in process"))
        }
        let failed = issues.contains { !$0.isKnown }
        var lines = [
            "\(run.name), generated cases in process: \(failed ? "FOUND" : "OK") — \(r.cases) cases (seed \(r.seed)), "
                + "\(r.findings.count) finding(s)"
                + (listed.isEmpty ? "" : ", \(r.findings.count - run.unexpected.count) listed in \(file)")
        ]
        if !r.unsupported.isEmpty { lines.append("  unsupported (skipped): " + r.unsupported.joined(separator: ", ")) }
        lines += plan.leftOut.map { "  " + $0 }
        if case .success(let line)? = saved { lines.append("  " + line) }
        for group in r.groups {
            lines.append(
                "  \(group.key): \(group.findings.count) rule(s)" + (listed.contains(group.key) ? " (listed)" : ""))
        }
        let summary = lines.joined(separator: "\n")
        self.init(result: r, issues: issues.withSummaryFirst(summary), summary: summary)
    }
}
