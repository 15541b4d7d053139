import ShrinkingChallenges

/// How well the shrinker does on one challenge of the public shrinking challenge, over many seeds.
public struct ShrinkFigure: Sendable {
    /// `shrink.<challenge>`.
    public var id: String
    public var label: String
    /// Runs, one per seed (seeds 1…`seeds`).
    public var seeds: Int
    /// Runs whose random phase found a failure.
    public var found: Int
    /// Runs that shrank to the documented minimum.
    public var minimal: Int
    /// Median over the runs that found a failure: property evaluations while shrinking, and seconds shrinking.
    public var medianEvaluations: Double
    public var medianShrinkSeconds: Double

    /// Minimal runs out of all runs (a run that found no failure is not minimal).
    public var fractionMinimal: Double { seeds > 0 ? Double(minimal) / Double(seeds) : 0 }
}

extension BenchSuite {
    func shrinkSection(into report: inout BenchReport) {
        for challenge in challenges where selected("shrink." + challenge.name) {
            let outcomes = (1...Swift.max(1, shrinkSeeds)).map { challenge.run(seed: UInt64($0)) }
            let found = outcomes.filter(\.found)
            let evaluations = found.map { Double($0.evaluations) }
            let seconds = found.map { $0.shrinkDuration / .seconds(1) }
            report.shrinkFigures.append(
                ShrinkFigure(
                    id: "shrink.\(challenge.name)", label: challenge.name, seeds: outcomes.count, found: found.count,
                    minimal: outcomes.filter(\.minimal).count,
                    medianEvaluations: evaluations.isEmpty ? 0 : Stats(evaluations).median,
                    medianShrinkSeconds: seconds.isEmpty ? 0 : Stats(seconds).median))
        }
    }
}
