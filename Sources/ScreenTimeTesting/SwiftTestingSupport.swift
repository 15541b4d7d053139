import Testing

extension ImplementationCheck {
    /// Runs the check and records each issue in the running Swift Testing test: a listed deviation as a known
    /// issue (it does not fail the test), everything else as a failure, at the caller's line.
    ///
    /// ```swift
    /// @Test func shippedVectors() { ConformanceCheck().expect(app) }
    /// ```
    @discardableResult
    public func expect(_ implementation: ScreenTimeImplementation, sourceLocation: SourceLocation = #_sourceLocation)
        -> Outcome
    {
        let result = run(implementation, relativeTo: TestFilePath.directory(of: sourceLocation.filePath))
        for issue in result.issues {
            if issue.isKnown {
                withKnownIssue(sourceLocation: sourceLocation) {
                    Issue.record(Comment(rawValue: issue.text), sourceLocation: sourceLocation)
                }
            } else {
                Issue.record(Comment(rawValue: issue.text), sourceLocation: sourceLocation)
            }
        }
        return result
    }
}
