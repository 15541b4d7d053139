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
