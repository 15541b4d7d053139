import ScreenTimeReference

/// The template renderer a property checks (defaults to `ShieldTextTemplate`).
public struct TemplateSubject: Sendable {
    public var render: @Sendable (String, [String: String?]) -> ShieldTextTemplate.Rendering
    public init(
        render: @escaping @Sendable (String, [String: String?]) -> ShieldTextTemplate.Rendering = {
            ShieldTextTemplate($0).render($1)
        }
    ) {
        self.render = render
    }
    public static let reference = TemplateSubject()
}
