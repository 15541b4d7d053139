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
