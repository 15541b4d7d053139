import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `url.encode`, `url.decode` and `template.render` (`SPEC.md` §4, §5), read and written through
    /// ``EncodingWire``.
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
        EncodingWire.encodedOutput(PercentEncoding.encodeComponent(try input.string("text")))
    }

    /// `{encoded}` → `{text}`, or `invalidPercentEncoding` / `invalidUTF8`.
    @Sendable private static func urlDecode(_ input: InputReader) throws -> JSONValue {
        let encoded = try input.string("encoded")
        do {
            return EncodingWire.textOutput(try PercentEncoding.decodeComponent(encoded))
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    /// `{template, values}` → `{text, missing}`; each value is a string or null, anything else is `badInput`.
    @Sendable private static func templateRender(_ input: InputReader) throws -> JSONValue {
        let template = try input.string("template")
        let values = try EncodingWire.templateValues(input)
        return EncodingWire.renderingOutput(ShieldTextTemplate(template).render(values))
    }
}
