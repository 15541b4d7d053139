/// A string that compares by its Unicode code points, as JSON strings do (RFC 8259 §8.3).
///
/// Swift's `String` compares by canonical equivalence: `"Café"` (é as U+00E9) equals `"Cafe\u{301}"` (e then a
/// combining acute). JSON, the spec's canonical form and every other language compare the code points, so where
/// the suite must tell those apart (sets of identifiers, repeated keys, expected outputs) it uses this type.
///
/// ```swift
/// CodePointString("Café") == CodePointString("Cafe\u{301}")   // false
/// "Café" == "Cafe\u{301}"                                     // true (Swift)
/// ```
public struct CodePointString: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let value: String

    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }

    public static func == (a: CodePointString, b: CodePointString) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }

    public func hash(into hasher: inout Hasher) {
        for byte in value.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)  // terminator: UTF-8 never holds 0xFF
    }

    /// Code point order (the order of UTF-8 bytes).
    public static func < (a: CodePointString, b: CodePointString) -> Bool {
        a.value.utf8.lexicographicallyPrecedes(b.value.utf8)
    }

    public var description: String { value }
}
