/// A JSON value (RFC 8259), held in plain Swift types.
///
/// Objects are dictionaries: member order carries no meaning in JSON, and ``JSONWriter`` writes keys sorted
/// by code point so that output is stable across processes. Numbers are `Double`, which holds every integer
/// up to 2^53 exactly (all that the vector format uses).
///
/// Equality is JSON equality: strings and keys compare by code point (not by Swift's canonical equivalence, see
/// ``CodePointString``), objects as key sets with equal values, numbers by value.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return UTF8Bytes.equal(x, y)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0 == $1 }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                // The dictionary finds a key by canonical equivalence, so the key found must also have the same
                // code points. With equal counts, every key of `x` found that way in `y` makes the key sets equal.
                guard let index = y.index(forKey: key) else { return false }
                let member = y[index]
                guard UTF8Bytes.equal(member.key, key), value == member.value else { return false }
            }
            return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let b):
            hasher.combine(1 as UInt8)
            hasher.combine(b)
        case .number(let n):
            hasher.combine(2 as UInt8)
            hasher.combine(n)
        case .string(let s):
            hasher.combine(3 as UInt8)
            hasher.combine(CodePointString(s))
        case .array(let a):
            hasher.combine(4 as UInt8)
            hasher.combine(a.count)
            for e in a { hasher.combine(e) }
        case .object(let o):
            hasher.combine(5 as UInt8)
            hasher.combine(o.count)
            for (k, v) in o.sorted(by: { JSONWriter.codePointLess($0.key, $1.key) }) {
                hasher.combine(CodePointString(k))
                hasher.combine(v)
            }
        }
    }

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
