// Running a property: saved regressions first, then N random cases from a seed; on the first failure,
// shrink the choice sequence, save it as a regression, and report the minimal counterexample with the
// lines that reproduce it.

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
