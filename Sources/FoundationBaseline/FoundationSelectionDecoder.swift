import Foundation

/// What a typical app does: `Data(base64Encoded:)`, then `JSONDecoder` into a struct of the selection's shape
/// (tokens as `Data`, which `JSONDecoder` reads as base64). The other side of the differential harness and of
/// the benchmark; not the reference.
public struct FoundationSelectionDecoder {
    public struct Token: Decodable, Hashable { public var data: Data }

    public struct Selection: Decodable {
        public var applicationTokens: [Token]
        public var categoryTokens: [Token]
        public var webDomainTokens: [Token]
        public var includeEntireCategory: Bool?
        public var untokenizedApplicationIdentifiers: [String]?
        public var untokenizedCategoryIdentifiers: [String]?
        public var untokenizedWebDomainIdentifiers: [String]?
    }

    /// The decoded token sets (as canonical base64 strings) and flag, or `nil` when Foundation rejects the input.
    public struct Sets: Equatable, CustomStringConvertible {
        public var applications: Set<String>
        public var categories: Set<String>
        public var webDomains: Set<String>
        public var includeEntireCategory: Bool

        public init(
            applications: Set<String>, categories: Set<String>, webDomains: Set<String>, includeEntireCategory: Bool
        ) {
            self.applications = applications
            self.categories = categories
            self.webDomains = webDomains
            self.includeEntireCategory = includeEntireCategory
        }

        public var description: String {
            "apps \(applications.count), categories \(categories.count), web \(webDomains.count), entire \(includeEntireCategory)"
        }
    }

    public static func decode(_ stored: [UInt8]) -> Sets? {
        guard let text = String(validating: stored, as: UTF8.self), let json = Data(base64Encoded: text) else {
            return nil
        }
        return decodeJSON(json)
    }

    public static func decodeJSON(_ json: Data) -> Sets? {
        guard let s = try? JSONDecoder().decode(Selection.self, from: json) else { return nil }
        return Sets(
            applications: Set(s.applicationTokens.map { $0.data.base64EncodedString() }),
            categories: Set(s.categoryTokens.map { $0.data.base64EncodedString() }),
            webDomains: Set(s.webDomainTokens.map { $0.data.base64EncodedString() }),
            includeEntireCategory: s.includeEntireCategory ?? false)
    }
}
