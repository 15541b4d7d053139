import Conformance

/// Where a run is, for progress lines.
public struct ExploreProgress: Sendable {
    public var cases: Int
    public var findings: Int
    public var seconds: Double
    /// The finding being shrunk, if any.
    public var shrinking: String?
    /// Seconds spent shrinking so far.
    public var shrinkSeconds: Double = 0
    /// The implementation's restarts so far, what they cost, and the crashes it survived without one.
    public var restarts: Int = 0
    public var restartSeconds: Double = 0
    public var survivedCrashes: Int = 0
    /// Set once, early in a `.cases` run that will take long: how long it will take at the rate so far.
    public var projectedSeconds: Double?
}

/// Everything a run found.
public struct ExploreResult: Sendable {
    public var seed: UInt64
    public var operations: [String]
    /// Operations the implementation answered `unsupported` every time: reported once, then no longer generated.
    public var unsupported: [String]
    /// Operations answered for some inputs and `unsupported` for others (an adapter without a closure for one
    /// storage format, say): how many of their cases were answered `unsupported`, and skipped.
    public var unsupportedInputs: [String: Int] = [:]
    /// Seconds spent shrinking, within ``seconds``.
    public var shrinkSeconds: Double = 0
    public var cases: Int
    public var seconds: Double
    /// One per distinct discrepancy, sorted by key.
    public var findings: [Finding]
    /// Set when the implementation answered no request at all (it could not start): the run stops.
    public var failedToStart: String?
    public var diagnostics: ImplementationDiagnostics

    /// Cases per second, shrinking included.
    public var rate: Double { seconds > 0 ? Double(cases) / seconds : 0 }
    /// The findings by root cause (``FindingGroup/grouping(_:)``).
    public var groups: [FindingGroup] { FindingGroup.grouping(findings) }
}
