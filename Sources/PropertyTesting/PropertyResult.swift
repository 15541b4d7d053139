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
