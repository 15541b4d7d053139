// Using the runner from Swift Testing (and XCTest) without linking `Testing` into this library: the library
// is also linked into the `stc` executable, where the Testing runtime does not belong. A test passes the
// report to its own assertion:
//
//     @Test func roundTrip() {
//         let result = PropertyRunner.check("roundtrip", gen) { decode(encode($0)) == $0 }.result
//         #expect(result.passed, Comment(rawValue: result.report))
//     }
//
// or, with the helper below, `if let report = result.issue { Issue.record(Comment(rawValue: report)) }`.

extension PropertyResult {
    /// The report when the run did not pass (failed or gave up), else nil: hand it to `Issue.record`
    /// or `XCTFail`.
    public var issue: String? {
        passed ? nil : report
    }
}

extension Property {
    /// Runs the property and returns the failure report, if any (see `PropertyResult.issue`).
    public func issue(_ config: RunConfiguration = RunConfiguration()) -> String? {
        run(config).issue
    }
}
