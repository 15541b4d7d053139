import Foundation

/// What a typical app does to canonicalize a stored selection with Foundation: `Data(base64Encoded:)`,
/// `JSONDecoder` into a struct of the selection's shape (token data as `Data`, which `JSONDecoder` reads as
/// base64), duplicates removed and tokens sorted by their base64 text, `JSONEncoder` with `.sortedKeys`, and
/// base64 again. Its output is byte-for-byte the reference's ``FamilyActivitySelection/canonicalBase64``.
public final class FoundationCanonicalizer {
    struct TokenOut: Encodable { var data: String }

    struct SelectionOut: Encodable {
        var applicationTokens: [TokenOut]
        var categoryTokens: [TokenOut]
        var includeEntireCategory: Bool
        var untokenizedApplicationIdentifiers: [String]
        var untokenizedCategoryIdentifiers: [String]
        var untokenizedWebDomainIdentifiers: [String]
        var webDomainTokens: [TokenOut]
    }

    // Reused across calls (kinder to Foundation than making new ones each time, as many apps do).
    let decoder = JSONDecoder()
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    public init() {}

    /// The canonical stored string, or `nil` when Foundation rejects the input.
    @inline(never)
    public func canonicalize(_ stored: String) -> String? {
        guard let json = Data(base64Encoded: stored),
            let s = try? decoder.decode(FoundationSelectionDecoder.Selection.self, from: json)
        else { return nil }
        func tokens(_ list: [FoundationSelectionDecoder.Token]) -> [TokenOut] {
            Set(list.map { $0.data.base64EncodedString() }).sorted().map(TokenOut.init)
        }
        func strings(_ list: [String]?) -> [String] {
            Set(list ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        let out = SelectionOut(
            applicationTokens: tokens(s.applicationTokens), categoryTokens: tokens(s.categoryTokens),
            includeEntireCategory: s.includeEntireCategory ?? false,
            untokenizedApplicationIdentifiers: strings(s.untokenizedApplicationIdentifiers),
            untokenizedCategoryIdentifiers: strings(s.untokenizedCategoryIdentifiers),
            untokenizedWebDomainIdentifiers: strings(s.untokenizedWebDomainIdentifiers),
            webDomainTokens: tokens(s.webDomainTokens))
        guard let encoded = try? encoder.encode(out) else { return nil }
        return encoded.base64EncodedString()
    }
}
