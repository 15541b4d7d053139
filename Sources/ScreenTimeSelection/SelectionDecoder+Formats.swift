import StrictJSON
import StrictPropertyList

extension SelectionDecoder {
    /// One selection of a JSON document: where it is, and what reading it gave (`SPEC.md` §1.3).
    public struct DocumentEntry: Sendable {
        /// Its JSON Pointer from the document's root (`""` for the top-level value).
        public var path: String
        /// Its byte range in the document.
        public var range: Range<Int>
        /// The selection, or its own error (offsets count in the document).
        public var result: Result<Report, SelectionDecodingError>
    }

    /// Decodes a stored value of `format` that holds one selection (`SPEC.md` §1.1).
    ///
    /// Rule: `empty`, then `tooLarge` (over 1 MiB of stored bytes), then the format's own layers: base64 for
    /// `base64-json` and `base64-plist`, JSON by §1 for the JSON formats, a property list by §1.2 and the plist
    /// schema for the property-list ones. A `json-document` is read as a document and must hold exactly one
    /// selection (use ``decodeDocument(_:)`` for several). Source: `SPEC.md` §1.1.
    ///
    /// ```swift
    /// let report = try SelectionDecoder.decode(Array(defaults.data(forKey: "selection") ?? Data()), format: .binaryPlist)
    /// ```
    ///
    /// - Parameters:
    ///   - stored: The stored bytes (for the base64 formats, the text's UTF-8).
    ///   - format: What they are.
    /// - Returns: The selection and the facts about its encoding.
    /// - Throws: ``SelectionDecodingError``, the first by `SPEC.md` §1.1's order.
    public static func decode(_ stored: [UInt8], format: SelectionFormat) throws(SelectionDecodingError) -> Report {
        switch format {
        case .base64JSON:
            return try decode(stored)
        case .json:
            try checkSize(stored)
            return try decodeJSON(stored)
        case .jsonDocument:
            let entries = try decodeDocument(stored)
            guard entries.count == 1 else {
                throw SelectionDecodingError(
                    .schema, at: 0,
                    detail: "the document holds \(entries.count) selections, not one (read it as a document)")
            }
            return try entries[0].result.get()
        case .binaryPlist:
            try checkSize(stored)
            return try decodePropertyList(stored, .binary)
        case .xmlPlist:
            try checkSize(stored)
            return try decodePropertyList(stored, .xml)
        case .base64Plist:
            let bytes = try json(ofStored: stored)
            return try decodePropertyList(bytes, bytes.starts(with: Array("bplist00".utf8)) ? .binary : .xml)
        }
    }

    /// The selections of a JSON document, each read on its own (`SPEC.md` §1.3).
    ///
    /// Rule: the document as a whole must be non-empty, at most 1 MiB, valid JSON (depth 32 from its root), and
    /// repeat no key outside its selections; then every object with a token-array member is a selection, found
    /// depth first, named by its JSON Pointer, and read by §1's `schema` and `token` rules. One bad selection never
    /// hides another. Source: `SPEC.md` §1.3; RFC 6901; Assumption A15.
    ///
    /// ```swift
    /// for entry in try SelectionDecoder.decodeDocument(Array(data)) {
    ///     switch entry.result {
    ///     case .success(let report): profiles[entry.path] = report.selection
    ///     case .failure(let error): log("profile at \(entry.path) is unreadable: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter document: The document's bytes.
    /// - Returns: Each selection in document order with its path and its result.
    /// - Throws: ``SelectionDecodingError`` for the whole document (`empty`, `tooLarge`, `json`, `schema`).
    public static func decodeDocument(_ document: [UInt8]) throws(SelectionDecodingError) -> [DocumentEntry] {
        try checkSize(document)
        let found = document.withUnsafeBufferPointer { buffer in
            Result { () throws(SelectionDecodingError) -> [SelectionDocumentReader.Found] in
                var reader = SelectionDocumentReader(buffer: buffer)
                do throws(JSONParseError) {
                    try reader.read()
                } catch {
                    throw SelectionDecodingError(.json, at: error.offset, detail: error.reason.rawValue)
                }
                if let repeated = reader.repeatedKey {
                    throw SelectionDecodingError(
                        .schema, at: repeated, detail: "a key is repeated in an object outside the selections")
                }
                return reader.found
            }
        }
        return try found.get().map { place in
            let result = Result { () throws(SelectionDecodingError) -> Report in
                do throws(SelectionDecodingError) {
                    return try decodeJSON(Array(document[place.range]))
                } catch {
                    var shifted = error
                    shifted.offset += place.range.lowerBound
                    throw shifted
                }
            }
            return DocumentEntry(path: place.path, range: place.range, result: result)
        }
    }

    /// `empty` and `tooLarge` for stored bytes that are not base64 text (`SPEC.md` §1.1, common rules).
    static func checkSize(_ stored: [UInt8]) throws(SelectionDecodingError) {
        if stored.isEmpty { throw SelectionDecodingError(.empty, at: 0, detail: "the stored value is empty") }
        if stored.count > maximumBase64Length {
            throw SelectionDecodingError(
                .tooLarge, at: maximumBase64Length,
                detail: "\(stored.count) bytes, over the \(maximumBase64Length)-byte limit")
        }
    }

    /// A selection from property-list bytes: the list by `SPEC.md` §1.2, then its plist schema.
    static func decodePropertyList(
        _ bytes: [UInt8], _ format: PropertyListFormat
    ) throws(SelectionDecodingError) -> Report {
        let top: PropertyListNode
        do throws(PropertyListError) {
            top = try PropertyListReader.read(bytes, as: format)
        } catch {
            throw SelectionDecodingError(.plist, at: error.offset, detail: error.detail, in: .propertyList)
        }
        return try PropertyListSelectionReader.read(top).get()
    }
}
