/// One thing a check reports, as the text of one test issue: a failing case, a finding, a stale list entry, or
/// the summary.
///
/// ```swift
/// for issue in result.issues where !issue.isKnown { print(issue.text) }
/// ```
public struct CheckIssue: Sendable, Hashable {
    /// The case id, finding key or list entry the issue is about; `nil` for the summary and other notes.
    public var subject: String?
    /// What a test issue carries: for a case, its id, operation, expected and actual answers and the difference;
    /// for a finding, its minimal input, expected and actual answers, the difference and how to replay it.
    public var text: String
    /// A listed deviation: recorded as a known issue, it does not fail the test.
    public var isKnown: Bool

    /// An issue; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - subject: The case id, finding key or list entry; `nil` for the summary.
    ///   - text: What the test issue says.
    ///   - isKnown: Whether it is a listed deviation.
    public init(subject: String?, text: String, isKnown: Bool = false) {
        self.subject = subject
        self.text = text
        self.isKnown = isKnown
    }
}

extension [CheckIssue] {
    /// The issues, after an issue holding `summary` when any of them fails (known issues alone need none).
    func withSummaryFirst(_ summary: String) -> [CheckIssue] {
        contains { !$0.isKnown } ? [CheckIssue(subject: nil, text: summary)] + self : self
    }
}
