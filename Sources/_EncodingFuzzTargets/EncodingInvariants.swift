import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The invariants behind the `url` and `template` fuzz targets; `public` so that property tests can reuse them.
///
/// They run under libFuzzer with ASan, where every temporary Array or String is an allocation through ASan's
/// allocator and every byte loop in the reference's modules a coverage edge per byte (the harness itself carries
/// no coverage instrumentation; docs/PERFORMANCE.md#decisions has the history). So: byte equality is one
/// `memcmp`, byte searches are `memchr`, the harness's own byte classes are 256-entry tables (built once from the
/// definitions written here, nothing shared with the reference), and failure messages and diagnoses are only
/// computed once something failed. Where a check is skipped because an earlier one already covered the very
/// same values, a comment says why and `FuzzCorpusTests` shows the planted bug it is about is still caught.
public enum EncodingInvariants {
    // MARK: Bytes

    /// `a == b` byte for byte (`memcmp`).
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        UTF8Bytes.equal(a, b)
    }

    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8(body)
    }

    /// Whether the two strings have the same UTF-8 bytes (`==` on String is canonical equivalence, weaker).
    static func sameBytes(_ a: String, _ b: String) -> Bool { UTF8Bytes.equal(a, b) }

    static func sameBytes(_ a: String, _ b: UnsafeBufferPointer<UInt8>) -> Bool { withUTF8(a) { equal($0, b) } }

    static func sameBytes(_ a: String, _ b: [UInt8]) -> Bool { b.withUnsafeBufferPointer { sameBytes(a, $0) } }

    /// `String(decoding: bytes, as: UTF8.self)`: on a buffer of bytes its fast path validates, and repairs
    /// ill-formed UTF-8, inside the standard library (not instrumented), allocating only the result. (Copying
    /// the bytes into `String(unsafeUninitializedCapacity:)` first costs an allocation more whenever the bytes
    /// are not UTF-8, which fuzz inputs often are: the repair makes a second String.)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The index of the first `byte` at or after `from`, or `b.count`.
    static func firstIndex(of byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard from < b.count, let base = b.baseAddress, let hit = memchr(base + from, Int32(byte), b.count - from)
        else {
            return b.count
        }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    static func table<T>(_ entry: (UInt8) -> T) -> [T] { (0...255).map { entry(UInt8($0)) } }

    // MARK: Messages

    static func hex2(_ b: UInt8) -> String { String(decoding: [upperHex(b >> 4), upperHex(b & 0x0F)], as: UTF8.self) }

    static func hexPreview(_ bytes: some Collection<UInt8>) -> String {
        bytes.prefix(48).map(hex2).joined(separator: " ") + (bytes.count > 48 ? " … (\(bytes.count) bytes)" : "")
    }

    /// Printable ASCII as is, anything else as `\xNN`, at most 120 bytes.
    static func preview(_ bytes: some Collection<UInt8>) -> String {
        var out = "\""
        for b in bytes.prefix(120) {
            if b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "\\x" + hex2(b)
            }
        }
        return out + "\"" + (bytes.count > 120 ? " … (\(bytes.count) bytes)" : "")
    }

    static func preview(_ text: String) -> String { preview(text.utf8) }
}
