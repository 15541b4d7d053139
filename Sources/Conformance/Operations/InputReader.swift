import StrictJSON

/// The request's `input` lacks a member or holds one of the wrong type.
public struct BadInput: Error, CustomStringConvertible {
    public var message: String
    /// A `badInput` error saying what is wrong.
    ///
    /// - Parameter message: The member and what is wrong with it.
    public init(_ message: String) { self.message = message }
    public var description: String { "badInput: \(message)" }
}

/// Typed access to an operation's input object; every accessor throws ``BadInput`` on a missing or mistyped member.
public struct InputReader {
    public let value: JSONValue

    /// A reader over an operation's input.
    ///
    /// - Parameter value: The input, an object for a well-formed request.
    public init(_ value: JSONValue) { self.value = value }

    private func member(_ key: String) throws -> JSONValue {
        guard case .object(let members) = value else { throw BadInput("input is \(value.typeName), not an object") }
        guard let member = Self.lookup(members, key) else { throw BadInput("input lacks \"\(key)\"") }
        return member
    }

    /// `members[key]`, found by comparing keys when the object is small (operation inputs have two to four
    /// members): a String `==` on short keys costs a fraction of hashing `key`. Same answer as the subscript:
    /// both match keys by `String ==` (canonical equivalence), and a dictionary never holds two equal keys.
    static func lookup(_ members: [String: JSONValue], _ key: String) -> JSONValue? {
        guard members.count <= smallObjectLimit else { return members[key] }
        // Keys only, by index: destructuring `(k, v)` pairs retained and released every value passed over.
        var index = members.startIndex
        while index != members.endIndex {
            if members.keys[index] == key { return members.values[index] }
            members.formIndex(after: &index)
        }
        return nil
    }

    /// Objects up to this many members are searched by ``lookup(_:_:)`` without hashing.
    static let smallObjectLimit = 8

    /// Whether the input has the member `key`, whatever its type.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: `true` when it is present.
    public func has(_ key: String) -> Bool { optional(key) != nil }

    /// The member `key`, a string.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its value.
    /// - Throws: ``BadInput`` when the input is not an object, or the member is missing or of another type.
    public func string(_ key: String) throws -> String {
        let m = try member(key)
        guard let s = m.stringValue else { throw BadInput("\"\(key)\" is \(m.typeName), not a string") }
        return s
    }

    /// The member `key`, a Boolean.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its value.
    /// - Throws: ``BadInput`` when the input is not an object, or the member is missing or of another type.
    public func bool(_ key: String) throws -> Bool {
        let m = try member(key)
        guard let b = m.boolValue else { throw BadInput("\"\(key)\" is \(m.typeName), not a boolean") }
        return b
    }

    /// The member `key`, an array.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its elements.
    /// - Throws: ``BadInput`` when the input is not an object, or the member is missing or of another type.
    public func array(_ key: String) throws -> [JSONValue] {
        let m = try member(key)
        guard let a = m.arrayValue else { throw BadInput("\"\(key)\" is \(m.typeName), not an array") }
        return a
    }

    /// The member `key`, an array of strings.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its elements.
    /// - Throws: ``BadInput`` when the member is missing, not an array, or holds an element that is not a string.
    public func stringArray(_ key: String) throws -> [String] {
        try array(key).map { element in
            guard let s = element.stringValue else {
                throw BadInput("\"\(key)\" holds a \(element.typeName), not a string")
            }
            return s
        }
    }

    /// The member `key`, an object.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its members.
    /// - Throws: ``BadInput`` when the input is not an object, or the member is missing or of another type.
    public func object(_ key: String) throws -> [String: JSONValue] {
        let m = try member(key)
        guard let o = m.objectValue else { throw BadInput("\"\(key)\" is \(m.typeName), not an object") }
        return o
    }

    /// A reader over the member `key`, which must be an object.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: A reader over its value.
    /// - Throws: ``BadInput`` when the input is not an object, or the member is missing or not an object.
    public func reader(_ key: String) throws -> InputReader {
        InputReader(.object(try object(key)))
    }

    /// The member's value as is, or `nil` when absent.
    ///
    /// - Parameter key: The member's name.
    /// - Returns: Its value, or `nil`.
    public func optional(_ key: String) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return Self.lookup(members, key)
    }
}
