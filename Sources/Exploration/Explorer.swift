import Conformance
import Dispatch
import PropertyTesting
import ScreenTimeReference
import StrictJSON

/// Generated cases against an implementation, judged by the reference; each new discrepancy shrunk to its
/// smallest case.
///
/// Case `n` of a run draws its input from the seed `mix(seed, n)`, for the operation whose turn it is (each
/// supported operation in turn). The reference answers it in this process through ``OperationTable``; that
/// answer is the expectation. The implementation answers whole batches (an ``AdapterProcess`` pipelines them,
/// restarts after a crash, and times out a hang, as the conformance runner does), and every answer is judged as
/// the matcher judges vectors. A discrepancy whose ``Discrepancy/key`` is new is shrunk on its choice sequence
/// with ``Shrinker``, replaying each candidate against the implementation and keeping it only when it shows the
/// same discrepancy (a crash or a timeout counts as itself).
///
/// Time (`.seconds` limits): generation stops at the limit, within a batch (batches are sized to take about a fifth
/// of a second). Shrinking takes at most ``ExploreConfiguration/shrinkShare`` of the limit in all and
/// ``ExploreConfiguration/shrinkSeconds`` per finding; once either is spent, or the limit is reached, a new finding
/// still gets ``ExploreConfiguration/lateShrinkSeconds``, further examples of a known finding are no longer shrunk,
/// and a second past the limit findings are kept as found. An operation answered `unsupported` for every case of
/// a batch is dropped; one answered for some inputs keeps the others (``ExploreResult/unsupportedInputs``).
///
/// ```swift
/// let explorer = Explorer(AdapterProcess(name: "mine", command: "python3 adapter.py"),
///                         ExploreConfiguration(seed: 1, limit: .cases(10_000)))
/// let result = explorer.run()
/// result.findings.map(\.key)   // ["url.encode: output differs in encoded", …]
/// ```
public final class Explorer {
    public let implementation: Implementation
    public let configuration: ExploreConfiguration
    private let clock = ContinuousClock()
    /// Requests sent one at a time so far: each gets an id of its own, so that no answer can be taken for another's.
    private var single = 0

    /// The implementation's answer to one case.
    private func answer(_ c: ConformanceCase) -> Answer {
        single += 1
        var c = c
        c.id = "explore/one/\(single)"
        return implementation.answer([c]) { _ in }.first ?? .crash("no answer")
    }

    public init(_ implementation: Implementation, _ configuration: ExploreConfiguration) {
        self.implementation = implementation
        self.configuration = configuration
    }

