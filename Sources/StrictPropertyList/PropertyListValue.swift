/// One object of a property list as it was read, with where it starts (`SPEC.md` §1.2).
///
/// The readers keep what a strict consumer needs to report a problem at a byte offset and in stored order:
/// dictionary members stay in their stored order with repeated keys kept, and every value carries its offset (in
/// a binary list the offset of its marker byte, in an XML list the offset of its start tag's `<`). The writers
/// ignore the offsets.
///
/// ```swift
/// let node = try PropertyListReader.read(bytes, as: .binary)
/// if case .dictionary(let members) = node.value { print(members.map(\.key.value)) }
/// ```
public struct PropertyListNode: Sendable, Equatable {
    public var value: PropertyListValue
    /// Byte offset of the object in the list it was read from (0 for a value built in code).
    public var offset: Int

    /// A node holding `value`, read at `offset`.
    ///
    /// - Parameters:
    ///   - value: The object.
    ///   - offset: Where it starts in the bytes it was read from.
    public init(_ value: PropertyListValue, at offset: Int = 0) {
        self.value = value
        self.offset = offset
    }
}

/// The values a property list holds (Apple's PropertyList-1.0 DTD, and CoreFoundation's binary format).
public indirect enum PropertyListValue: Sendable, Equatable {
    /// Members in stored order; a key written twice appears twice.
    case dictionary([PropertyListEntry])
    case array([PropertyListNode])
    case string(String)
    case data([UInt8])
    case bool(Bool)
    case integer(Int64)
    /// A 16-byte binary integer above `Int64.max` (its high 8 bytes are zero).
    case unsignedInteger(UInt64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// A binary list's UID (what `NSKeyedArchiver` writes); XML lists have none.
    case uid(UInt64)
}

/// One member of a dictionary: its key (always a ``PropertyListValue/string(_:)`` node) and its value.
public struct PropertyListEntry: Sendable, Equatable {
    public var key: PropertyListNode
    public var value: PropertyListNode

    /// A member.
    ///
    /// - Parameters:
    ///   - key: The key, a string node.
    ///   - value: The value.
    public init(key: PropertyListNode, value: PropertyListNode) {
        self.key = key
        self.value = value
    }

    /// The key's text (every reader guarantees the key is a string).
    public var keyText: String {
        if case .string(let text) = key.value { return text }
        return ""
    }
}

/// The two property-list formats the reference reads and writes.
public enum PropertyListFormat: String, Sendable, CaseIterable {
    /// `bplist00`.
    case binary
    /// XML 1.0 with Apple's PropertyList-1.0 DTD.
    case xml
}

/// Why bytes are not a property list of a format (`SPEC.md` §1.2): the `plist` error code of the vectors.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where reading stopped, in the bytes given to the reader.
    public var offset: Int
    /// A sentence for people, such as `the trailer's reference size is 3, not 1, 2, 4 or 8`.
    public var detail: String

    /// An error at `offset`.
    ///
    /// - Parameters:
    ///   - offset: Where reading stopped.
    ///   - detail: What is wrong, for people.
    public init(at offset: Int, _ detail: String) {
        self.offset = offset
        self.detail = detail
    }

    public var description: String { "\(detail) (at byte \(offset))" }
}

/// The limits of `SPEC.md` §1.2.
public enum PropertyListLimits {
    /// The deepest nesting read (the top object is depth 1).
    public static let maximumDepth = 32
    /// The most values a walk from the top object visits (a value referenced twice counts twice), and the most
    /// objects a binary list may declare.
    public static let maximumValues = 1 << 20
}
