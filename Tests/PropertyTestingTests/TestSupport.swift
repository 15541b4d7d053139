import PropertyTesting
import Testing
import _TestSupport

/// `expectPasses` (from `_TestSupport`) records a failed property's report, and nothing for a passing one.

@Suite struct SwiftTestingBridgeTests {
    @Test func passingPropertyRecordsNothing() {
        expectPasses(
            PropertyRunner.check(
                "reverse-twice", Gen.int(in: -50...50).array(count: 0...10),
                config: RunConfiguration(seed: 1)
            ) { $0.reversed().reversed() == $0 }.result)
    }

    @Test func failingPropertyRecordsTheReport() {
        let result = PropertyRunner.check("planted", Gen.int(in: 0...100), config: RunConfiguration(seed: 1)) {
            $0 < 10
        }.result
        withKnownIssue {
            expectPasses(result)
        }
        #expect(result.issue?.contains("Replay: stc check planted --replay 0a") == true)
    }

    @Test func hugeIterationCountsDoNotOverflow() {
        let result = PropertyRunner.check(
            "huge", Gen.int(in: 0...9), config: RunConfiguration(seed: 1, iterations: Int.max)
        ) { $0 < 9 }.result
        #expect(result.status == .failed)
    }
}
