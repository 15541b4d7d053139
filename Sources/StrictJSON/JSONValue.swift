/// A JSON value (RFC 8259), held in plain Swift types.
///
/// Objects are dictionaries: member order carries no meaning in JSON, and ``JSONWriter`` writes keys sorted
/// by code point so that output is stable across processes. Numbers are `Double`, which holds every integer
/// up to 2^53 exactly (all that the vector format uses).
///
/// Equality is JSON equality: objects compare as key sets with equal values, numbers by value.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member `key` of an object, or `nil` when this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The number as an `Int` when it is integral and in range, else `nil`.
    public var intValue: Int? {
        guard case .number(let n) = self, n >= -9_007_199_254_740_992, n <= 9_007_199_254_740_992,
            let i = Int(exactly: n)
        else { return nil }
        return i
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the value's JSON type, for error messages ("string", "object", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        for (k, v) in elements { members[k] = v }
        self = .object(members)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text with sorted keys.
    public var description: String { JSONWriter.string(self) }
}
