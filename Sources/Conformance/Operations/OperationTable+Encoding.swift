import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `url.encode`, `url.decode` and `template.render` (`SPEC.md` §4, §5).
    static var encodingOperations: [Operation] {
        [
            Operation(
                name: "url.encode",
                summary: "Percent-encode text as one URL component: unreserved ASCII kept, other UTF-8 bytes %XX",
                body: urlEncode
            ),
            Operation(
                name: "url.decode",
                summary: "Strictly decode one percent-encoded URL component (+ is a plus) into UTF-8 text",
                body: urlDecode
            ),
            Operation(
                name: "template.render",
                summary: "Render a shield-text template ({key}, {key|fallback}) and list the keys without a value",
                body: templateRender
            ),
        ]
    }

    /// `{text}` → `{encoded}`.
    @Sendable private static func urlEncode(_ input: InputReader) throws -> JSONValue {
        let text = try input.string("text")
        return urlEncodeOutput.object([.string(PercentEncoding.encodeComponent(text))])
    }

    private static let urlEncodeOutput = OutputShape("encoded")

    /// `{encoded}` → `{text}`, or `invalidPercentEncoding` / `invalidUTF8`.
    @Sendable private static func urlDecode(_ input: InputReader) throws -> JSONValue {
        let encoded = try input.string("encoded")
        do {
            return urlDecodeOutput.object([.string(try PercentEncoding.decodeComponent(encoded))])
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    private static let urlDecodeOutput = OutputShape("text")

    /// `{template, values}` → `{text, missing}`; each value is a string or null, anything else is `badInput`.
    @Sendable private static func templateRender(_ input: InputReader) throws -> JSONValue {
        let template = try input.string("template")
        let members = try input.object("values")
        // The first member (in the object's order) that is neither a string nor null is named. The rest are
        // converted with `mapValues`, which keeps the object's hash table: no key is hashed again.
        if let bad = members.firstIndex(where: { !isStringOrNull($0.value) }) {
            let (key, value) = members[bad]
            throw BadInput("\"values\" member \"\(key)\" is \(value.typeName), not a string or null")
        }
        let values: [String: String?] = members.mapValues(\.stringValue)
        let rendering = ShieldTextTemplate(template).render(values)
        return templateRenderOutput.object([.string(rendering.text), .array(rendering.missing.map { .string($0) })])
    }

    private static let templateRenderOutput = OutputShape("text", "missing")

    private static func isStringOrNull(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .null: return true
        default: return false
        }
    }
}
