/// A check of an implementation that reports what it found as ``CheckIssue``s: ``ConformanceCheck`` (the shipped
/// vectors) and ``ExplorationCheck`` (generated cases).
///
/// `run(_:relativeTo:)` is pure: it records nothing. `expect(_:sourceLocation:)` records the issues in the
/// running Swift Testing test, `assert(_:file:line:)` in the running XCTest test; both read relative paths from
/// the directory of the calling test file.
///
/// ```swift
/// @Test func vectors() { ConformanceCheck().expect(app) }
/// func testVectors() { ConformanceCheck().assert(app) }
/// ```
public protocol ImplementationCheck: Sendable {
    associatedtype Outcome: ImplementationCheckResult
    /// Runs the check; relative paths (lists, suites) are read from `directory`.
    func run(_ implementation: ScreenTimeImplementation, relativeTo directory: String) -> Outcome
}

/// What a check found.
public protocol ImplementationCheckResult: Sendable {
    /// Every issue, the summary first when the check failed; known issues are the listed deviations.
    var issues: [CheckIssue] { get }
    /// A few lines: what ran, the counts, what was left out, and the verdict.
    var summary: String { get }
}

extension ImplementationCheckResult {
    /// Whether nothing but known issues was found.
    public var passed: Bool { !issues.contains { !$0.isKnown } }
}
