import StrictJSON

/// How one case went for one implementation (`SPEC.md` §5).
public enum CaseStatus: String, Sendable, CaseIterable, Hashable {
    /// The answer matched the expectation.
    case pass
    /// An answer came, and it did not match.
    case fail
    /// The implementation died while the case was in flight.
    case crash
    /// No answer within the timeout.
    case timeout
    /// The answer broke the adapter protocol.
    case `protocol`
    /// The implementation answered `unsupported`.
    case unsupported
}

/// Where a case stands against the implementation's expected-failures list.
public enum ListedState: String, Sendable, Hashable {
    /// Not in the list: a non-pass fails the run.
    case notListed
    /// In the list and not passing: does not fail the run.
    case expectedFailure
    /// In the list but passing now: fails the run until the line is removed.
    case unexpectedPass
}

/// One case's result for one implementation.
public struct CaseResult: Sendable, Hashable {
    /// Index of the case in ``ConformanceRun/cases``.
    public var caseIndex: Int
    public var status: CaseStatus
    public var answer: Answer
    /// For `fail`: what differs, in a line or two (values truncated; the reports hold the full answer).
    public var mismatch: String?
    public var listed: ListedState

    /// A result; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - caseIndex: Index of the case in the run's cases.
    ///   - status: How the case went.
    ///   - answer: What came back.
    ///   - mismatch: What differs, for `fail`.
    ///   - listed: Where the case stands against the expected-failures list.
    public init(
        caseIndex: Int, status: CaseStatus, answer: Answer, mismatch: String? = nil,
        listed: ListedState = .notListed
    ) {
        self.caseIndex = caseIndex
        self.status = status
        self.answer = answer
        self.mismatch = mismatch
        self.listed = listed
    }

    /// `true` when this result does not fail the run.
    public var isAcceptable: Bool {
        switch listed {
        case .notListed: return status == .pass
        case .expectedFailure: return true
        case .unexpectedPass: return false
        }
    }

    /// A one-line account of what came back instead of the expectation (empty for a pass).
    public var problem: String {
        switch answer {
        case .crash(let d): return "crash: \(d)"
        case .timeout(let s): return "timeout: no answer in \(formatSeconds(s)) s"
        case .protocolViolation(let d): return "protocol: \(d)"
        case .unsupported: return "unsupported: the implementation does not support this op"
        case .output, .error: return mismatch ?? ""
        }
    }
}

/// Counts of results by status, plus the expected-failures bookkeeping.
public struct StatusCounts: Sendable, Hashable {
    public private(set) var byStatus: [CaseStatus: Int] = [:]
    public private(set) var total = 0
    public private(set) var expectedFailures = 0
    public private(set) var unexpectedPasses = 0

    public init() {}

    /// How many results have `status`.
    ///
    /// - Parameter status: A status.
    /// - Returns: The count, 0 when none.
    public subscript(status: CaseStatus) -> Int { byStatus[status] ?? 0 }

    /// Results that fail the run.
    public var unacceptable: Int { total - acceptable }
    public private(set) var acceptable = 0

    /// Counts one more result.
    ///
    /// - Parameter result: The result.
    public mutating func add(_ result: CaseResult) {
        byStatus[result.status, default: 0] += 1
        total += 1
        if result.listed == .expectedFailure { expectedFailures += 1 }
        if result.listed == .unexpectedPass { unexpectedPasses += 1 }
        if result.isAcceptable { acceptable += 1 }
    }

    /// As JSON, every status present (zeros included) so that consumers need no defaults.
    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        for status in CaseStatus.allCases { members[status.rawValue] = .number(Double(self[status])) }
        members["total"] = .number(Double(total))
        members["expectedFailures"] = .number(Double(expectedFailures))
        members["unexpectedPasses"] = .number(Double(unexpectedPasses))
        return .object(members)
    }
}
