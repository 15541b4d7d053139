// The recorded form of a test case, its byte encoding, and the order shrinking follows.
//
// Byte format (shared by `--replay`, regression files and libFuzzer inputs): each choice with maximum `m`
// takes `byteWidth(m)` bytes, big-endian; the value is reduced modulo `m + 1`. Bytes past the end read as 0,
// so trailing zero bytes are dropped when encoding. Because decoding is total, any byte string is a valid
// test case, and a fuzzer's input and a property's regression file are the same kind of thing.

/// A recorded test case: each choice and the maximum it was drawn with.
public struct ChoiceSequence: Hashable, Sendable {
    public var choices: [UInt64]
    public var maxima: [UInt64]

    public init(choices: [UInt64], maxima: [UInt64]) {
        self.choices = choices
        self.maxima = maxima
    }

    /// The bytes that replay exactly these choices in byte mode (trailing zeros dropped).
    public var bytes: [UInt8] { ChoiceSequence.encode(choices: choices, maxima: maxima) }

    /// Bytes needed to hold any value in `0...max` (0 for `max == 0`).
    @inlinable
    public static func byteWidth(_ max: UInt64) -> Int {
        (64 - max.leadingZeroBitCount + 7) / 8
    }

    /// Encodes choices with their maxima into bytes; `ChoiceSource(bytes:)` decodes them back.
    public static func encode(choices: [UInt64], maxima: [UInt64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(choices.count * 2)
        for (value, max) in zip(choices, maxima) {
            let width = byteWidth(max)
            var shift = (width - 1) * 8
            while shift >= 0 {
                out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                shift -= 8
            }
        }
        while let last = out.last, last == 0 { out.removeLast() }
        return out
    }

    /// Shortlex order: shorter is simpler; at equal length, the lexicographically smaller list is simpler.
    /// Every accepted shrink is strictly smaller in this well-founded order, so shrinking always terminates.
    @inlinable
    public static func isSimpler(_ a: [UInt64], than b: [UInt64]) -> Bool {
        if a.count != b.count { return a.count < b.count }
        for i in a.indices where a[i] != b[i] { return a[i] < b[i] }
        return false
    }
}

/// Lowercase hex for choice bytes (the `--replay` argument).
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hex (either case; spaces, `_` and an optional `0x` prefix ignored). Nil on any other input.
    public static func decode(_ text: String) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x") { utf8.removeFirst(2) }
        var out: [UInt8] = []
        var high: UInt8? = nil
        for c in utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "_"): continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}

/// FNV-1a 64-bit: the content hash that names regression files.
public enum FNV1a64 {
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// 16 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let h = hash(bytes)
        let raw = String(h, radix: 16)
        return String(repeating: "0", count: 16 - raw.count) + raw
    }
}
