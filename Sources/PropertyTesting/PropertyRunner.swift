// Running a property: saved regressions first, then N random cases from a seed; on the first failure,
// shrink the choice sequence, save it as a regression, and report the minimal counterexample with the
// lines that reproduce it.

/// How one property run is carried out.
public struct RunConfiguration: Sendable {
    /// The run seed; nil picks a fresh one (always printed in the report, so any run can be repeated).
    public var seed: UInt64?
    /// Valid random cases to try (discarded cases do not count).
    public var iterations: Int
    /// Most replays the shrinker may spend.
    public var maxShrinkSteps: Int
    /// Most discarded cases before the run gives up; nil means `10 * iterations + 100`.
    public var maxDiscards: Int?
    /// Most choices one case may make (further choices are 0 and the case is discarded).
    public var maxChoices: Int
    /// Replay exactly this choice sequence (bytes, as printed after `--replay`) instead of random cases.
    public var replay: [UInt8]?
    /// Where regressions are read from and saved to; nil disables both.
    public var regressions: RegressionStore?
    /// Save a failing (shrunk) case to `regressions`.
    public var saveFailures: Bool
    /// Shrink failures (turn off to see the first failing case as found).
    public var shrink: Bool
    /// The command that reruns a property by name, used in the printed reproduction lines.
    public var command: String

    public init(
        seed: UInt64? = nil,
        iterations: Int = 100,
        maxShrinkSteps: Int = 5_000,
        maxDiscards: Int? = nil,
        maxChoices: Int = 10_000,
        replay: [UInt8]? = nil,
        regressions: RegressionStore? = nil,
        saveFailures: Bool = true,
        shrink: Bool = true,
        command: String = "stc check"
    ) {
        self.seed = seed
        self.iterations = iterations
        self.maxShrinkSteps = maxShrinkSteps
        self.maxDiscards = maxDiscards
        self.maxChoices = maxChoices
        self.replay = replay
        self.regressions = regressions
        self.saveFailures = saveFailures
        self.shrink = shrink
        self.command = command
    }
}

/// Thrown from a property body to discard the current case (it then counts as discarded, not passed).
public struct Discard: Error, Sendable {
    public init() {}
}

/// Discards the current case unless `condition` holds.
@inlinable
public func assume(_ condition: Bool) throws {
    if !condition { throw Discard() }
}

/// Where a failing case came from.
public enum FailureOrigin: Sendable, Equatable {
    /// A saved regression file (path).
    case regression(String)
    /// Random case number `index` (0-based) of the run.
    case random(index: Int)
    /// The choice sequence given in `RunConfiguration.replay`.
    case replay
}

/// A failing case after shrinking.
public struct PropertyFailure: Sendable, Equatable {
    /// The minimal counterexample, described.
    public var counterexample: String
    /// Why it fails (the property's message, "returned false", or the error thrown).
    public var message: String
    /// The minimal case's choice bytes: `--replay` argument, regression file content, fuzzer input.
    public var choiceBytes: [UInt8]
    /// The counterexample as first found, before shrinking.
    public var original: String
    public var origin: FailureOrigin
    /// Replays the shrinker spent, and how many of them simplified the case.
    public var shrinkSteps: Int
    public var shrinkImprovements: Int
    /// Path of the regression file holding this case, if one was saved (or already existed).
    public var savedRegression: String?
    /// Why saving the regression failed, if it did.
    public var saveError: String?

    /// `choiceBytes` as hex.
    public var replayHex: String { Hex.encode(choiceBytes) }
}

/// The outcome and statistics of one property run.
public struct PropertyResult: Sendable {
    public enum Status: Sendable, Equatable {
        case passed
        case failed
        /// Too many discarded cases to reach `iterations` valid ones.
        case gaveUp
    }

    public var name: String
    public var status: Status
    public var seed: UInt64
    public var iterations: Int
    /// Valid random cases run (the failing one included).
    public var casesRun: Int
    /// Cases discarded (filters that gave up, `assume`, too many choices).
    public var discarded: Int
    /// Regression files replayed before the random cases.
    public var regressionsReplayed: Int
    /// Time generating and testing cases (shrinking excluded), and time shrinking.
    public var testingDuration: Duration
    public var shrinkingDuration: Duration
    public var failure: PropertyFailure?
    /// Command prefix for the reproduction lines.
    public var command: String

    public var passed: Bool { status == .passed }

    /// Cases (valid and discarded) per second of testing time.
    public var casesPerSecond: Double {
        let c = testingDuration.components
        let seconds = Double(c.seconds) + Double(c.attoseconds) * 1e-18
        return seconds > 0 ? Double(casesRun + discarded) / seconds : 0
    }

