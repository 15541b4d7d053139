import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `selection.decode`, `selection.equal`, `selection.order`, `selection.combine` (`SPEC.md` §5).
    static var selectionOperations: [Operation] {
        [
            Operation(name: "selection.decode", summary: "decode a stored selection string: counts and canonical form")
            {
                input in
                // The direct canonical path: the same decoding and the same answer as through the selection's
                // sets (SelectionDirectCanonicalTests), without building them.
                let form = try canonicalForm(try input.string("base64"))
                return selectionOutputShape.object([
                    .number(Double(form.applicationCount)), .number(Double(form.categoryCount)),
                    .number(Double(form.webDomainCount)), .bool(form.includeEntireCategory), .string(form.base64),
                ])
            },
            Operation(name: "selection.equal", summary: "whether two stored selections hold the same sets") {
                (input: InputReader) throws -> JSONValue in
                let textA = try input.string("a")
                let textB: String
                do {
                    textB = try input.string("b")
                } catch {
                    _ = try canonicalForm(textA)  // `a`'s decoding error comes before a missing `b`
                    throw error
                }
                do throws(SelectionDecodingError) {
                    return equalOutput(try SelectionDecoder.sameSelection(Array(textA.utf8), Array(textB.utf8)))
                } catch {
                    throw WireErrorCode(error.code.rawValue)
                }
            },
            Operation(name: "selection.order", summary: "one kind's token data strings in stable order") { input in
                let text = try input.string("base64")
                let kindName = try input.string("kind")
                guard let kind = SelectionTokenKind(rawValue: kindName) else {
                    throw BadInput("kind \"\(kindName)\" is not application, category or webDomain")
                }
                let selection = try decodeSelection(text)
                return ["tokens": .array(selection.orderedTokenData(of: kind).map(JSONValue.string))]
            },
            Operation(name: "selection.combine", summary: "union, intersection, difference or symmetric difference") {
                input in
                let name = try input.string("op")
                guard let operation = FamilyActivitySelection.SetOperation(rawValue: name) else {
                    throw BadInput("op \"\(name)\" is not union, intersection, difference or symmetricDifference")
                }
                let a = try decodeSelection(try input.string("a"))
                let b = try decodeSelection(try input.string("b"))
                return selectionOutput(a.combined(with: b, operation))
            },
        ]
    }

    static func canonicalForm(_ text: String) throws -> SelectionDecoder.CanonicalForm {
        do {
            return try SelectionDecoder.canonicalForm(of: Array(text.utf8))
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    static func decodeSelection(_ text: String) throws -> FamilyActivitySelection {
        do {
            return try SelectionDecoder.decode(Array(text.utf8)).selection
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    /// The output shape shared by `selection.decode` and `selection.combine`.
    static func selectionOutput(_ selection: FamilyActivitySelection) -> JSONValue {
        selectionOutputShape.object([
            .number(Double(selection.applicationTokens.count)),
            .number(Double(selection.categoryTokens.count)),
            .number(Double(selection.webDomainTokens.count)),
            .bool(selection.includeEntireCategory),
            .string(selection.canonicalBase64),
        ])
    }

    static let selectionOutputShape = OutputShape(
        "applications", "categories", "webDomains", "includeEntireCategory", "canonical")

    /// `{"equal": equal}`: one of two objects made once.
    static func equalOutput(_ equal: Bool) -> JSONValue { equal ? equalTrue : equalFalse }

    private static let equalTrue: JSONValue = .object(["equal": .bool(true)])
    private static let equalFalse: JSONValue = .object(["equal": .bool(false)])
}
