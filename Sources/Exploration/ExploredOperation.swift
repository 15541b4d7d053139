import Conformance
import PropertyTesting
import StrictJSON

/// One operation as `stc explore` drives it: a generator of its inputs, and the reference's finer reason for an
/// error answer, which tells apart findings that share an error code.
///
/// Every operation of ``OperationTable`` has one (a test keeps the two lists equal). Inputs come from the same
/// choice-sequence generators the properties and the structured fuzzers use, so a failing case shrinks on its
/// choices and replays from them.
///
/// ```swift
/// let decode = ExploredOperations.named("selection.decode")!
/// let input = decode.input.generate(seed: 7)           // {"base64": "…"}
/// OperationTable.perform(decode.name, input: input)     // what the reference answers
/// ```
public struct ExploredOperation: Sendable {
    /// The wire name, as in ``OperationTable``.
    public let name: String
    /// The request's `input` object.
    public let input: Gen<JSONValue>
    /// For an input the reference answers with an error: why, in words that do not depend on positions or counts
    /// (`non-zero pad bits (not the canonical encoding)`); `nil` when the error code says it all.
    public let reason: @Sendable (JSONValue) -> String?
    /// The error codes in the order the reference's checks run (`SPEC.md` §1 for selections), when they have
    /// one. An implementation that answers an output, or an error of a later check, where the reference
    /// answers an error has let the case past that check: one finding, whatever came next.
    public let errorOrder: [String]

    public init(
        name: String, input: Gen<JSONValue>, errorOrder: [String] = [],
        reason: @escaping @Sendable (JSONValue) -> String? = { _ in nil }
    ) {
        self.name = name
        self.input = input
        self.errorOrder = errorOrder
        self.reason = reason
    }
}

/// Every operation the explorer knows, in ``OperationTable`` order.
public enum ExploredOperations {
    public static let all: [ExploredOperation] =
        SelectionInputs.operations + ShieldInputs.operations + AuthorizationInputs.operations
        + EncodingInputs.operations + ActivityInputs.operations + SettingsInputs.operations

    public static func named(_ name: String) -> ExploredOperation? { all.first { $0.name == name } }

    /// `text` with every number that stands alone (between spaces, brackets or parentheses) written `N`, so that
    /// a reason does not change with a position or a count; digits inside a word (`UTF-8`) stay.
    static func withoutNumbers(_ text: String) -> String {
        let characters = Array(text)
        var out = ""
        var i = 0
        let opens: Set<Character> = [" ", "[", "("]
        let closes: Set<Character> = [" ", "]", ")", ",", ";", "."]
        while i < characters.count {
            var j = i
            while j < characters.count, characters[j].isASCII, characters[j].isNumber { j += 1 }
            let standsAlone =
                j > i && (i == 0 || opens.contains(characters[i - 1]))
                && (j == characters.count || closes.contains(characters[j]))
            if standsAlone {
                out.append("N")
                i = j
            } else {
                out.append(characters[i])
                i += 1
            }
        }
        return out
    }
}
