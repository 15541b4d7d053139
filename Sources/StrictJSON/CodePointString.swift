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

    public static func == (a: CodePointString, b: CodePointString) -> Bool { UTF8Bytes.equal(a.value, b.value) }

    public func hash(into hasher: inout Hasher) {
        var value = value
        value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xFF as UInt8)  // terminator: UTF-8 never holds 0xFF
    }

    /// Code point order (the order of UTF-8 bytes).
    public static func < (a: CodePointString, b: CodePointString) -> Bool { JSONWriter.codePointLess(a.value, b.value) }

    public var description: String { value }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Code point comparisons of Swift strings, done on their UTF-8 bytes with `memcmp` (for UTF-8, byte order and
/// equality are code point order and equality). Hot: sets of identifiers, JSON equality, sorted output.
package enum UTF8Bytes {
    /// Whether `a` and `b` hold the same code points (Swift's `==` would ask for canonical equivalence).
    package static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) == 0 } }
    }

    /// Whether `x` and `y` hold the same bytes.
    package static func equal(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        x.count == y.count && compare(x, y) == 0
    }

    /// `memcmp` over the common length: negative, zero or positive. Empty buffers may have no address.
    package static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int32 {
        let n = min(x.count, y.count)
        guard n > 0, let p = x.baseAddress, let q = y.baseAddress else { return 0 }
        return memcmp(p, q, n)
    }
}
