/// How long an exploration runs.
public enum ExploreLimit: Sendable, Hashable {
    /// Exactly this many generated cases (with a fixed seed, the run is deterministic).
    case cases(Int)
    /// Until this many seconds have passed (shrinking included).
    case seconds(Double)
}

/// What `stc explore` runs: which operations, from which seed, for how long, and how hard it shrinks.
public struct ExploreConfiguration: Sendable {
    public var operations: [ExploredOperation]
    public var seed: UInt64
    public var limit: ExploreLimit
    /// Most replays the shrinker may ask of the implementation for one finding.
    public var shrinkBudget: Int
    /// Most seconds shrinking one finding may take (a crashing adapter is restarted for every failing replay).
    public var shrinkSeconds: Double
    /// The share of a `.seconds` limit that shrinking may take in all: past it, and past the limit, generation no
    /// longer waits on shrinking (see ``Explorer``).
    public var shrinkShare: Double
    /// What a new finding still gets once the share or the time is spent, so that every finding is shrunk.
    public var lateShrinkSeconds: Double
    /// Stop at the first discrepancy (after shrinking it, within the budget) instead of running to the limit:
    /// how the bug-finding benchmark times the explorer (its `foundAfter` is the time to the first finding).
    public var stopsAtFirstFinding: Bool

    public init(
        operations: [ExploredOperation] = ExploredOperations.all, seed: UInt64, limit: ExploreLimit,
        shrinkBudget: Int = 2_000, shrinkSeconds: Double = 10, shrinkShare: Double = 0.5,
        lateShrinkSeconds: Double = 0.25, stopsAtFirstFinding: Bool = false
    ) {
        self.operations = operations
        self.seed = seed
        self.limit = limit
        self.shrinkBudget = shrinkBudget
        self.shrinkSeconds = shrinkSeconds
        self.shrinkShare = shrinkShare
        self.lateShrinkSeconds = lateShrinkSeconds
        self.stopsAtFirstFinding = stopsAtFirstFinding
    }
}
