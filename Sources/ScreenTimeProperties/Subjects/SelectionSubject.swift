import ScreenTimeReference

/// The selection functions a property checks. Defaults to the reference; tests pass broken variants (equality by
/// raw string, display order from `Set` iteration, …) to show that each property can fail.
public struct SelectionSubject: Sendable {
    public var decode: @Sendable ([UInt8]) -> Result<FamilyActivitySelection, SelectionDecodingError>
    public var canonical: @Sendable (FamilyActivitySelection) -> String
    /// Whether two stored strings hold the same selection (`nil` when either does not decode).
    public var equal: @Sendable (String, String) -> Bool?
    public var order: @Sendable (FamilyActivitySelection, SelectionTokenKind) -> [String]
    public var count: @Sendable (FamilyActivitySelection, SelectionTokenKind) -> Int
    public var combine:
        @Sendable (FamilyActivitySelection, FamilyActivitySelection, FamilyActivitySelection.SetOperation) ->
            FamilyActivitySelection

    public init(
        decode: @escaping @Sendable ([UInt8]) -> Result<FamilyActivitySelection, SelectionDecodingError> =
            SelectionSubject.referenceDecode,
        canonical: @escaping @Sendable (FamilyActivitySelection) -> String = { $0.canonicalBase64 },
        equal: @escaping @Sendable (String, String) -> Bool? = SelectionSubject.referenceEqual,
        order: @escaping @Sendable (FamilyActivitySelection, SelectionTokenKind) -> [String] = {
            $0.orderedTokenData(of: $1)
        },
        count: @escaping @Sendable (FamilyActivitySelection, SelectionTokenKind) -> Int = { $0.count(of: $1) },
        combine:
            @escaping @Sendable (FamilyActivitySelection, FamilyActivitySelection, FamilyActivitySelection.SetOperation)
            -> FamilyActivitySelection = { $0.combined(with: $1, $2) }
    ) {
        self.decode = decode
        self.canonical = canonical
        self.equal = equal
        self.order = order
        self.count = count
        self.combine = combine
    }

    public static let reference = SelectionSubject()

    @Sendable public static func referenceDecode(_ bytes: [UInt8]) -> Result<
        FamilyActivitySelection, SelectionDecodingError
    > {
        Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(bytes).selection }
    }

    /// The reference's equality of two stored strings (``SelectionDecoder/sameSelection(_:_:)``), `nil` when one
    /// does not decode.
    @Sendable public static func referenceEqual(_ a: String, _ b: String) -> Bool? {
        try? SelectionDecoder.sameSelection(Array(a.utf8), Array(b.utf8))
    }
}
