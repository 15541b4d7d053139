import Foundation
import ScreenTimeTesting
import Testing
import XCTest

/// `verify` records into whichever framework runs the caller: Swift Testing issues in a `@Test`, `XCTFail`s in an
/// `XCTestCase`, each at the caller's line; nothing for an implementation that passes.
@Suite struct VerifyInSwiftTestingTests {
    static let lowerHex = planted { $0.encodeURLComponent = lowerHexEncoding }

    @Test func recordsNothingForThePassingReference() {
        let result = ConformanceCheck(operations: [.urlEncode]).verify(.reference)
        #expect(result.passed && result.issues.isEmpty)
        #expect(result.statuses.count == shippedIDs("url.encode") { _ in true }.count)
    }

    @Test func eachFailureIsASwiftTestingIssueAtTheCallersLine() {
        let recorded = Recorded()
        var result: ConformanceCheckResult?
        let line = #line + 2
        withKnownIssue {
            result = ConformanceCheck(operations: [.urlEncode]).verify(Self.lowerHex)
        } matching: { issue in
            recorded.append(issue.comments.map(\.rawValue).joined(), line: issue.sourceLocation?.line ?? 0)
            return true
        }
        let failures = (result?.issues ?? []).filter { !$0.isKnown }.map(\.text)
        #expect(failures.count > 1, "the summary and at least one case")
        #expect(recorded.texts == failures)
        #expect(recorded.lines == Array(repeating: line, count: failures.count))
    }

    /// A listed deviation is a known issue: the test passes, and it would fail had one been recorded as a failure.
    @Test func aListedDeviationIsAKnownIssue() {
        let failing = Array(failingIDs(ConformanceCheck(operations: [.urlEncode]).run(Self.lowerHex, relativeTo: "")))
        let result = ConformanceCheck(operations: [.urlEncode], expectedFailures: .entries(failing))
            .verify(Self.lowerHex)
        #expect(!failing.isEmpty && result.passed && result.issues.allSatisfy(\.isKnown))
    }

    @Test func relativePathsAreReadBesideTheCallingFile() throws {
        let name = "verify-list-\(UUID().uuidString).txt"
        let failing = failingIDs(ConformanceCheck(operations: [.urlEncode]).run(Self.lowerHex, relativeTo: ""))
        try failing.sorted().joined(separator: "\n").write(
            toFile: testDirectory + "/" + name, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: testDirectory + "/" + name) }
        let result = ConformanceCheck(operations: [.urlEncode], expectedFailures: .file(name)).verify(Self.lowerHex)
        #expect(result.passed && result.issues.count == failing.count, "\(result.issues.map(\.text))")
    }
}

final class VerifyInXCTestTests: XCTestCase {
    /// Failures recorded while `capturing`, instead of failing this test.
    private var captured: [(description: String, line: Int)] = []
    private var capturing = false

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            guard capturing else { return super.record(issue) }
            captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard capturing else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured.append((description, lineNumber))
        }
    #endif

    func testRecordsNothingForThePassingReference() {
        XCTAssertNil(Test.current)
        let result = ExplorationCheck(cases: 300, operations: [.templateRender]).verify(.reference)
        XCTAssertTrue(result.passed)
        XCTAssertEqual(result.cases, 300)
    }

    func testEachFailureIsAnXCTFailAtTheCallersLine() {
        let lowerHex = VerifyInSwiftTestingTests.lowerHex
        capturing = true
        let line = #line + 1
        let result = ConformanceCheck(operations: [.urlEncode]).verify(lowerHex)
        capturing = false
        let failures = result.issues.filter { !$0.isKnown }.map(\.text)
        XCTAssertGreaterThan(failures.count, 1, "the summary and at least one case")
        XCTAssertEqual(captured.count, failures.count)
        for (failure, text) in zip(captured, failures) {
            XCTAssertTrue(failure.description.contains(text), failure.description)
            XCTAssertEqual(failure.line, line)
        }
    }

    /// XCTest on Linux has no known issues: a listed deviation is not recorded at all.
    func testAListedDeviationIsNotRecorded() {
        let lowerHex = VerifyInSwiftTestingTests.lowerHex
        let failing = Array(failingIDs(ConformanceCheck(operations: [.urlEncode]).run(lowerHex, relativeTo: "")))
        capturing = true
        let result = ConformanceCheck(operations: [.urlEncode], expectedFailures: .entries(failing)).verify(lowerHex)
        capturing = false
        XCTAssertTrue(result.passed)
        XCTAssertFalse(result.issues.isEmpty)
        XCTAssertEqual(captured.count, 0)
    }
}

/// Issues a `withKnownIssue` matcher saw, in order.
final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(text: String, line: Int)] = []

    func append(_ text: String, line: Int) { lock.withLock { entries.append((text, line)) } }
    var texts: [String] { lock.withLock { entries.map(\.text) } }
    var lines: [Int] { lock.withLock { entries.map(\.line) } }
}
