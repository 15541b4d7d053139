/// A check of an implementation that reports what it found as ``CheckIssue``s: ``ConformanceCheck`` (the shipped
/// vectors) and ``ExplorationCheck`` (generated cases).
///
/// `run(_:relativeTo:)` is pure: it records nothing. `verify(_:)` records the issues in whichever framework runs
/// the caller (Swift Testing or XCTest), and reads relative paths from the directory of the calling test file.
///
/// ```swift
/// @Test func vectors() { ConformanceCheck().verify(app) }
/// func testVectors() { ConformanceCheck().verify(app) }
/// ```
public protocol ImplementationCheck: Sendable {
    /// What ``run(_:relativeTo:)`` returns.
    associatedtype Outcome: ImplementationCheckResult
    /// Runs the check and records nothing.
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - directory: Where relative paths (lists, suites) are read; `""` for as given.
    /// - Returns: What the check found.
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
