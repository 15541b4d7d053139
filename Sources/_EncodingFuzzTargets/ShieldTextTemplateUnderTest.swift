import ScreenTimeEncoding

/// The shield-text template the `template` checks run against: `ShieldTextTemplate` under libFuzzer and replay,
/// a deliberately wrong one in the tests.
public protocol ShieldTextTemplateUnderTest {
    init(_ text: String)
    var keys: [String] { get }
    func render(_ values: [String: String?]) -> ShieldTextTemplate.Rendering
}

extension ShieldTextTemplate: ShieldTextTemplateUnderTest {}
