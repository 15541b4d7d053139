/// Strict RFC 4648 standard base64 (ours), in pure Swift so that coverage-guided fuzzing sees it.
///
/// Decoding accepts only the canonical encoding (RFC 4648 §3.5): the standard alphabet `A–Z a–z 0–9 + /`,
/// length a multiple of 4, `=` padding only at the end and only as much as needed, and zero pad bits.
/// No whitespace, no line breaks, no URL-safe alphabet. Because only canonical text is accepted, text and bytes
/// correspond one to one: two different accepted strings never decode to the same bytes.
///
/// Foundation's `Data(base64Encoded:)` is more lenient on pad bits; the differential harness lists that case.
public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0…63 for an alphabet byte, 0xFF otherwise.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Whether `byte` is one of the 64 characters of the standard alphabet (`=` is not).
    public static func isAlphabetCharacter(_ byte: UInt8) -> Bool { values[Int(byte)] != 0xFF }

    /// Standard padded base64 of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let out = encodeToBytes(Array(bytes))
        return String(decoding: out, as: UTF8.self)
    }

    public static func encodeToBytes(_ bytes: [UInt8]) -> [UInt8] {
        let n = bytes.count
        let outCount = ((n + 2) / 3) * 4
        return [UInt8](unsafeUninitializedCapacity: outCount) { out, initialized in
            bytes.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { a in
                    var i = 0
                    var o = 0
                    while i + 3 <= n {
                        let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        out[o] = a[Int(v >> 18)]
                        out[o + 1] = a[Int((v >> 12) & 63)]
                        out[o + 2] = a[Int((v >> 6) & 63)]
                        out[o + 3] = a[Int(v & 63)]
                        i += 3
                        o += 4
                    }
                    let rest = n - i
                    if rest > 0 {
                        var v = UInt32(input[i]) << 16
                        if rest == 2 { v |= UInt32(input[i + 1]) << 8 }
                        out[o] = a[Int(v >> 18)]
                        out[o + 1] = a[Int((v >> 12) & 63)]
                        out[o + 2] = rest == 2 ? a[Int((v >> 6) & 63)] : UInt8(ascii: "=")
                        out[o + 3] = UInt8(ascii: "=")
                        o += 4
                    }
                    initialized = o
                }
            }
        }
    }

    /// Decodes canonical standard base64, or `nil` when the text is not that.
    public static func decode(_ text: [UInt8]) -> [UInt8]? {
        switch decodeReportingOffset(text) {
        case .success(let bytes): return bytes
        case .failure: return nil
        }
    }

    /// Where and why a text is not canonical base64.
    public struct DecodingFailure: Error, Sendable, Equatable {
        public enum Reason: String, Sendable {
            case length = "length is not a multiple of 4"
            case character = "character outside the standard base64 alphabet"
            case padding = "misplaced '=' padding"
            case padBits = "non-zero pad bits (not the canonical encoding)"
        }
        public var reason: Reason
        /// Byte offset in the text of the first offending character (for `length`, the text's length).
        public var offset: Int
    }

    /// Decodes canonical standard base64, or says at which byte it stops being that.
    public static func decodeReportingOffset(_ text: [UInt8]) -> Result<[UInt8], DecodingFailure> {
        text.withUnsafeBufferPointer { decodeReportingOffset($0) }
    }

    public static func decodeReportingOffset(_ text: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], DecodingFailure> {
        let n = text.count
        if n == 0 { return .success([]) }
        // Find the first byte outside the alphabet and '=' before judging the length, so that the offset
        // points at a bad character when there is one.
        var padStart = n
        if text[n - 1] == UInt8(ascii: "=") {
            padStart = n - 1
            if n >= 2, text[n - 2] == UInt8(ascii: "=") { padStart = n - 2 }
        }
        let failure: DecodingFailure? = values.withUnsafeBufferPointer { table -> DecodingFailure? in
            var i = 0
            while i < padStart {
                if table[Int(text[i])] == 0xFF {
                    let reason: DecodingFailure.Reason = text[i] == UInt8(ascii: "=") ? .padding : .character
                    return DecodingFailure(reason: reason, offset: i)
                }
                i += 1
            }
            return nil
        }
        if let failure { return .failure(failure) }
        guard n % 4 == 0 else { return .failure(DecodingFailure(reason: .length, offset: n)) }
        let padding = n - padStart
        let outCount = (n / 4) * 3 - padding
        var badPadBits = false
        let bytes = [UInt8](unsafeUninitializedCapacity: outCount) { out, initialized in
            values.withUnsafeBufferPointer { table in
                var i = 0
                var o = 0
                let fullEnd = padding == 0 ? n : n - 4
                while i < fullEnd {
                    let v =
                        UInt32(table[Int(text[i])]) << 18 | UInt32(table[Int(text[i + 1])]) << 12
                        | UInt32(table[Int(text[i + 2])]) << 6 | UInt32(table[Int(text[i + 3])])
                    out[o] = UInt8(truncatingIfNeeded: v >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: v)
                    i += 4
                    o += 3
                }
                if padding > 0 {
                    let c0 = UInt32(table[Int(text[i])])
                    let c1 = UInt32(table[Int(text[i + 1])])
                    if padding == 2 {
                        out[o] = UInt8(truncatingIfNeeded: c0 << 2 | c1 >> 4)
                        badPadBits = c1 & 0x0F != 0
                        o += 1
                    } else {
                        let c2 = UInt32(table[Int(text[i + 2])])
                        out[o] = UInt8(truncatingIfNeeded: c0 << 2 | c1 >> 4)
                        out[o + 1] = UInt8(truncatingIfNeeded: (c1 & 0x0F) << 4 | c2 >> 2)
                        badPadBits = c2 & 0x03 != 0
                        o += 2
                    }
                }
                initialized = o
            }
        }
        if badPadBits { return .failure(DecodingFailure(reason: .padBits, offset: n - padding - 1)) }
        return .success(bytes)
    }

    /// Exact decoded byte count of canonical base64 text.
    static func decodedByteCount(of text: some Collection<UInt8>) -> Int {
        let n = text.count
        guard n >= 4 else { return 0 }
        var padding = 0
        var iterator = text.reversed().makeIterator()
        if iterator.next() == UInt8(ascii: "=") {
            padding = 1
            if iterator.next() == UInt8(ascii: "=") { padding = 2 }
        }
        return (n / 4) * 3 - padding
    }
}
