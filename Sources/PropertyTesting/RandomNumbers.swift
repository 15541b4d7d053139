// Small, fast, deterministic generators for the random choice source.
// Written here (no Foundation randomness) so a seed means the same cases on every platform and toolchain.

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state word, used to expand a seed into a Xoshiro state
/// and to derive independent per-case seeds from a run seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The SplitMix64 output function as a pure function: mixes `x` into a well-distributed word.
    @inlinable
    public static func mix(_ x: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: x)
        return generator.next()
    }
}

/// xoshiro256** (Blackman, Vigna 2018): the workhorse generator for random cases.
public struct Xoshiro256: RandomNumberGenerator, Sendable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// Seeds the four state words from SplitMix64, as the authors recommend (never all zero).
    public init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next()
        s1 = sm.next()
        s2 = sm.next()
        s3 = sm.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = Xoshiro256.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Xoshiro256.rotl(s3, 45)
        return result
    }

    /// Masking shifts: `k` is 7 or 45, for which they equal the smart shifts, and they compile to one rotate (the
    /// smart shifts' overshift branches kept this from being inlined).
    @inlinable @inline(__always)
    static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x &<< k) | (x &>> (64 &- k)) }

    /// Uniform in `0...max` (Lemire's multiply-shift; the tiny bias is irrelevant for testing).
    @inlinable
    public mutating func next(upTo max: UInt64) -> UInt64 {
        if max == .max { return next() }
        return next().multipliedFullWidth(by: max &+ 1).high
    }

    /// Uniform in `[0, 1)` with 53 bits of precision.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
