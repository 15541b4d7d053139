import Conformance
import StrictJSON

/// How an answer departed from the reference's, in words that stay the same for every case with the same
/// fault: the operation, what the reference answered (an error code and its reason, or an output) and what came
/// instead (an output, another error, which output members differ, a crash, a timeout, a protocol violation).
///
/// Two discrepancies with the same ``key`` are one **finding**: `stc explore` keeps the smallest case of each.
///
/// ```swift
/// Discrepancy(op: "selection.decode", kind: .unexpectedOutput(error: "base64", reason: "non-zero pad bits"))
///     .key   // "selection.decode: expected error base64 (non-zero pad bits), got output"
/// ```
public struct Discrepancy: Sendable, Hashable, Comparable {
    public enum Kind: Sendable, Hashable {
        /// The reference answers the error `error` (`reason` says why); the implementation gave an output.
        case unexpectedOutput(error: String, reason: String?)
        /// The reference answers the error `error`; the implementation gave an output or an error its checks make
        /// later (``ExploredOperation/errorOrder``): it let through what the reference's check stops, whatever it
        /// tripped on next.
        case missedCheck(error: String, reason: String?)
        /// The reference answers the error `expected`; the implementation another error code.
        case wrongError(expected: String, reason: String?, actual: String)
        /// The reference answers an output; the implementation the error `actual`.
        case unexpectedError(actual: String)
        /// Both answer outputs, and these members (sorted) differ or are missing.
        case outputDiffers(members: [String])
        /// The implementation died while the case was in flight.
        case crash
        /// No answer within the timeout.
        case timeout
        /// The answer broke the adapter protocol.
        case protocolViolation
    }

    public var op: String
    public var kind: Kind

    public init(op: String, kind: Kind) {
        self.op = op
        self.kind = kind
    }

    /// The finding's name: `OP: what differs`.
    public var key: String { "\(op): \(kind.text)" }

    /// The finding's root cause: `OP: ` and the class of the reference's answer against the class of the
    /// implementation's (``Kind/groupText``). The rules an implementation does not check all fall in one group,
    /// so a reader sees one cause with its rules listed rather than a finding per rule.
    ///
    /// ```swift
    /// Discrepancy(op: "selection.decode", kind: .missedCheck(error: "json", reason: "nesting too deep")).group
    ///     // "selection.decode: answers output or a later error where the reference answers an error"
    /// ```
    public var group: String { "\(op): \(kind.groupText)" }

    public static func < (a: Discrepancy, b: Discrepancy) -> Bool { a.key < b.key }

    /// The discrepancy between the reference's `expected` outcome and `answer`, or `nil` when they match (or the
    /// answer is `unsupported`, which is no finding). `reason` is the reference's reason for an error.
    public static func between(
        op: String, expected: Expectation, reason: String?, answer: Answer
    ) -> Discrepancy? {
        switch answer {
        case .unsupported: return nil
        case .crash: return Discrepancy(op: op, kind: .crash)
        case .timeout: return Discrepancy(op: op, kind: .timeout)
        case .protocolViolation: return Discrepancy(op: op, kind: .protocolViolation)
        case .error(let actual):
            switch expected {
            case .error(let code):
                return code == actual
                    ? nil : Discrepancy(op: op, kind: .wrongError(expected: code, reason: reason, actual: actual))
            case .output:
                return Discrepancy(op: op, kind: .unexpectedError(actual: actual))
            }
        case .output(let output):
            switch expected {
            case .error(let code):
                return Discrepancy(op: op, kind: .unexpectedOutput(error: code, reason: reason))
            case .output(let members):
                let actual = output.objectValue ?? [:]
                let differing = members.keys.filter { actual[$0] != members[$0] }
                return differing.isEmpty ? nil : Discrepancy(op: op, kind: .outputDiffers(members: differing.sorted()))
            }
        }
    }
}

