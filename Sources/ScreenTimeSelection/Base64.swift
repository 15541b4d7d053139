/// Strict RFC 4648 standard base64 (ours), in pure Swift so that coverage-guided fuzzing sees it.
///
/// Decoding accepts only the canonical encoding (RFC 4648 §3.5): the standard alphabet `A–Z a–z 0–9 + /`,
/// length a multiple of 4, `=` padding only at the end and only as much as needed, and zero pad bits.
/// No whitespace, no line breaks, no URL-safe alphabet. Because only canonical text is accepted, text and bytes
/// correspond one to one: two different accepted strings never decode to the same bytes.
///
/// Foundation's `Data(base64Encoded:)` is more lenient on pad bits; the differential harness lists that case.
public enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0…63 for an alphabet byte, 0xFF otherwise.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Two output characters per 12 input bits: entry `v` holds the characters for `v >> 6` and `v & 63`, the
    /// first in the low byte (the order in memory after a little-endian store).
    private static let pairs: [UInt16] = (0..<4096).map { v in
        UInt16(alphabet[v >> 6]) | UInt16(alphabet[v & 63]) << 8
    }

    /// The value of a character already shifted into place for each of the four positions of a quad, so that a
    /// quad decodes with four lookups and three ORs. Bit 31 marks a character outside the alphabet.
    private static let shifted: [UInt32] = {
        var table = [UInt32](repeating: 0x8000_0000, count: 4 * 256)
        for c in 0..<256 where values[c] != 0xFF {
            let v = UInt32(values[c])
            table[c] = v << 18
            table[256 + c] = v << 12
            table[512 + c] = v << 6
            table[768 + c] = v
        }
        return table
    }()

    /// Two characters at once: entry `c0 | c1 << 8` (the pair as a little-endian 16-bit load reads it) holds
    /// `value(c0) << 6 | value(c1)`, or has bit 15 set when either character is outside the alphabet.
    /// 128 KiB, of which valid text touches about 12 KiB (64 rows of 80 entries).
    static let pairValues: [UInt16] = {
        var table = [UInt16](repeating: 0x8000, count: 65536)
        for a in 0..<256 where values[a] != 0xFF {
            for b in 0..<256 where values[b] != 0xFF { table[a | b << 8] = UInt16(values[a]) << 6 | UInt16(values[b]) }
        }
        return table
    }()

    /// The value (0…63) of an alphabet character, 0xFF for any other byte.
    @inline(__always)
    static func value(_ byte: UInt8) -> UInt8 { values[Int(byte)] }

    /// Whether `byte` is one of the 64 characters of the standard alphabet (`=` is not).
    public static func isAlphabetCharacter(_ byte: UInt8) -> Bool { values[Int(byte)] != 0xFF }

    /// Standard padded base64 of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        if let string = bytes.withContiguousStorageIfAvailable({ encodedString($0) }) { return string }
        return Array(bytes).withUnsafeBufferPointer { encodedString($0) }
    }

    public static func encodeToBytes(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: encodedCount(input.count)) { out, initialized in
                guard let base = out.baseAddress else { return }  // nothing to write for empty input
                initialized = encode(input, into: base)
            }
        }
    }

    /// Standard padded base64 of `input`, written straight into the string's storage.
    static func encodedString(_ input: UnsafeBufferPointer<UInt8>) -> String {
        let count = encodedCount(input.count)
        if count == 0 { return "" }
        return String(unsafeUninitializedCapacity: count) { out in
            guard let base = out.baseAddress else { return 0 }
            return encode(input, into: base)
        }
    }

    /// Length of the padded encoding of `byteCount` bytes.
    static func encodedCount(_ byteCount: Int) -> Int { ((byteCount + 2) / 3) * 4 }

    /// Writes the padded encoding of `input` at `out` (which has room for ``encodedCount(_:)`` bytes);
    /// returns the number of bytes written.
    static func encode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let n = input.count
        guard n > 0, let source = input.baseAddress else { return 0 }
        return pairs.withUnsafeBufferPointer { table in
            guard let p = table.baseAddress else { return 0 }  // a static, non-empty table
            let target = UnsafeMutableRawPointer(out)
            var i = 0
            var o = 0
            // Six bytes to eight characters per step, while an 8-byte load stays inside the input.
            while i &+ 8 <= n {
                let w = UInt64(bigEndian: UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self))
                let a =
                    UInt64(p[Int(truncatingIfNeeded: w >> 52)]) | UInt64(p[Int(truncatingIfNeeded: w >> 40) & 0xFFF])
                    << 16
                let b =
                    UInt64(p[Int(truncatingIfNeeded: w >> 28) & 0xFFF]) | UInt64(
                        p[Int(truncatingIfNeeded: w >> 16) & 0xFFF]) << 16
                target.storeBytes(of: (a | b << 32).littleEndian, toByteOffset: o, as: UInt64.self)
                i &+= 6
                o &+= 8
            }
            while i + 3 <= n {
                let v = Int(source[i]) << 16 | Int(source[i + 1]) << 8 | Int(source[i + 2])
                let quad = UInt32(p[v >> 12]) | UInt32(p[v & 0xFFF]) << 16
                target.storeBytes(of: quad.littleEndian, toByteOffset: o, as: UInt32.self)
                i += 3
                o += 4
            }
            let rest = n - i
            if rest > 0 {
                var v = Int(source[i]) << 16
                if rest == 2 { v |= Int(source[i + 1]) << 8 }
                let high = p[v >> 12]
                out[o] = UInt8(truncatingIfNeeded: high)
                out[o + 1] = UInt8(truncatingIfNeeded: high >> 8)
                out[o + 2] = rest == 2 ? UInt8(truncatingIfNeeded: p[v & 0xFFF]) : UInt8(ascii: "=")
                out[o + 3] = UInt8(ascii: "=")
                o += 4
            }
            return o
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
        guard n % 4 == 0 else { return .failure(diagnose(text)) }
        let padding = paddingCount(text)
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: n / 4 * 3 - padding) { out, initialized in
            valid = decodeQuads(text, padding: padding, into: out.baseAddress)
            initialized = valid ? out.count : 0
        }
        return valid ? .success(bytes) : .failure(diagnose(text))
    }

    /// Checks that `text` is canonical standard base64 without decoding it; returns the decoded byte count, or
    /// the same failure as ``decodeReportingOffset(_:)-(UnsafeBufferPointer<UInt8>)``.
    public static func validate(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int, DecodingFailure> {
        let n = text.count
        if n == 0 { return .success(0) }
        guard n % 4 == 0 else { return .failure(diagnose(text)) }
        let padding = paddingCount(text)
        return decodeQuads(text, padding: padding, into: nil) ? .success(n / 4 * 3 - padding) : .failure(diagnose(text))
    }

    /// 0, 1 or 2 `=` at the end of a text whose length is a positive multiple of 4.
    @inline(__always)
    private static func paddingCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        let n = text.count
        guard text[n - 1] == UInt8(ascii: "=") else { return 0 }
        return text[n - 2] == UInt8(ascii: "=") ? 2 : 1
    }

    /// One pass over a text whose length is a positive multiple of 4 and that ends in `padding` `=`: decodes into
    /// `out` when given, and returns whether every character was in the alphabet and the pad bits were zero.
    /// An invalid character maps to bit 31, so OR-ing the mapped values shows whether there was one.
    @inline(__always)
    private static func decodeQuads(
        _ text: UnsafeBufferPointer<UInt8>, padding: Int, into out: UnsafeMutablePointer<UInt8>?
    ) -> Bool {
        shifted.withUnsafeBufferPointer { table in
            pairValues.withUnsafeBufferPointer { pairTable in
                // Callers pass a text of positive length and static, non-empty tables.
                guard let t = table.baseAddress, let p = pairTable.baseAddress, let s = text.baseAddress else {
                    return false
                }
                let n = text.count
                let fullEnd = padding == 0 ? n : n - 4
                var seen: UInt32 = 0
                var pairsSeen: UInt16 = 0
                var i = 0
                var o = 0
                if let out {
                    // Eight characters (two quads) per step: one 8-byte load, four pair lookups, one 8-byte store of
                    // which 6 bytes count (the other 2 are overwritten next), while 8 bytes of room remain.
                    let room = n / 4 * 3 - padding
                    while i &+ 8 <= fullEnd, o &+ 8 <= room {
                        let w = UInt64(littleEndian: UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self))
                        let a = p[Int(truncatingIfNeeded: w & 0xFFFF)]
                        let b = p[Int(truncatingIfNeeded: (w >> 16) & 0xFFFF)]
                        let c = p[Int(truncatingIfNeeded: (w >> 32) & 0xFFFF)]
                        let d = p[Int(truncatingIfNeeded: w >> 48)]
                        pairsSeen |= a | b | c | d
                        let v = UInt64(a) << 36 | UInt64(b) << 24 | UInt64(c) << 12 | UInt64(d)
                        UnsafeMutableRawPointer(out).storeBytes(
                            of: (v << 16).bigEndian, toByteOffset: o, as: UInt64.self)
                        i &+= 8
                        o &+= 6
                    }
                    // While 4 bytes of room remain, write each quad's 3 bytes with one 4-byte store (the 4th byte is
                    // overwritten by the next quad).
                    while i < fullEnd, o + 4 <= room {
                        let v = t[Int(s[i])] | t[256 + Int(s[i + 1])] | t[512 + Int(s[i + 2])] | t[768 + Int(s[i + 3])]
                        seen |= v
                        UnsafeMutableRawPointer(out).storeBytes(
                            of: (v << 8).bigEndian, toByteOffset: o, as: UInt32.self)
                        i += 4
                        o += 3
                    }
                    while i < fullEnd {
                        let v = t[Int(s[i])] | t[256 + Int(s[i + 1])] | t[512 + Int(s[i + 2])] | t[768 + Int(s[i + 3])]
                        seen |= v
                        out[o] = UInt8(truncatingIfNeeded: v >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: v)
                        i += 4
                        o += 3
                    }
                } else {
                    while i &+ 8 <= fullEnd {
                        let w = UInt64(littleEndian: UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self))
                        pairsSeen |=
                            p[Int(truncatingIfNeeded: w & 0xFFFF)] | p[Int(truncatingIfNeeded: (w >> 16) & 0xFFFF)]
                            | p[Int(truncatingIfNeeded: (w >> 32) & 0xFFFF)] | p[Int(truncatingIfNeeded: w >> 48)]
                        i &+= 8
                    }
                    while i < fullEnd {
                        seen |= t[Int(s[i])] | t[256 + Int(s[i + 1])] | t[512 + Int(s[i + 2])] | t[768 + Int(s[i + 3])]
                        i += 4
                    }
                }
                if padding > 0 {
                    // The last quad: 2 or 3 characters, whose unused low bits must be zero.
                    let c0 = t[768 + Int(s[i])]
                    let c1 = t[768 + Int(s[i + 1])]
                    if padding == 2 {
                        seen |= c0 | c1 | (c1 & 0x0F != 0 ? 0x8000_0000 : 0)
                        out?[o] = UInt8(truncatingIfNeeded: c0 << 2 | c1 >> 4)
                    } else {
                        let c2 = t[768 + Int(s[i + 2])]
                        seen |= c0 | c1 | c2 | (c2 & 0x03 != 0 ? 0x8000_0000 : 0)
                        out?[o] = UInt8(truncatingIfNeeded: c0 << 2 | c1 >> 4)
                        out?[o + 1] = UInt8(truncatingIfNeeded: (c1 & 0x0F) << 4 | c2 >> 2)
                    }
                }
                return seen & 0x8000_0000 == 0 && pairsSeen & 0x8000 == 0
            }
        }
    }

    /// The failure of a text known not to be canonical: the first character outside the alphabet and the final
    /// padding, else a length that is not a multiple of 4, else non-zero pad bits. (Only for rejected input,
    /// which is most of what a fuzzer sends.)
    private static func diagnose(_ text: UnsafeBufferPointer<UInt8>) -> DecodingFailure {
        let n = text.count
        // Find the first byte outside the alphabet and '=' before judging the length, so that the offset
        // points at a bad character when there is one.
        var padStart = n
        if text[n - 1] == UInt8(ascii: "=") {
            padStart = n - 1
            if n >= 2, text[n - 2] == UInt8(ascii: "=") { padStart = n - 2 }
        }
        if let i = firstNonAlphabetCharacter(text, before: padStart) {
            return DecodingFailure(reason: text[i] == UInt8(ascii: "=") ? .padding : .character, offset: i)
        }
        guard n % 4 == 0 else { return DecodingFailure(reason: .length, offset: n) }
        return DecodingFailure(reason: .padBits, offset: padStart - 1)
    }

    /// The offset of the first byte of `text[..<end]` outside the alphabet, or nil. Eight bytes per step through
    /// ``pairValues`` (bit 15 marks a pair with such a byte), then one byte at a time from the step that has
    /// one: a loop per byte puts the loop's bound check and the table's on every byte, which under the fuzzer
    /// made this scan a visible share of `selection-differential` (docs/PERFORMANCE.md#decisions).
    static func firstNonAlphabetCharacter(_ text: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        pairValues.withUnsafeBufferPointer { pairTable in
            values.withUnsafeBufferPointer { valueTable in
                // Static, non-empty tables; an empty text has no base address and nothing to find.
                guard let p = pairTable.baseAddress, let v = valueTable.baseAddress, let s = text.baseAddress else {
                    return nil
                }
                var i = 0
                while i &+ 8 <= end {
                    let w = UInt64(littleEndian: UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self))
                    let pairs =
                        p[Int(truncatingIfNeeded: w & 0xFFFF)] | p[Int(truncatingIfNeeded: (w >> 16) & 0xFFFF)]
                        | p[Int(truncatingIfNeeded: (w >> 32) & 0xFFFF)] | p[Int(truncatingIfNeeded: w >> 48)]
                    if pairs & 0x8000 != 0 { break }
                    i &+= 8
                }
                while i < end {
                    if v[Int(s[i])] == 0xFF { return i }
                    i &+= 1
                }
                return nil
            }
        }
    }

    /// Exact decoded byte count of canonical base64 text: from its length and its last two characters. (It took
    /// any `Collection`, whose `reversed()` copies the whole text into an array first.)
    static func decodedByteCount(of text: some BidirectionalCollection<UInt8>) -> Int {
        let n = text.count
        guard n >= 4 else { return 0 }
        let last = text.index(before: text.endIndex)
        let padding = text[last] != UInt8(ascii: "=") ? 0 : text[text.index(before: last)] == UInt8(ascii: "=") ? 2 : 1
        return (n / 4) * 3 - padding
    }
}
