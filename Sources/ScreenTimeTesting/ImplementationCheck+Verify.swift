import Testing
import XCTest

extension ImplementationCheck {
    /// Runs the check and records each issue in whichever test framework runs the caller, at the caller's line.
    ///
    /// Rules:
    /// - In a Swift Testing test (`Test.current` is set), each issue is an `Issue.record`: a listed deviation
    ///   inside `withKnownIssue`, so it shows and does not fail the test; anything else fails it.
    /// - Otherwise, in an XCTest test, each issue that is not a listed deviation is an `XCTFail`. XCTest on Linux
    ///   has no known-issue API, so listed deviations are counted in the summary and not recorded.
    /// - Relative paths (`.file("expected-failures.txt")`, `vectors`, `saveFindingsTo`) are read from the
    ///   directory of the calling test file.
    ///
    /// One verb for both frameworks, like custom-dump's `expectNoDifference`; it shadows neither `Swift.assert`
    /// nor Swift Testing's `#expect`.
    ///
    /// ```swift
    /// @Test func shippedVectors() { ConformanceCheck().verify(app) }
    /// func testGeneratedCases() { ExplorationCheck(cases: 3_000).verify(app) }
    /// ```
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - fileID: The caller's `#fileID`, where a Swift Testing issue is shown; leave the default.
    ///   - filePath: The caller's `#filePath`: where an issue is shown, and the directory relative paths are
    ///     read from; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Returns: What the check found, with every issue it recorded.
    @discardableResult
    public func verify(
        _ implementation: ScreenTimeImplementation, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        let result = run(implementation, relativeTo: TestFilePath.directory(of: "\(filePath)"))
        if Test.current != nil {
            let location = SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
            IssueRecording.swiftTesting(result.issues, at: location)
        } else {
            IssueRecording.xcTest(result.issues, file: filePath, line: line)
        }
        return result
    }
}

/// How a check's issues become test issues, one function per framework.
enum IssueRecording {
    /// Each issue as a Swift Testing issue at `location`; a known one inside `withKnownIssue`.
    static func swiftTesting(_ issues: [CheckIssue], at location: SourceLocation) {
        for issue in issues {
            if issue.isKnown {
                withKnownIssue(sourceLocation: location) {
                    Issue.record(Comment(rawValue: issue.text), sourceLocation: location)
                }
            } else {
                Issue.record(Comment(rawValue: issue.text), sourceLocation: location)
            }
        }
    }

    /// Each issue that is not known as an `XCTFail` at `file` and `line`.
    static func xcTest(_ issues: [CheckIssue], file: StaticString, line: UInt) {
        for issue in issues where !issue.isKnown { XCTFail(issue.text, file: file, line: line) }
    }
}
