import BlockerAppChecks
import Foundation
import ScreenTimeTesting
import Testing

/// The app's own functions against every shipped vector and 3,000 generated cases, in this process. Decoding, which
/// force-unwraps, is left to blocker-adapter (mayTrap); README.md shows both reports.
@Suite struct ScreenTimeConformanceTests {
    /// Run `SWIFT_DETERMINISTIC_HASHING=1 swift test`: the app's display order is `Set` order, which otherwise
    /// changes from process to process, and the list below names exactly the cases that fail.
    @Test func shippedVectors() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == "1",
            "run SWIFT_DETERMINISTIC_HASHING=1 swift test")
        ConformanceCheck(expectedFailures: .file("../../expected-failures.txt")).verify(.blockerApp)
    }

    @Test func generatedCases() {
        ExplorationCheck(cases: 3_000, seed: 1, expectedFindings: .file("../../known-findings.txt")).verify(.blockerApp)
    }
}
