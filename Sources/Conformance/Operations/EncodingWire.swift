import ScreenTimeReference
import StrictJSON

/// The wire shapes of `url.encode`, `url.decode` and `template.render` (`SPEC.md` §5): the members read from an
/// input, and the outputs written from reference values.
///
/// The reference's operations and the testing kit's typed closures read and write through these functions.
///
/// ```swift
/// EncodingWire.encodedOutput(PercentEncoding.encodeComponent("Café"))   // {"encoded": "Caf%C3%A9"}
/// let values = try EncodingWire.templateValues(input)                    // ["applicationName": nil]
/// ```
public enum EncodingWire {
    /// The output of `url.encode`: `{"encoded": encoded}`.
    ///
    /// - Parameter encoded: The encoded component.
    /// - Returns: The output object.
    public static func encodedOutput(_ encoded: String) -> JSONValue { encodedShape.object([.string(encoded)]) }

    private static let encodedShape = OutputShape("encoded")

    /// The output of `url.decode`: `{"text": text}`.
    ///
    /// - Parameter text: The decoded text.
    /// - Returns: The output object.
    public static func textOutput(_ text: String) -> JSONValue { textShape.object([.string(text)]) }

    private static let textShape = OutputShape("text")

    /// The input member `values` of `template.render`: each key's value, `nil` for a JSON `null`.
    ///
    /// Rule: an object whose members are strings or `null` (`SPEC.md` §5); the first member (in the object's
    /// order) of another type is named in a ``BadInput``. Example: `{"values": {"app": null}}` gives
    /// `["app": nil]`.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: Each key's value.
    /// - Throws: ``BadInput`` when `values` is missing, not an object, or holds a member of another type.
    public static func templateValues(_ input: InputReader) throws -> [String: String?] {
        let members = try input.object("values")
        if let bad = members.firstIndex(where: { !isStringOrNull($0.value) }) {
            let (key, value) = members[bad]
            throw BadInput("\"values\" member \"\(key)\" is \(value.typeName), not a string or null")
        }
        // `mapValues` keeps the object's hash table: no key is hashed again.
        return members.mapValues(\.stringValue)
    }

    /// The output of `template.render`: `{"text": …, "missing": […]}` from a rendering.
    ///
    /// - Parameter rendering: The rendered text and the keys without a value.
    /// - Returns: The output object.
    public static func renderingOutput(_ rendering: ShieldTextTemplate.Rendering) -> JSONValue {
        renderingShape.object([.string(rendering.text), .array(rendering.missing.map { .string($0) })])
    }

    private static let renderingShape = OutputShape("text", "missing")

    private static func isStringOrNull(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .null: return true
        default: return false
        }
    }
}
