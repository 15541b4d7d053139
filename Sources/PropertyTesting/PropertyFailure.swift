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
