// The public shrinking challenge (github jlink/shrinking-challenge), written against PropertyTesting as a user
// would: the engine's combinators only, no hand-made shrinking. `swift test` checks each challenge over a few
// fixed seeds (Tests/PropertyTestingTests/ShrinkingChallengeTests.swift) and `lab bench --filter shrink` over many
// (Lab/Sources/Benchmarking/ShrinkBenchmarks.swift); both run these definitions.

import PropertyTesting

/// One challenge: a generator, a property that some generated values falsify, and the documented smallest
/// counterexample.
public struct ShrinkingChallenge: Sendable {
    /// The challenge's name in the challenge repository (`bound5`, `difference-must-not-be-zero`, …).
    public let name: String
    /// The documented minimum, as the challenge writes it.
    public let minimum: String
    /// Random cases a run may try to find its first failure (some failures are rare under random generation).
    public let iterations: Int
    let body: @Sendable (_ seed: UInt64, _ iterations: Int, _ maxShrinkSteps: Int) -> ShrinkingOutcome

    /// A challenge over `gen`: `holds` is the property (throwing `Discard` discards the case), `isMinimal` says
    /// whether a counterexample is the documented minimum.
    public init<Value>(
        _ name: String, minimum: String, iterations: Int = 1_000, _ gen: Gen<Value>,
        describe: @escaping @Sendable (Value) -> String = { String(describing: $0) },
        holds: @escaping @Sendable (Value) throws -> Bool,
        isMinimal: @escaping @Sendable (Value) -> Bool
    ) {
        self.name = name
        self.minimum = minimum
        self.iterations = iterations
        body = { seed, iterations, maxShrinkSteps in
            // Counts the property's evaluations: those after the first failure, less the runner's final replay
            // of the shrunk case, are the ones shrinking made.
            var calls = 0
            var firstFailure: Int? = nil
            let check = PropertyRunner.check(
                name, gen,
                config: RunConfiguration(
                    seed: seed, iterations: iterations, maxShrinkSteps: maxShrinkSteps, saveFailures: false),
                describe: describe
            ) { value in
                calls += 1
                let holding = try holds(value)
                if !holding && firstFailure == nil { firstFailure = calls }
                return holding
            }
            guard let value = check.counterexample, let failure = check.result.failure, let first = firstFailure else {
                return ShrinkingOutcome(
                    found: false, minimal: false, counterexample: nil, evaluations: 0, replays: 0,
                    shrinkDuration: .zero)
            }
            return ShrinkingOutcome(
                found: true, minimal: isMinimal(value), counterexample: failure.counterexample,
                evaluations: Swift.max(0, calls - first - 1), replays: failure.shrinkSteps,
                shrinkDuration: check.result.shrinkingDuration)
        }
    }

    /// Finds a failure from `seed` (at most `iterations` random cases), shrinks it with the engine's default
    /// budget unless told otherwise, and says how it went.
    public func run(seed: UInt64, iterations: Int? = nil, maxShrinkSteps: Int = RunConfiguration().maxShrinkSteps)
        -> ShrinkingOutcome
    {
        body(seed, iterations ?? self.iterations, maxShrinkSteps)
    }
}

/// How one run of a challenge went.
public struct ShrinkingOutcome: Sendable, Equatable {
    /// Whether the random phase found a failing case at all.
    public var found: Bool
    /// Whether the shrunk counterexample is the documented minimum.
    public var minimal: Bool
    /// The shrunk counterexample, described.
    public var counterexample: String?
    /// Property evaluations made while shrinking (replays whose generation was discarded are not evaluations).
    public var evaluations: Int
    /// Replays the shrinker made (`PropertyFailure.shrinkSteps`).
    public var replays: Int
    public var shrinkDuration: Duration
}
