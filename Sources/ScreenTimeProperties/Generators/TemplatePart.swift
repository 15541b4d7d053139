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