extension Discrepancy.Kind {
    /// `expected error base64 (non-zero pad bits), got output`, `output differs in canonical`, `crash`, ….
    public var text: String {
        func error(_ code: String, _ reason: String?) -> String { reason.map { "\(code) (\($0))" } ?? code }
        switch self {
        case .unexpectedOutput(let code, let reason): return "expected error \(error(code, reason)), got output"
        case .missedCheck(let code, let reason):
            return "expected error \(error(code, reason)), got output or a later error"
        case .wrongError(let expected, let reason, let actual):
            return "expected error \(error(expected, reason)), got error \(actual)"
        case .unexpectedError(let actual): return "expected output, got error \(actual)"
        case .outputDiffers(let members): return "output differs in \(members.joined(separator: ", "))"
        case .crash: return "crash"
        case .timeout: return "timeout"
        case .protocolViolation: return "protocol violation"
        }
    }
}

extension Discrepancy.Kind {
    /// The class of the reference's answer (output or error) against the class of the implementation's (output,
    /// error, crash, timeout, protocol violation), in words: what a ``Discrepancy/group`` names.
    public var groupText: String {
        switch self {
        case .unexpectedOutput: return "answers output where the reference answers an error"
        case .missedCheck: return "answers output or a later error where the reference answers an error"
        case .wrongError: return "answers another error than the reference"
        case .unexpectedError: return "answers an error where the reference answers output"
        case .outputDiffers: return "answers another output than the reference"
        case .crash: return "crash"
        case .timeout: return "timeout"
        case .protocolViolation: return "protocol violation"
        }
    }
}

/// The findings of one root cause (``Discrepancy/group``): one operation, one class of expected answer, one class
/// of actual answer; each of its findings is a rule the implementation gets wrong that way.
public struct FindingGroup: Sendable {
    /// `OP: what the classes are`, for example `selection.decode: crash`.
    public var key: String
    public var op: String
    /// Its findings (rules), sorted by key; at least one.
    public var findings: [Finding]
    /// Cases that showed any of its findings.
    public var occurrences: Int { findings.reduce(0) { $0 + $1.occurrences } }

    /// Each finding's `what differs`, without the operation: the rules as a group lists them.
    public var rules: [String] { findings.map { $0.discrepancy.kind.text } }

    /// `findings` in groups, sorted by group key; each group's findings sorted by key.
    ///
    /// - Parameter findings: Findings of one run.
    /// - Returns: One group per distinct ``Discrepancy/group``.
    public static func grouping(_ findings: [Finding]) -> [FindingGroup] {
        Dictionary(grouping: findings, by: \.discrepancy.group)
            .map { key, members in
                FindingGroup(key: key, op: members[0].discrepancy.op, findings: members.sorted { $0.key < $1.key })
            }
            .sorted { $0.key < $1.key }
    }
}

/// One finding: a discrepancy, the smallest cases that show it, and how often it showed.
///
/// The first example is the first case that showed the discrepancy, shrunk. A few later cases that show it are
/// shrunk too (``shrunkOccurrences``), and kept when they shrink to another input: one
/// symptom can have several causes (a template key with a dot, and one named like a built-in member, both make
/// `output differs in missing, text`).
public struct Finding: Sendable {
    public var discrepancy: Discrepancy
    /// At least one; the first is the one shown in full.
    public var examples: [FindingExample]
    /// Cases that showed the discrepancy, shrunk or not.
    public var occurrences: Int

    public var key: String { discrepancy.key }
    /// The first example.
    public var first: FindingExample { examples[0] }

    /// The occurrences that are shrunk: spread over a run, so that a second cause has time to show up.
    public static let shrunkOccurrences: Set<Int> = [1, 4, 16, 64, 256, 1024]
}

/// A minimal case of a finding, as shrunk against the implementation.
public struct FindingExample: Sendable {
    /// The minimal case: its input and the reference's expectation.
    public var minimal: ConformanceCase
    /// What the implementation answered for the minimal case.
    public var answer: Answer
    /// The matcher's account of the difference (`expected error base64, got output {…}`).
    public var mismatch: String
    /// The minimal case's choices, as ``ChoiceSequence/bytes``: `stc explore --replay OP:HEX` runs exactly it.
    public var choices: [UInt8]
    /// The input's size before and after shrinking, in bytes of compact JSON.
    public var originalSize: Int
    public var minimalSize: Int
    /// When the case was answered, in seconds from the start, and its number (from 1).
    public var foundAfter: Double
    public var caseNumber: Int
    /// Replays the shrinker made, and the seconds it took.
    public var shrinkSteps: Int
    public var shrinkSeconds: Double
}
