import XCTest

extension ImplementationCheck {
    /// Runs the check and fails the running XCTest test once per issue that is not a listed deviation, at the
    /// caller's line. (XCTest on Linux has no known-failure API: listed deviations are counted in the summary,
    /// not recorded.)
    ///
    /// ```swift
    /// func testShippedVectors() { ConformanceCheck().assert(app) }
    /// ```
    @discardableResult
    public func assert(_ implementation: ScreenTimeImplementation, file: StaticString = #filePath, line: UInt = #line)
        -> Outcome
    {
        let result = run(implementation, relativeTo: TestFilePath.directory(of: "\(file)"))
        for issue in result.issues where !issue.isKnown { XCTFail(issue.text, file: file, line: line) }
        return result
    }
}
