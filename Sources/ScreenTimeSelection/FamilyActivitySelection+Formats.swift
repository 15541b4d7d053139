import StrictPropertyList

extension FamilyActivitySelection {
    /// Decodes a stored value of any single-selection format (`SPEC.md` §1.1). (Ours.)
    ///
    /// ```swift
    /// let selection = try FamilyActivitySelection(stored: Array(data), format: .binaryPlist)
    /// ```
    ///
    /// - Parameters:
    ///   - stored: The stored bytes (for the base64 formats, the text's UTF-8).
    ///   - format: What they are.
    /// - Throws: ``SelectionDecodingError``.
    public init(stored: [UInt8], format: SelectionFormat) throws(SelectionDecodingError) {
        self = try SelectionDecoder.decode(stored, format: format).selection
    }

    /// The selection written in `format`: its canonical form there (`SPEC.md` §1.1, "Canonical output per
    /// format"). (Ours.)
    ///
    /// Rule: `base64-json` is the canonical string and `json` the canonical JSON (§1); the property lists hold the
    /// seven keys sorted, tokens in stable order as one-member dictionaries `data` → data, the untokenized arrays
    /// sorted as in §1; `base64-plist` is base64 of the binary list. A `json-document` is written as the
    /// document whose top-level value is the selection (its canonical JSON). Every output reads back, in the
    /// same format, as this selection. Source: Definition.
    ///
    /// ```swift
    /// defaults.set(Data(try selection.encoded(as: .binaryPlist)), forKey: "selection")   // never `try?`: §7.11
    /// ```
    ///
    /// - Parameter format: The format to write.
    /// - Returns: The stored bytes (for the base64 formats, the text's UTF-8).
    /// - Throws: ``SelectionEncodingError`` when the format cannot hold the selection: only `xml-plist`, for an
    ///   untokenized identifier with a character XML forbids.
    public func encoded(as format: SelectionFormat) throws(SelectionEncodingError) -> [UInt8] {
        switch format {
        case .base64JSON: return Array(canonicalBase64.utf8)
        case .json, .jsonDocument: return canonicalJSON
        case .binaryPlist: return PropertyListWriter.binary(propertyList)
        case .xmlPlist:
            for identifiers in [
                untokenizedApplicationIdentifiers, untokenizedCategoryIdentifiers, untokenizedWebDomainIdentifiers,
            ] {
                for identifier in identifiers {
                    if let scalar = identifier.value.unicodeScalars.first(where: { !PropertyListWriter.xmlCanHold($0) })
                    {
                        let hex = String(scalar.value, radix: 16, uppercase: true)
                        throw SelectionEncodingError(
                            "an untokenized identifier holds U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex), "
                                + "which XML cannot hold")
                    }
                }
            }
            return PropertyListWriter.xml(propertyList)
        case .base64Plist: return Base64.encodeToBytes(PropertyListWriter.binary(propertyList))
        }
    }

    /// The selection as `PropertyListEncoder` lays it out: the seven keys sorted by code point.
    var propertyList: PropertyListNode {
        func string(_ text: String) -> PropertyListNode { PropertyListNode(.string(text)) }
        func tokens<Kind>(_ ordered: [Token<Kind>]) -> PropertyListNode {
            PropertyListNode(
                .array(
                    ordered.map { token in
                        PropertyListNode(
                            .dictionary([
                                PropertyListEntry(key: string("data"), value: PropertyListNode(.data(token.bytes)))
                            ]))
                    }))
        }
        func strings(_ identifiers: Set<UntokenizedIdentifier>) -> PropertyListNode {
            PropertyListNode(.array(identifiers.sorted().map { string($0.value) }))
        }
        return PropertyListNode(
            .dictionary([
                PropertyListEntry(key: string("applicationTokens"), value: tokens(orderedApplicationTokens)),
                PropertyListEntry(key: string("categoryTokens"), value: tokens(orderedCategoryTokens)),
                PropertyListEntry(
                    key: string("includeEntireCategory"), value: PropertyListNode(.bool(includeEntireCategory))),
                PropertyListEntry(
                    key: string("untokenizedApplicationIdentifiers"), value: strings(untokenizedApplicationIdentifiers)),
                PropertyListEntry(
                    key: string("untokenizedCategoryIdentifiers"), value: strings(untokenizedCategoryIdentifiers)),
                PropertyListEntry(
                    key: string("untokenizedWebDomainIdentifiers"), value: strings(untokenizedWebDomainIdentifiers)),
                PropertyListEntry(key: string("webDomainTokens"), value: tokens(orderedWebDomainTokens)),
            ]))
    }
}
