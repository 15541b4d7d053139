import ScreenTimeReference

/// The storage-format functions a property checks (`SPEC.md` §1.1 … §1.3). Defaults to the reference; tests pass
/// broken variants (an encoder that drops `includeEntireCategory`, a document reader that answers nothing when one
/// selection is bad) to show that each property can fail.
public struct SelectionFormatSubject: Sendable {
    /// One selection's stored value of a format, read.
    public var decode: @Sendable ([UInt8], SelectionFormat) -> Result<FamilyActivitySelection, SelectionDecodingError>
    /// The selections of a JSON document, each with its path and result, or the whole document's error.
    public var decodeDocument:
        @Sendable ([UInt8]) -> Result<
            [(path: String, selection: Result<FamilyActivitySelection, SelectionDecodingError>)],
            SelectionDecodingError
        >
    /// A selection written in a format of one selection, or why the format cannot hold it.
    public var encode: @Sendable (FamilyActivitySelection, SelectionFormat) -> Result<[UInt8], SelectionEncodingError>

    public init(
        decode:
            @escaping @Sendable ([UInt8], SelectionFormat) -> Result<
                FamilyActivitySelection, SelectionDecodingError
            > = SelectionFormatSubject.referenceDecode,
        decodeDocument:
            @escaping @Sendable ([UInt8]) -> Result<
                [(path: String, selection: Result<FamilyActivitySelection, SelectionDecodingError>)],
                SelectionDecodingError
            > = SelectionFormatSubject.referenceDecodeDocument,
        encode:
            @escaping @Sendable (FamilyActivitySelection, SelectionFormat) -> Result<[UInt8], SelectionEncodingError> =
            {
                selection, format in Result { () throws(SelectionEncodingError) in try selection.encoded(as: format) }
            }
    ) {
        self.decode = decode
        self.decodeDocument = decodeDocument
        self.encode = encode
    }

    public static let reference = SelectionFormatSubject()

    @Sendable public static func referenceDecode(_ stored: [UInt8], _ format: SelectionFormat) -> Result<
        FamilyActivitySelection, SelectionDecodingError
    > {
        Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(stored, format: format).selection }
    }

    @Sendable public static func referenceDecodeDocument(_ document: [UInt8]) -> Result<
        [(path: String, selection: Result<FamilyActivitySelection, SelectionDecodingError>)], SelectionDecodingError
    > {
        Result { () throws(SelectionDecodingError) in
            try SelectionDecoder.decodeDocument(document).map { ($0.path, $0.result.map(\.selection)) }
        }
    }
}