    /// The seed of case `n` of a run from `seed` (SplitMix64 of their combination).
    public static func caseSeed(_ seed: UInt64, _ n: Int) -> UInt64 {
        var z = seed &+ (UInt64(n) &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The case the reference makes of `input`: its expectation, or `nil` when the reference does not answer it.
    public static func makeCase(_ op: String, _ input: JSONValue, id: String) -> ConformanceCase? {
        let expect: Expectation
        switch OperationTable.perform(op, input: input) {
        case .output(.object(let members)):
            expect = .output(op == "selection.encode" ? encodeExpectation(input) ?? members : members)
        case .output(let other): expect = .output(["value": other])
        case .error(let code): expect = .error(code)
        case .unsupported: return nil
        }
        return ConformanceCase(id: id, suite: "explore", op: op, input: input, expect: expect, tags: ["explored"])
    }

    /// What a `selection.encode` answer must read back as (`SPEC.md` §5.3): the canonical string of the input's
    /// selection. Taken from the input rather than from reading the reference's own answer back, so that the
    /// expectation does not rest on the writer it judges.
    static func encodeExpectation(_ input: JSONValue) -> [String: JSONValue]? {
        guard let text = input["selection"]?.stringValue else { return nil }
        do throws(SelectionDecodingError) {
            return ["canonical": .string(try SelectionDecoder.decode(Array(text.utf8)).selection.canonicalBase64)]
        } catch {
            return nil
        }
    }

    /// How `answer` departs from the reference's case `c` of `operation` (``makeCase(_:_:id:)``), named with the
    /// reference's reason for an error; `nil` when it matches.
    public static func discrepancy(_ operation: ExploredOperation, _ c: ConformanceCase, _ answer: Answer)
        -> Discrepancy?
    {
        let judged = answer.readBack(op: c.op, input: c.input).answer
        guard var found = Discrepancy.between(op: c.op, expected: c.expect, reason: nil, answer: judged) else {
            return nil
        }
        let order = operation.errorOrder
        switch found.kind {
        case .unexpectedOutput(let code, _):
            let reason = operation.reason(c.input)
            found.kind =
                order.isEmpty
                ? .unexpectedOutput(error: code, reason: reason) : .missedCheck(error: code, reason: reason)
        case .wrongError(let expected, _, let actual):
            let reason = operation.reason(c.input)
            if let e = order.firstIndex(of: expected), let a = order.firstIndex(of: actual), a > e {
                found.kind = .missedCheck(error: expected, reason: reason)
            } else {
                found.kind = .wrongError(expected: expected, reason: reason, actual: actual)
            }
        default: break
        }
        return found
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double { (clock.now - start) / .seconds(1) }

    /// Cases `first..<first + count` of the run, each for the operation whose turn it is among `active`: what the
    /// run sends to the implementation next. Made on another thread while the implementation answers the batch
    /// before (the two processes then work at once).
    struct Batch: Sendable {
        var cases: [ConformanceCase] = []
        var numbers: [Int] = []
        var operations: [ExploredOperation] = []
        var end: Int

        /// Only the first `count` cases; the batch then ends after the last of them.
        mutating func keepFirst(_ count: Int) {
            guard count < cases.count, count > 0 else { return }
            cases.removeLast(cases.count - count)
            operations.removeLast(operations.count - count)
            numbers.removeLast(numbers.count - count)
            end = numbers[count - 1] + 1
        }
    }

    static func makeBatch(seed: UInt64, first: Int, count: Int, active: [ExploredOperation]) -> Batch {
        var batch = Batch(end: first + count)
        batch.cases.reserveCapacity(count)
        let source = ChoiceSource(seed: 0)
        for number in first..<(first + count) {
            let operation = active[number % active.count]
            source.reset(seed: caseSeed(seed, number))
            let input = operation.input.generate(using: source)
            guard !source.isInvalid, let c = makeCase(operation.name, input, id: "explore/\(number)") else { continue }
            batch.cases.append(c)
            batch.numbers.append(number)
            batch.operations.append(operation)
        }
        return batch
    }

    /// ``makeBatch(seed:first:count:active:)`` with each half made on a thread of its own: making the cases (and
    /// the reference's answers) is most of an exploration's work, and the implementation answers on other cores.
    static func makeBatchInHalves(seed: UInt64, first: Int, count: Int, active: [ExploredOperation]) -> Batch {
        guard count >= 256 else { return makeBatch(seed: seed, first: first, count: count, active: active) }
        let half = count / 2
        let second = Pending { makeBatch(seed: seed, first: first + half, count: count - half, active: active) }
        var batch = makeBatch(seed: seed, first: first, count: half, active: active)
        if let rest = second.wait() {
            batch.cases += rest.cases
            batch.numbers += rest.numbers
            batch.operations += rest.operations
            batch.end = rest.end
        }
        return batch
    }

    /// Runs until the limit; `progress` is called after every batch and while shrinking.
    public func run(progress: (ExploreProgress) -> Void = { _ in }) -> ExploreResult {
        let start = clock.now
        var active = configuration.operations
        var unsupported: [String] = []
        var unsupportedInputs: [String: Int] = [:]
        var supportedOperations: Set<String> = []
        var findings: [String: Finding] = [:]
        var answered = 0
        var batchSize = 256
        var shrinkSpent = 0.0
        var warned = false
        let seed = configuration.seed
        /// Where the run is, for `progress`.
        func status(_ n: Int, shrinking: String? = nil) -> ExploreProgress {
            let d = implementation.diagnostics
            var p = ExploreProgress(
                cases: n, findings: findings.count, seconds: seconds(since: start), shrinking: shrinking,
                shrinkSeconds: shrinkSpent, restarts: d.restarts, restartSeconds: d.restartSeconds,
                survivedCrashes: d.survivedCrashes)
            if !warned, case .cases(let limit) = configuration.limit, p.seconds >= 3, n > 0 {
                let projected = p.seconds * Double(limit) / Double(n)
                if projected > 600 {
                    warned = true
                    p.projectedSeconds = projected
                }
            }
            return p
        }
        /// The seconds the next shrink may take (0: keep the case as found), and whether a further example of a
        /// known finding is still worth shrinking.
        func shrinkAllowance(firstOfItsKind: Bool) -> Double? {
            guard case .seconds(let limit) = configuration.limit else { return configuration.shrinkSeconds }
            let elapsed = seconds(since: start)
            let left = min(limit * configuration.shrinkShare - shrinkSpent, limit - elapsed)
            if left > 0 { return min(configuration.shrinkSeconds, max(configuration.lateShrinkSeconds, left)) }
            guard firstOfItsKind else { return nil }
            return elapsed < limit + 1 ? configuration.lateShrinkSeconds : 0
        }
        /// The size of the batch that starts at case `first`: `batchSize`, or what is left of a case limit.
        func count(from first: Int) -> Int {
            if case .cases(let limit) = configuration.limit { return max(0, min(batchSize, limit - first)) }
            return batchSize
        }
        func done(_ n: Int) -> Bool {
            switch configuration.limit {
            case .cases(let limit): return n >= limit
            case .seconds(let limit): return seconds(since: start) >= limit
            }
        }
        var n = 0
        var next: Batch? =
            active.isEmpty || done(0)
            ? nil : Self.makeBatch(seed: seed, first: 0, count: count(from: 0), active: active)
        var secondsPerCase: Double?
        while var batch = next {
            let batchStart = clock.now
            // Near a time limit, only the cases that fit in what is left, at the last batch's pace: an adapter that
            // traps often answers a batch slowly, and the limit is kept within about a second.
            if case .seconds(let limit) = configuration.limit, let pace = secondsPerCase, pace > 0 {
                let fits = max(1, Int((limit - seconds(since: start)) / pace))
                if fits < batch.cases.count { batch.keepFirst(fits) }
            }
            n = batch.end
            let following: Pending<Batch>? =
                done(n)
                ? nil
                : { [active, first = n, size = count(from: n)] in
                    Pending { Self.makeBatchInHalves(seed: seed, first: first, count: size, active: active) }
                }()
            let answers = implementation.answer(batch.cases) { _ in }
            let answerSeconds = seconds(since: batchStart)
            if !batch.cases.isEmpty { secondsPerCase = answerSeconds / Double(batch.cases.count) }
            for answer in answers {
                switch answer {
                case .output, .error, .unsupported: answered += 1
                default: break
                }
            }
            if answered == 0 && !batch.cases.isEmpty {
                _ = following?.wait()
                let detail = answers.first.map { CaseResult(caseIndex: 0, status: .crash, answer: $0).problem } ?? ""
                return result(start, n, unsupported, unsupportedInputs, findings, shrinkSpent, failedToStart: detail)
            }
            // An operation answered `unsupported` for a whole batch is dropped; one with other answers only skips
            // those cases.
            var unsupportedNow: [String: Int] = [:]
            for index in batch.cases.indices where index < answers.count {
                if case .unsupported = answers[index] {
                    unsupportedNow[batch.operations[index].name, default: 0] += 1
                } else {
                    supportedOperations.insert(batch.operations[index].name)
                }
            }
            for (name, count) in unsupportedNow {
                if supportedOperations.contains(name) {
                    unsupportedInputs[name, default: 0] += count
                } else if !unsupported.contains(name) {
                    unsupported.append(name)
                }
            }
            for index in batch.cases.indices where index < answers.count {
                let answer = answers[index]
                let operation = batch.operations[index]
                if case .unsupported = answer { continue }
                guard let found = Self.discrepancy(operation, batch.cases[index], answer) else { continue }
                let occurrence = (findings[found.key]?.occurrences ?? 0) + 1
                findings[found.key]?.occurrences = occurrence
                // Shrink a few occurrences, spread over the run (``Finding/shrunkOccurrences``), within the budget.
                guard Finding.shrunkOccurrences.contains(occurrence),
                    let allowance = shrinkAllowance(firstOfItsKind: occurrence == 1)
                else { continue }
                progress(status(n, shrinking: found.key))
                let example = shrink(
                    operation, number: batch.numbers[index], found: found, answer: answer,
                    foundAfter: seconds(since: start), seconds: allowance)
                shrinkSpent += example.shrinkSeconds
                if var finding = findings[found.key] {
                    if !finding.examples.contains(where: { $0.minimal.input == example.minimal.input }) {
                        finding.examples.append(example)
                        findings[found.key] = finding
                    }
                } else {
                    findings[found.key] = Finding(discrepancy: found, examples: [example], occurrences: 1)
                }
                if configuration.stopsAtFirstFinding {
                    _ = following?.wait()
                    return result(
                        start, batch.numbers[index] + 1, unsupported, unsupportedInputs, findings, shrinkSpent,
                        failedToStart: nil)
                }
            }
            active.removeAll { unsupported.contains($0.name) }
            progress(status(n))
            // Batches of about a fifth of a second: progress stays live, pipelining stays full, and a time limit is
            // kept within a batch (one that crashes often answers slowly).
            if answerSeconds < 0.2 && batchSize < 4096 {
                batchSize *= 4
            } else if answerSeconds > 0.5 && batchSize > 4 {
                batchSize = max(4, batchSize / 4)
            }
            next = following?.wait()
            // A batch made before an operation turned out unsupported still holds its cases: they are skipped.
            if active.isEmpty { next = nil }
        }
        return result(start, n, unsupported, unsupportedInputs, findings, shrinkSpent, failedToStart: nil)
    }

    private func result(
        _ start: ContinuousClock.Instant, _ cases: Int, _ unsupported: [String], _ unsupportedInputs: [String: Int],
        _ findings: [String: Finding], _ shrinkSeconds: Double, failedToStart: String?
    ) -> ExploreResult {
        ExploreResult(
            seed: configuration.seed, operations: configuration.operations.map(\.name), unsupported: unsupported,
            unsupportedInputs: unsupportedInputs.filter { !unsupported.contains($0.key) },
            shrinkSeconds: shrinkSeconds, cases: cases, seconds: seconds(since: start),
            findings: findings.values.sorted { $0.key < $1.key }, failedToStart: failedToStart,
            diagnostics: implementation.diagnostics)
    }

    /// The case, answer and discrepancy that `choices` (``ChoiceSequence/bytes``) make for `operation`.
    public func replay(_ operation: ExploredOperation, choices: [UInt8]) -> (
        case: ConformanceCase, answer: Answer, discrepancy: Discrepancy?
    )? {
        let input = operation.input.generate(from: choices)
        guard let c = Self.makeCase(operation.name, input, id: "explore/replay") else { return nil }
        let answer = self.answer(c)
        return (c, answer, Self.discrepancy(operation, c, answer))
    }

    /// Shrinks case `number`, which shows `found` (answered `originalAnswer`), against the implementation, for at
    /// most `allowance` seconds. The minimal case's answer is the one its failing replay got, so no replay is
    /// made after the last (a trap or a hang costs one each).
    private func shrink(
        _ operation: ExploredOperation, number: Int, found: Discrepancy, answer originalAnswer: Answer,
        foundAfter: Double, seconds allowance: Double
    ) -> FindingExample {
        let start = clock.now
        let original = ChoiceSource(seed: Self.caseSeed(configuration.seed, number))
        let originalInput = operation.input.generate(using: original)
        let failing = ChoiceSequence(choices: original.choices, maxima: original.maxima)
        let failingAnswers = AnswersByInput()
        failingAnswers.byInput[JSONWriter.bytes(originalInput)] = originalAnswer
        var shrinker = Shrinker(failing: failing, budget: configuration.shrinkBudget) { [self] candidate in
            let source = ChoiceSource(replaying: candidate)
            let input = operation.input.generate(using: source)
            let sequence = ChoiceSequence(choices: source.choices, maxima: source.maxima)
            guard seconds(since: start) < allowance, !source.isInvalid,
                let c = Self.makeCase(operation.name, input, id: "explore/shrink")
            else { return ShrinkTrial(failed: false, sequence: sequence) }
            let answer = self.answer(c)
            let failed = Self.discrepancy(operation, c, answer) == found
            if failed { failingAnswers.byInput[JSONWriter.bytes(input)] = answer }
            return ShrinkTrial(failed: failed, sequence: sequence)
        }
        let best = shrinker.shrink()
        let input = operation.input.generate(replaying: best.choices)
        let minimal =
            Self.makeCase(operation.name, input, id: "explore/minimal")
            ?? ConformanceCase(
                id: "explore/minimal", suite: "explore", op: operation.name, input: input, expect: .error(""))
        let answer = failingAnswers.byInput[JSONWriter.bytes(input)] ?? self.answer(minimal)
        let mismatch = Matcher.judge(minimal, answer)
        return FindingExample(
            minimal: minimal, answer: answer,
            mismatch: CaseResult(caseIndex: 0, status: mismatch.status, answer: answer, mismatch: mismatch.mismatch)
                .problem,
            choices: best.bytes, originalSize: JSONWriter.bytes(originalInput).count,
            minimalSize: JSONWriter.bytes(input).count, foundAfter: foundAfter, caseNumber: number + 1,
            shrinkSteps: shrinker.steps, shrinkSeconds: seconds(since: start))
    }
}

/// The answers of the failing replays of one shrink, by the input's compact JSON.
final class AnswersByInput {
    var byInput: [[UInt8]: Answer] = [:]
}

/// A value computed on another thread; ``wait()`` blocks until it is there.
final class Pending<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    private let ready = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.value = work()
            self.ready.signal()
        }
    }

    func wait() -> Value? {
        ready.wait()
        ready.signal()
        return value
    }
}