    /// One line that replays exactly the minimal failing case.
    public var replayLine: String? {
        failure.map { "\(command) \(name) --replay \($0.choiceBytes.isEmpty ? "\"\"" : $0.replayHex)" }
    }

    /// One line that reruns the whole run.
    public var rerunLine: String { "\(command) \(name) --seed \(seed) --iterations \(iterations)" }

    /// A human-readable report: the verdict, seed, statistics, and for a failure the counterexample,
    /// the message and the reproduction lines.
    public var report: String {
        let rate = Int(casesPerSecond.rounded())
        let stats =
            "\(casesRun) cases, \(discarded) discarded, \(regressionsReplayed) regressions replayed, \(rate) cases/s"
        switch status {
        case .passed:
            return "✓ \(name): passed (seed \(seed); \(stats))"
        case .gaveUp:
            return
                "? \(name): gave up after \(discarded) discarded cases (seed \(seed); \(stats))\n  Rerun: \(rerunLine)"
        case .failed:
            guard let failure else { return "✗ \(name): failed (seed \(seed))" }
            var origin: String
            switch failure.origin {
            case .random(let index): origin = "random case \(index + 1)"
            case .regression(let path): origin = "saved regression \(path)"
            case .replay: origin = "the replayed case"
            }
            var lines = [
                "✗ \(name): failed on \(origin) (seed \(seed); \(stats))",
                "  Counterexample (\(failure.shrinkImprovements) simplifications in \(failure.shrinkSteps) replays):",
                indent(failure.counterexample, by: "    "),
                "  Failure: \(failure.message)",
            ]
            if failure.original != failure.counterexample {
                lines.append("  Originally:")
                lines.append(indent(failure.original, by: "    "))
            }
            if let replayLine { lines.append("  Replay: \(replayLine)") }
            lines.append("  Rerun:  \(rerunLine)")
            if let saved = failure.savedRegression { lines.append("  Saved regression: \(saved)") }
            if let error = failure.saveError { lines.append("  Could not save regression: \(error)") }
            return lines.joined(separator: "\n")
        }
    }

    func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}

/// A result with the typed minimal counterexample (for tests that inspect it).
public struct CheckResult<Value> {
    public var result: PropertyResult
    public var counterexample: Value?
}

/// Runs properties.
public enum PropertyRunner {
    /// Checks that `body` returns true for every generated value.
    public static func check<Value>(
        _ name: String = "property",
        _ gen: Gen<Value>,
        config: RunConfiguration = RunConfiguration(),
        describe: ((Value) -> String)? = nil,
        _ body: (Value) throws -> Bool
    ) -> CheckResult<Value> {
        check(
            name, gen, config: config, describe: describe,
            failureMessage: { value in
                try body(value) ? nil : "property returned false"
            })
    }

    /// Checks that `body` returns nil (no failure message) for every generated value. Throwing `Discard`
    /// (see `assume`) discards the case; throwing anything else is a failure.
    public static func check<Value>(
        _ name: String = "property",
        _ gen: Gen<Value>,
        config: RunConfiguration = RunConfiguration(),
        describe: ((Value) -> String)? = nil,
        failureMessage body: (Value) throws -> String?
    ) -> CheckResult<Value> {
        withoutActuallyEscaping(body) { body in
            let run = Run(
                name: name, gen: gen, config: config, describe: describe ?? { String(reflecting: $0) }, body: body)
            return run.execute()
        }
    }
}

/// One run's state.
struct Run<Value> {
    enum Verdict {
        case pass
        case fail(String)
        case invalid
    }

    let name: String
    let gen: Gen<Value>
    let config: RunConfiguration
    let describe: (Value) -> String
    let body: (Value) throws -> String?

    /// `10 * iterations + 100`, saturating.
    static func defaultMaxDiscards(_ iterations: Int) -> Int {
        let (tenfold, overflow) = Swift.max(0, iterations).multipliedReportingOverflow(by: 10)
        return overflow || tenfold > Int.max - 100 ? Int.max : tenfold + 100
    }

    func verdict(_ value: Value, _ source: ChoiceSource) -> Verdict {
        if source.isInvalid { return .invalid }
        do {
            if let message = try body(value) { return .fail(message) }
            return .pass
        } catch is Discard {
            return .invalid
        } catch {
            return .fail("threw \(String(reflecting: error))")
        }
    }

    func evaluate(_ source: ChoiceSource) -> (Verdict, Value) {
        let value = gen.generate(using: source)
        return (verdict(value, source), value)
    }

