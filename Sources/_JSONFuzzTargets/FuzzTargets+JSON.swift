import StrictJSON
@_exported import _FuzzCore  // the shim of `json` imports only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let jsonTargets = [json]

    /// `json`: any bytes through the strict JSON parser on its own (the selection targets reach it only through
    /// a selection's schema). Parsing is total: a value or a typed error with an offset inside the input; what it
    /// accepts is valid UTF-8 (RFC 8259 §8.1); the canonical writer's text of a parsed value parses back to the
    /// same value, and is a fixed point; the two equal values hash alike; and every node's accessors agree with
    /// its case (``JSONAccessorInvariants``).
    ///
    /// `maxLength` 1024: room for nesting, escapes and every kind of number, as the other grammar targets.
    public static let json = FuzzTarget(
        name: "json", summary: "any bytes as JSON: total strict parse, canonical writer round trip and fixed point",
        maxLength: 1024,
        inPlace: { bytes in
            let value: JSONValue
            do throws(JSONParseError) {
                value = try JSONParser.value(bytes)
            } catch {
                let offsetIsInside = error.offset >= 0 && error.offset <= bytes.count
                return offsetIsInside
                    ? nil : HarnessFailure("error offset inside the input", "\(error), \(bytes.count) bytes")
            }
            // RFC 8259 §8.1: JSON text is UTF-8, so whatever the parser accepts must be valid UTF-8 (no overlong
            // form, surrogate or stray continuation byte), judged by the standard library's own validation.
            if String(validating: bytes, as: UTF8.self) == nil {
                return HarnessFailure("the parser accepted text that is not valid UTF-8", "\(bytes.count) bytes")
            }
            let written = JSONWriter.string(value)
            let again: JSONValue
            do throws(JSONParseError) {
                again = try JSONParser.value(written)
            } catch {
                return HarnessFailure("canonical JSON parses", "\(error) in \(written)")
            }
            if again != value { return HarnessFailure("canonical JSON parses back to the same value", written) }
            if again.hashValue != value.hashValue {
                return HarnessFailure("equal values hash alike", written)
            }
            if let failure = JSONAccessorInvariants.check(value) { return failure }
            let rewritten = JSONWriter.string(again)
            return rewritten == written
                ? nil : HarnessFailure("canonical JSON is a fixed point", "\(written) then \(rewritten)")
        })
}

/// The accessors of ``JSONValue`` checked against each other on every node of a parsed value: exactly one of
/// `stringValue`, `boolValue`, `doubleValue`, `arrayValue`, `objectValue`, `isNull` answers, the one of the
/// node's case, named by `typeName`; `intValue` is the number exactly when it is an integer within ±2^53;
/// `value[key]` is the object's member for each of its keys and `nil` for a key it lacks or on a non-object;
/// `description` is the canonical writer's text.
public enum JSONAccessorInvariants {
    public static func check(_ root: JSONValue) -> HarnessFailure? {
        // An explicit stack: the parser allows nesting deeper than a recursive walk should go.
        var stack = [root]
        while let value = stack.popLast() {
            if let failure = checkNode(value) { return failure }
            if let elements = value.arrayValue { stack.append(contentsOf: elements) }
            if let members = value.objectValue { stack.append(contentsOf: members.values) }
        }
        if root.description != JSONWriter.string(root) { return HarnessFailure("description is the canonical text") }
        return nil
    }

    static func checkNode(_ value: JSONValue) -> HarnessFailure? {
        let answers: [(String, Bool)] = [
            ("null", value.isNull), ("boolean", value.boolValue != nil), ("number", value.doubleValue != nil),
            ("string", value.stringValue != nil), ("array", value.arrayValue != nil),
            ("object", value.objectValue != nil),
        ]
        let named = answers.filter(\.1).map(\.0)
        if named != [value.typeName] {
            return HarnessFailure("accessors disagree with typeName", "\(value.typeName) answered by \(named)")
        }
        switch value {
        case .null, .bool, .string, .array:
            if value.intValue != nil { return HarnessFailure("intValue of a \(value.typeName)") }
            if value[""] != nil { return HarnessFailure("subscript of a \(value.typeName)") }
        case .number(let n):
            let integral = n.rounded(.towardZero) == n && abs(n) <= 9_007_199_254_740_992
            if value.intValue.map(Double.init) != (integral ? n : nil) {
                return HarnessFailure(
                    "intValue is not the integer of the number", "\(n): \(String(describing: value.intValue))")
            }
            if value[""] != nil { return HarnessFailure("subscript of a number") }
        case .object(let members):
            for (key, member) in members where value[key] != member {
                return HarnessFailure("subscript differs from the object's member", key.debugDescription)
            }
            // A key the object lacks: one longer than every key it has.
            let absent = String(repeating: "k", count: (members.keys.map(\.utf8.count).max() ?? 0) + 1)
            if value[absent] != nil { return HarnessFailure("subscript finds a key the object lacks") }
        }
        return nil
    }
}
