import PropertyTesting
import ShrinkingChallenges
import Testing

/// The public shrinking challenge (Lab/Sources/ShrinkingChallenges): every challenge shrinks to its documented minimum
/// from a few fixed seeds, with the runner's default shrink budget. `lab bench --filter shrink` runs the same
/// challenges over 50 seeds and reports how many runs reach the minimum and what they cost.
@Suite struct ShrinkingChallengeTests {
    static let seeds: [UInt64] = [1, 2, 3]

    @Test(arguments: ShrinkingChallenges.all.map(\.name))
    func reachesTheDocumentedMinimum(name: String) throws {
        let challenge = try #require(ShrinkingChallenges.named(name))
        for seed in Self.seeds {
            let outcome = challenge.run(seed: seed)
            #expect(outcome.found, "\(name), seed \(seed): no failure in \(challenge.iterations) cases")
            #expect(
                outcome.minimal,
                "\(name), seed \(seed): shrank to \(outcome.counterexample ?? "-"), not \(challenge.minimum)")
        }
    }

    @Test func theCatalogIsTheThirteenChallenges() {
        #expect(
            ShrinkingChallenges.all.map(\.name) == [
                "bound5", "large_union_list", "reverse", "calculator", "lengthlist", "difference-must-not-be-zero",
                "difference-must-not-be-small", "difference-must-not-be-one", "binheap", "coupling", "deletion",
                "distinct", "nestedlists",
            ])
    }

    @Test func evaluationsCountOnlyTheShrinkingPhase() throws {
        // `reverse` from seed 1 fails on its first case; every later evaluation but the final replay is shrinking.
        let outcome = ShrinkingChallenges.reverse.run(seed: 1)
        #expect(outcome.found && outcome.evaluations > 0)
        #expect(outcome.evaluations <= outcome.replays, "each evaluation is a replay; a replay may be discarded")
        let unshrunk = ShrinkingChallenges.reverse.run(seed: 1, maxShrinkSteps: 0)
        #expect(unshrunk.evaluations == 0 && unshrunk.replays == 0)
    }
}
