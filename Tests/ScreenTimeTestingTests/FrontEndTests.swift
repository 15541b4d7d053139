import ScreenTimeTesting
import Testing
import XCTest

/// The two front ends on an implementation that passes: nothing is recorded, and relative paths are read beside
/// the calling test file (`expected-failures` lists are resolved from it).
@Suite struct SwiftTestingFrontEndTests {
    @Test func expectRecordsNothingForThePassingReference() {
        let result = ConformanceCheck(operations: [.urlEncode]).expect(.reference)
        #expect(result.passed && result.issues.isEmpty)
        #expect(result.statuses.count == shippedIDs("url.encode") { _ in true }.count)
    }
}

final class XCTestFrontEndTests: XCTestCase {
    func testAssertRecordsNothingForThePassingReference() {
        let result = ExplorationCheck(cases: 300, operations: [.templateRender]).assert(.reference)
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.result?.cases, 300)
    }
}
