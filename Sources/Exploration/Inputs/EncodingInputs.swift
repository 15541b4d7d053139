import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of `url.encode`, `url.decode` and `template.render`: names in every script with reserved and
/// sub-delimiter characters, encoded components with lower-case hex, `+`, malformed escapes and escapes that
/// decode to invalid UTF-8, and templates with missing, null and empty values, malformed braces and keys that
/// are names of built-in members in common languages.
enum EncodingInputs {
    static let operations = [urlEncode, urlDecode, templateRender]

    /// Characters that encoders disagree on: RFC 3986 sub-delimiters and gen-delimiters, space and `~`.
    static let delimiters = Gen<String>.element(of: [
        "!", "'", "(", ")", "*", "~", " ", "+", "&", "=", "?", "#", "/", "%",
    ])

    static let name: Gen<String> = Gen<String>.frequency([
        (4, Gen<String>.appName),
        (2, Gen<String>.oneOf(Gen<String>.appNamePiece, delimiters).array(count: 1...4).map { $0.joined() }),
    ])

    static let urlEncode = ExploredOperation(name: "url.encode", input: name.map { ["text": .string($0)] })

    /// Escapes that are malformed or decode to bytes that are not UTF-8.
    static let badEscape = Gen<String>.element(of: [
        "%", "%4", "%zz", "%%", "%G1", "%C3%28", "%FF", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%E2%82", "%c3",
    ])

    static let encoded: Gen<String> = Gen<String>.frequency([
        (3, name.map { PercentEncoding.encodeComponent($0) }),
        (2, name.map { PercentEncoding.encodeComponent($0).lowercased() }),
        (
            3,
            Gen<String>.oneOf(name.map { PercentEncoding.encodeComponent($0) }, badEscape, delimiters).array(
                count: 1...4
            ).map { $0.joined() }
        ),
    ])

    static let urlDecode = ExploredOperation(
        name: "url.decode", input: encoded.map { ["encoded": .string($0)] },
        reason: { input in
            guard let text = input["encoded"]?.stringValue else { return nil }
            do throws(PercentDecodingError) {
                _ = try PercentEncoding.decodeComponent(text)
                return nil
            } catch {
                return error.reason.rawValue
            }
        })

    /// Keys that are also names of members every object has in JavaScript or Python, dotted and dashed keys,
    /// and keys with letters outside ASCII (not keys by `SPEC.md` §4: they render literally).
    static let unusualKey = Gen<String>.element(of: [
        "constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__class__", "keys", "app.name",
        "app-name", "café", "名前", "a1", "_",
    ])

    static let templateRender = ExploredOperation(
        name: "template.render",
        input: Gen<JSONValue>.frequency([
            (3, Gen<TemplateCase>.templateCase.map(json)),
            (1, Gen<TemplateCase>.templateWithTemplateLikeValues.map(json)),
            (2, unusualTemplate),
        ]))

    static func json(_ template: TemplateCase) -> JSONValue {
        var values: [String: JSONValue] = [:]
        for (key, value) in template.values { values[key] = value.map(JSONValue.string) ?? .null }
        return ["template": .string(template.template), "values": .object(values)]
    }

    /// Placeholders of ``unusualKey`` keys, with and without fallbacks and values.
    static let unusualTemplate: Gen<JSONValue> = Gen<(String, String?)>.zip(
        unusualKey, Gen<String>.element(of: ["x", ""]).optional(probability: 0.5)
    ).array(count: 1...3).zip(
        Gen<(String, String?)>.zip(unusualKey, Gen<String>.element(of: ["v", ""]).optional(probability: 0.7))
            .array(count: 0...2)
    ).map { placeholders, given in
        let template = placeholders.map { key, fallback in fallback.map { "{\(key)|\($0)}" } ?? "{\(key)}" }
            .joined(separator: " ")
        var values: [String: JSONValue] = [:]
        for (key, value) in given { values[key] = value.map(JSONValue.string) ?? .null }
        return ["template": .string(template), "values": .object(values)]
    }
}
