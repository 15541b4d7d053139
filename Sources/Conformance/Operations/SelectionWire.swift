import ScreenTimeReference
import StrictJSON

/// The wire shapes of `selection.decode`, `selection.equal`, `selection.order` and `selection.combine`
/// (`SPEC.md` §5): the members read from an input, and the outputs written from reference values.
///
/// The reference's operations and every other implementation built on the operation table (the testing kit's
/// typed closures) read and write through these functions, so that one input is parsed one way everywhere.
///
/// ```swift
/// let selection = try SelectionWire.selection(try input.string("base64"))   // strict, errors as wire codes
/// SelectionWire.output(selection)   // {"applications":…, "categories":…, "webDomains":…, "includeEntireCategory":…, "canonical":…}
/// ```
public enum SelectionWire {
    /// The stored selection string `text`, decoded strictly (`SPEC.md` §1).
    ///
    /// Rule: the reference's decoder; an error is thrown as a ``WireErrorCode`` holding its code (`empty`,
    /// `tooLarge`, `base64`, `json`, `schema`, `token`). Example: `try SelectionWire.selection("")` throws `empty`.
    ///
    /// - Parameter text: A stored selection string.
    /// - Returns: The selection it holds.
    /// - Throws: ``WireErrorCode`` holding the decoding error's code.
    public static func selection(_ text: String) throws -> FamilyActivitySelection {
        do {
            return try SelectionDecoder.decode(Array(text.utf8)).selection
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    /// The canonical form of the stored selection `text`, straight from its token texts (no sets are built):
    /// the same decoding, errors and answer as ``selection(_:)`` then ``output(_:)``.
    static func canonicalForm(_ text: String) throws -> SelectionDecoder.CanonicalForm {
        do {
            return try SelectionDecoder.canonicalForm(of: Array(text.utf8))
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    /// The input member `kind` of `selection.order`.
    ///
    /// Rule: `application`, `category` or `webDomain` (`SPEC.md` §5); a missing member, another type or another
    /// string is ``BadInput``. Example: `{"kind": "webDomain"}` gives `.webDomain`.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The token kind.
    /// - Throws: ``BadInput`` for a missing or unknown kind.
    public static func kind(_ input: InputReader) throws -> SelectionTokenKind {
        let name = try input.string("kind")
        guard let kind = SelectionTokenKind(rawValue: name) else {
            throw BadInput("kind \"\(name)\" is not application, category or webDomain")
        }
        return kind
    }

    /// The input member `op` of `selection.combine`.
    ///
    /// Rule: `union`, `intersection`, `difference` or `symmetricDifference` (`SPEC.md` §5); anything else is
    /// ``BadInput``. Example: `{"op": "difference"}` gives `.difference`.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The set operation.
    /// - Throws: ``BadInput`` for a missing or unknown operation.
    public static func setOperation(_ input: InputReader) throws -> FamilyActivitySelection.SetOperation {
        let name = try input.string("op")
        guard let operation = FamilyActivitySelection.SetOperation(rawValue: name) else {
            throw BadInput("op \"\(name)\" is not union, intersection, difference or symmetricDifference")
        }
        return operation
    }

    /// The output of `selection.decode` and `selection.combine` for `selection`.
    ///
    /// Rule: the three set sizes, `includeEntireCategory`, and the reference's canonical base64 of the selection
    /// (`SPEC.md` §1, §5). Example: an empty selection gives counts 0 and the canonical string of `{…:[]}`.
    ///
    /// - Parameter selection: The decoded or combined selection.
    /// - Returns: The output object.
    public static func output(_ selection: FamilyActivitySelection) -> JSONValue {
        outputShape.object([
            .number(Double(selection.applicationTokens.count)),
            .number(Double(selection.categoryTokens.count)),
            .number(Double(selection.webDomainTokens.count)),
            .bool(selection.includeEntireCategory),
            .string(selection.canonicalBase64),
        ])
    }

    /// The same object as ``output(_:)`` for the selection whose canonical form is `form`.
    static func output(_ form: SelectionDecoder.CanonicalForm) -> JSONValue {
        outputShape.object([
            .number(Double(form.applicationCount)), .number(Double(form.categoryCount)),
            .number(Double(form.webDomainCount)), .bool(form.includeEntireCategory), .string(form.base64),
        ])
    }

    private static let outputShape = OutputShape(
        "applications", "categories", "webDomains", "includeEntireCategory", "canonical")

    /// The output of `selection.equal`: `{"equal": equal}` (`SPEC.md` §5), one of two objects made once.
    ///
    /// - Parameter equal: Whether the two selections are equal.
    /// - Returns: The output object.
    public static func equalOutput(_ equal: Bool) -> JSONValue { equal ? equalTrue : equalFalse }

    private static let equalTrue: JSONValue = .object(["equal": .bool(true)])
    private static let equalFalse: JSONValue = .object(["equal": .bool(false)])

    /// The output of `selection.order`: `{"tokens": […]}`, the tokens' `data` strings in the order given.
    ///
    /// Rule: `SPEC.md` §5 (the tokens of the asked kind, in display order). Example:
    /// `SelectionWire.orderOutput(selection.orderedTokenData(of: .application))`.
    ///
    /// - Parameter tokenData: The tokens' `data` strings, in display order.
    /// - Returns: The output object.
    public static func orderOutput(_ tokenData: [String]) -> JSONValue {
        ["tokens": .array(tokenData.map(JSONValue.string))]
    }
}
