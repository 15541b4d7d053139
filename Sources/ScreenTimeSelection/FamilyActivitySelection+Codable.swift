import StrictJSON

/// `Codable` in the exact JSON shape iOS writes (device capture), so that
/// `JSONDecoder().decode(FamilyActivitySelection.self, from: data)` reads a device string as it does on iOS,
/// and `JSONEncoder` writes one that iOS can read.
///
/// Seven keys: `applicationTokens`, `categoryTokens`, `webDomainTokens` (arrays of `{"data": "<base64>"}`),
/// `includeEntireCategory`, and the three `untokenized*Identifiers` arrays. Arrays are encoded in stable order,
/// so `JSONEncoder` with `.sortedKeys` writes the canonical JSON. A missing `includeEntireCategory` decodes as
/// `false` and missing `untokenized*` arrays as empty (assumption: iOS versions before 15.2 lack the first).
///
/// Prefer ``FamilyActivitySelection/init(storedBase64:)`` for stored strings: it is stricter (duplicate keys,
/// canonical base64, token sizes) and reports offsets.
extension FamilyActivitySelection: Codable {
    enum CodingKeys: String, CodingKey {
        case applicationTokens, categoryTokens, webDomainTokens, includeEntireCategory
        case untokenizedApplicationIdentifiers, untokenizedCategoryIdentifiers, untokenizedWebDomainIdentifiers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            includeEntireCategory: try container.decodeIfPresent(Bool.self, forKey: .includeEntireCategory) ?? false)
        applicationTokens = Set(try container.decode([ApplicationToken].self, forKey: .applicationTokens))
        categoryTokens = Set(try container.decode([ActivityCategoryToken].self, forKey: .categoryTokens))
        webDomainTokens = Set(try container.decode([WebDomainToken].self, forKey: .webDomainTokens))
        func identifiers(_ key: CodingKeys) throws -> Set<UntokenizedIdentifier> {
            let strings: [String] = try container.decodeIfPresent([String].self, forKey: key) ?? []
            return Set(strings.map { UntokenizedIdentifier($0) })
        }
        untokenizedApplicationIdentifiers = try identifiers(.untokenizedApplicationIdentifiers)
        untokenizedCategoryIdentifiers = try identifiers(.untokenizedCategoryIdentifiers)
        untokenizedWebDomainIdentifiers = try identifiers(.untokenizedWebDomainIdentifiers)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(orderedApplicationTokens, forKey: .applicationTokens)
        try container.encode(orderedCategoryTokens, forKey: .categoryTokens)
        try container.encode(orderedWebDomainTokens, forKey: .webDomainTokens)
        try container.encode(includeEntireCategory, forKey: .includeEntireCategory)
        try container.encode(
            untokenizedApplicationIdentifiers.sorted().map(\.value), forKey: .untokenizedApplicationIdentifiers)
        try container.encode(
            untokenizedCategoryIdentifiers.sorted().map(\.value), forKey: .untokenizedCategoryIdentifiers)
        try container.encode(
            untokenizedWebDomainIdentifiers.sorted().map(\.value), forKey: .untokenizedWebDomainIdentifiers)
    }
}

/// A token is the one-key object `{"data": "<standard padded base64>"}` (device capture). Decoding checks the
/// base64 strictly and the 1…1024-byte size, and fails with `DecodingError.dataCorrupted` otherwise.
extension Token: Codable {
    enum CodingKeys: String, CodingKey { case data }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .data)
        do {
            try self.init(base64Data: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: error.detail)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
    }
}
