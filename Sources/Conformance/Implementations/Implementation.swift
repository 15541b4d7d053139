import StrictJSON

/// What the runner got back for one case from an implementation: the protocol's three answers, or one of the
/// ways an implementation can fail to answer.
public enum Answer: Sendable, Hashable {
    case output(JSONValue)
    case error(String)
    case unsupported
    /// The implementation died while this case was in flight (detail: exit status, signal, …).
    case crash(String)
    /// No answer within the per-case timeout (seconds).
    case timeout(Double)
    /// The answer broke the adapter protocol (a line that is not JSON, a wrong id, missing members …).
    case protocolViolation(String)

    /// The answer an operation's outcome is.
    ///
    /// - Parameter outcome: What an operation answered.
    public init(_ outcome: OperationOutcome) {
        switch outcome {
        case .output(let v): self = .output(v)
        case .error(let code): self = .error(code)
        case .unsupported: self = .unsupported
        }
    }

    /// The answer as JSON, shaped like a protocol response without its id:
    /// `{"output": …}`, `{"error": CODE}`, `{"unsupported": true}`, `{"crash": DETAIL}`, `{"timeout": SECONDS}`,
    /// `{"protocol": DETAIL}`.
    public var json: JSONValue {
        switch self {
        case .output(let v): return .object(["output": v])
        case .error(let code): return .object(["error": .string(code)])
        case .unsupported: return .object(["unsupported": .bool(true)])
        case .crash(let d): return .object(["crash": .string(d)])
        case .timeout(let s): return .object(["timeout": .number(s)])
        case .protocolViolation(let d): return .object(["protocol": .string(d)])
        }
    }
}

/// How an implementation is run, for reports.
public enum ImplementationKind: String, Sendable {
    /// The reference, called in this process through the operation table.
    case inProcess
    /// A command speaking the adapter protocol over stdin/stdout.
    case adapter
}

/// What an implementation noticed about itself during a run, for reports.
public struct ImplementationDiagnostics: Sendable, Hashable {
    /// Times the implementation was (re)started after the first start.
    public var restarts: Int = 0
    /// Seconds spent on restarts: from a crash or a timeout to the new process's first answer line.
    public var restartSeconds: Double = 0
    /// Crashes the adapter survived and answered as `crash` itself (a fork server, `SPEC.md` §5.4): no restart.
    public var survivedCrashes: Int = 0
    /// The last few KB of the adapter's stderr, across restarts.
    public var stderrTail: String = ""
    /// Things worth telling a reader: give-ups, stray answers, start failures.
    public var notes: [String] = []

    /// Diagnostics; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - restarts: Times the implementation was restarted.
    ///   - stderrTail: The last of its stderr.
    ///   - notes: Things worth telling a reader.
    public init(restarts: Int = 0, stderrTail: String = "", notes: [String] = []) {
        self.restarts = restarts
        self.stderrTail = stderrTail
        self.notes = notes
    }
}

/// Something that answers conformance requests: the reference in process, or an adapter command.
///
/// `answer` gets every selected case at once so that an implementation can pipeline; it returns exactly one
/// ``Answer`` per case, in the same order, and never traps, whatever the implementation under test does.
public protocol Implementation: AnyObject {
    /// Unique among the implementations of one run; shown in every report.
    var name: String { get }
    var kind: ImplementationKind { get }
    /// What runs: the adapter's command, or a word about the in-process table.
    var summary: String { get }
    var diagnostics: ImplementationDiagnostics { get }
    /// Answers `cases` in order. `progress` is called now and then with the number of cases answered so far.
    func answer(_ cases: [ConformanceCase], progress: (Int) -> Void) -> [Answer]
}

extension Answer {
    /// The answer as compact JSON text.
    var text: String { json.description }
}
