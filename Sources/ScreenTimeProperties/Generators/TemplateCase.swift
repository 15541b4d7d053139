/// A template with the values to render it with.
public struct TemplateCase: Sendable, CustomStringConvertible {
    public var parts: [TemplatePart]
    /// Key → value; a key mapped to `nil` is present but null; keys not in the dictionary are missing.
    public var values: [String: String?]
    public var template: String { parts.map(\.text).joined() }
    public var description: String {
        let shown = values.keys.sorted().map { key in
            "\(key): \(values[key].flatMap { $0 }.map { String(reflecting: $0) } ?? "null")"
        }
        return "template \(String(reflecting: template))\n  values {\(shown.joined(separator: ", "))}"
    }
}

/// One part of a generated template.
public enum TemplatePart: Sendable, Hashable {
    case literal(String)
    case placeholder(key: String, fallback: String?)

    public var text: String {
        switch self {
        case .literal(let text): return text
        case .placeholder(let key, nil): return "{\(key)}"
        case .placeholder(let key, let fallback?): return "{\(key)|\(fallback)}"
        }
    }
}
