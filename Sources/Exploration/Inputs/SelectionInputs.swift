import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of the `selection.*` operations: stored strings from valid to hostile, pairs that are equal as sets
/// but differ as strings, selections with several tokens to order, and operands that share tokens.
enum SelectionInputs {
    static let operations = [decode, equal, order, encode, combine]

    /// Any stored string: the properties' (`Gen.storedString`: valid, near-valid, mutated, garbage) and the
    /// hostile ones (`Gen.hostileStoredString`: pad bits, other encodings, deep nesting, oversized text, …).
    static let storedText: Gen<String> = Gen<String>.frequency([
        (5, Gen<StoredString>.storedString.map { text($0.bytes) }),
        (4, Gen<HostileStoredString>.hostileStoredString.map { text($0.bytes) }),
    ])

    /// A valid stored string, of a selection with a few tokens from a small universe.
    static let validText: Gen<String> = text(of: Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 4))

    /// A valid stored string of each selection: any of its JSON texts.
    static func text(of selections: Gen<FamilyActivitySelection>) -> Gen<String> {
        selections.flatMap { Gen<SelectionJSONDocument>.document(of: $0) }.map(\.base64)
    }

    /// Two operands: both valid, or one of them anything and the other valid (two bad operands would show the
    /// same fault as one, under as many names as there are ways for the second to fail).
    static let operands: Gen<(String, String)> = Gen<(String, String)>.frequency([
        (4, validText.zip(validText)),
        (1, storedText.zip(validText)),
        (1, validText.zip(storedText)),
    ])

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The selection checks in the order they run (`SPEC.md` §1): the first that fails names the error.
    static let errorOrder = SelectionDecodingError.Code.allCases.sorted().map(\.rawValue)

    /// Stored strings without a `format` (the direct path of `base64-json`), and stored values of every format
    /// with their wire members (``SelectionFormatInputs``). `badInput` comes first: the format and its member
    /// are read before anything is decoded (`SPEC.md` §5.2).
    static let decode = ExploredOperation(
        name: "selection.decode",
        input: Gen<JSONValue>.frequency([
            (4, storedText.map { ["base64": .string($0)] }), (5, SelectionFormatInputs.decodeInput),
        ]),
        errorOrder: ["badInput"] + errorOrder,
        reason: { input in
            input["format"] == nil ? reason(["base64"])(input) : SelectionFormatInputs.decodeReason(input)
        })

    /// A stored string (decoded first: its error is the answer) written in a format; the answer is judged by
    /// reading it back (`SPEC.md` §5.3).
    static let encode = ExploredOperation(
        name: "selection.encode", input: SelectionFormatInputs.encodeInput, errorOrder: errorOrder,
        reason: SelectionFormatInputs.encodeReason)

    /// Two texts of one selection (written differently: key order, token order, duplicates, `\/`, escapes), two
    /// selections one token apart, or an operand that does not decode.
    static let equal = ExploredOperation(
        name: "selection.equal",
        input: Gen<JSONValue>.frequency([
            (
                4,
                Gen<FamilyActivitySelection>.selection(universe: 6, maxTokens: 4).flatMap { selection in
                    Gen<SelectionJSONDocument>.document(of: selection).zip(
                        Gen<SelectionJSONDocument>.document(of: selection))
                }.map { ["a": .string($0.0.base64), "b": .string($0.1.base64)] }
            ),
            (4, operands.map { ["a": .string($0.0), "b": .string($0.1)] }),
        ]),
        errorOrder: errorOrder, reason: reason(["a", "b"]))

    static let kinds = Gen<String>.element(of: ["application", "category", "webDomain"])

    static let order = ExploredOperation(
        name: "selection.order",
        input: Gen<String>.frequency([
            (4, text(of: Gen<FamilyActivitySelection>.selection(universe: 24, maxTokens: 5))), (1, storedText),
        ]).zip(kinds).map { ["base64": .string($0.0), "kind": .string($0.1)] },
        errorOrder: errorOrder, reason: reason(["base64"]))

    static let combine = ExploredOperation(
        name: "selection.combine",
        input: Gen<String>.element(of: ["union", "intersection", "difference", "symmetricDifference"]).zip(operands)
            .map { ["op": .string($0.0), "a": .string($0.1.0), "b": .string($0.1.1)] },
        errorOrder: errorOrder, reason: reason(["a", "b"]))

    /// Why the first of `members` that does not decode fails, as the reference says it (the path into the
    /// document and every number left out).
    static func reason(_ members: [String]) -> @Sendable (JSONValue) -> String? {
        { input in
            for member in members {
                guard let text = input[member]?.stringValue else { continue }
                do throws(SelectionDecodingError) {
                    _ = try SelectionDecoder.decode(Array(text.utf8))
                } catch {
                    return ExploredOperations.withoutNumbers(withoutTokenPath(error.detail))
                }
            }
            return nil
        }
    }

    /// A token problem's detail without the token's place (`categoryTokens[3].data …` → `token data …`): the
    /// same fault in another token array is the same finding.
    static func withoutTokenPath(_ detail: String) -> String {
        guard let bracket = detail.firstIndex(of: "["), detail[..<bracket].hasSuffix("Tokens"),
            let close = detail[bracket...].firstIndex(of: "]")
        else { return detail }
        let rest = detail[detail.index(after: close)...]
        return "token" + (rest.hasPrefix(".") ? " " + rest.dropFirst() : rest)
    }
}