    func execute() -> CheckResult<Value> {
        let clock = ContinuousClock()
        let started = clock.now
        let seed = config.seed ?? UInt64.random(in: .min ... .max)
        var result = PropertyResult(
            name: name, status: .passed, seed: seed, iterations: config.iterations, casesRun: 0, discarded: 0,
            regressionsReplayed: 0, testingDuration: .zero, shrinkingDuration: .zero, failure: nil,
            command: config.command)
        var found: (sequence: ChoiceSequence, original: String, origin: FailureOrigin)? = nil

        func record(_ source: ChoiceSource, _ value: Value, _ origin: FailureOrigin) {
            found = (ChoiceSequence(choices: source.choices, maxima: source.maxima), describe(value), origin)
        }

        if let bytes = config.replay {
            // Exactly the given case: no regressions, no random cases, no shrinking.
            let source = ChoiceSource(bytes: bytes, maxChoices: config.maxChoices)
            let (verdict, value) = evaluate(source)
            result.casesRun = 1
            result.testingDuration = clock.now - started
            switch verdict {
            case .pass: return CheckResult(result: result, counterexample: nil)
            case .invalid:
                result.discarded = 1
                result.casesRun = 0
                result.status = .gaveUp
                return CheckResult(result: result, counterexample: nil)
            case .fail(let message):
                result.status = .failed
                result.failure = PropertyFailure(
                    counterexample: describe(value), message: message, choiceBytes: bytes, original: describe(value),
                    origin: .replay, shrinkSteps: 0, shrinkImprovements: 0, savedRegression: nil, saveError: nil)
                return CheckResult(result: result, counterexample: value)
            }
        }

        // 1. Every saved regression, in file-name order, before any random case.
        if let store = config.regressions {
            for entry in store.load(property: name) {
                result.regressionsReplayed += 1
                let source = ChoiceSource(bytes: entry.bytes, maxChoices: config.maxChoices)
                let (verdict, value) = evaluate(source)
                if case .fail = verdict {
                    record(source, value, .regression(entry.path))
                    break
                }
            }
        }

        // 2. Random cases.
        if found == nil {
            let maxDiscards = config.maxDiscards ?? Run.defaultMaxDiscards(config.iterations)
            let source = ChoiceSource(seed: 0, maxChoices: config.maxChoices)
            var index = 0
            while result.casesRun < config.iterations {
                source.reset(seed: SplitMix64.mix(seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03))
                let (verdict, value) = evaluate(source)
                switch verdict {
                case .pass:
                    result.casesRun += 1
                case .invalid:
                    result.discarded += 1
                case .fail:
                    result.casesRun += 1
                    record(source, value, .random(index: index))
                }
                if found != nil { break }
                if result.discarded > maxDiscards {
                    result.status = .gaveUp
                    break
                }
                index += 1
            }
        }
        let tested = clock.now
        result.testingDuration = tested - started

        guard let failing = found else { return CheckResult(result: result, counterexample: nil) }

        // 3. Shrink, then describe the minimal case from a fresh replay.
        var best = failing.sequence
        var steps = 0
        var improvements = 0
        if config.shrink {
            let maxChoices = config.maxChoices
            var shrinker = Shrinker(failing: failing.sequence, budget: config.maxShrinkSteps) { candidate in
                let source = ChoiceSource(replaying: candidate, maxChoices: maxChoices, recordingStructure: true)
                let (verdict, _) = evaluate(source)
                var failed = false
                if case .fail = verdict { failed = true }
                return ShrinkTrial(
                    failed: failed, sequence: ChoiceSequence(choices: source.choices, maxima: source.maxima),
                    structure: failed ? source.structure : nil)
            }
            best = shrinker.shrink()
            steps = shrinker.steps
            improvements = shrinker.improvements
        }
        let finalSource = ChoiceSource(replaying: best.choices, maxChoices: config.maxChoices)
        let (finalVerdict, finalValue) = evaluate(finalSource)
        let message: String
        if case .fail(let text) = finalVerdict {
            message = text
        } else {
            message = "(the shrunk case no longer fails: flaky property)"
        }
        let bytes = best.bytes

        var saved: String? = nil
        var saveError: String? = nil
        if config.saveFailures, let store = config.regressions {
            do { saved = try store.save(bytes, property: name) } catch { saveError = String(describing: error) }
        }
        result.status = .failed
        result.failure = PropertyFailure(
            counterexample: describe(finalValue), message: message, choiceBytes: bytes, original: failing.original,
            origin: failing.origin, shrinkSteps: steps, shrinkImprovements: improvements,
            savedRegression: saved, saveError: saveError)
        result.shrinkingDuration = clock.now - tested
        return CheckResult(result: result, counterexample: finalValue)
    }
}
