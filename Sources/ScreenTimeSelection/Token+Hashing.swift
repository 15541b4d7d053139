import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hashing and byte order of tokens.
///
/// A token is hashed many times over (every `Set` insertion and lookup), and its `data` string is long (172
/// characters on devices). Feeding all of it to `Hasher` (SipHash) was the largest single cost of decoding a
/// selection, so the string is first reduced to 128 bits by a keyed universal hash (NH, the inner hash of
/// UMAC), and only that digest is hashed: by `Hasher` in `hash(into:)`, and for `Set` and `Dictionary` by
/// ``TokenDigest/mix(_:_:seed:)`` under the collection's seed. The keys are random per process, so tokens whose
/// digests collide cannot be prepared in advance, unless `SWIFT_DETERMINISTIC_HASHING` is set, which fixes them as
/// it fixes `Hasher`'s seed. Each token computes its digest once, when it is made.
extension Token {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest.low)
        hasher.combine(digest.high)
    }

    /// What `Set` and `Dictionary` ask for: the digest mixed with their seed (``TokenDigest/mix(_:_:seed:)``),
    /// without running SipHash over it. `hash(into:)` still feeds the digest to `Hasher` for hashes that
    /// combine a token with other values.
    public func _rawHashValue(seed: Int) -> Int { TokenDigest.mix(digest, 0, seed: seed) }
}

extension Token: Comparable {
    /// Stable order: ascending by the `data` string in ASCII (byte) order. (Ours; `SPEC.md` §1.)
    public static func < (lhs: Token, rhs: Token) -> Bool { JSONWriter.codePointLess(lhs.data, rhs.data) }
}

/// The keyed hash behind ``Token``'s `hash(into:)` and `_rawHashValue(seed:)` (and the reference's `TokenIdentity`).
package enum TokenDigest {
    /// A set's or a dictionary's hash of a digest (and of `extra`, which a `TokenIdentity` uses for its kind) under
    /// the collection's `seed`. The digest is already keyed with this process's random keys, so what remains is
    /// spreading all of its bits over the bucket bits: two rounds of a 64-bit finalizer (MurmurHash3's `fmix64`
    /// constants), far cheaper than SipHash over two words. `Set` and `Dictionary` hash a token at every insertion
    /// and lookup, and the shield evaluation and the authorization simulator look tokens up at every step, so
    /// SipHash there was a large share of the `auth` fuzz target (docs/PERFORMANCE.md#decisions).
    @inline(__always)
    package static func mix(_ digest: Digest, _ extra: UInt64, seed: Int) -> Int {
        var x = digest.low ^ UInt64(truncatingIfNeeded: seed) ^ (extra &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x ^= digest.high
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(truncatingIfNeeded: x ^ (x >> 33))
    }

    package typealias Digest = (low: UInt64, high: UInt64)

    /// Key words: one per 8 bytes of the longest `data` string the decoder accepts (1024 bytes are 1368
    /// characters, 171 words), rounded up to a pair. Longer strings (only ``Token/init(bytes:)`` makes them) are
    /// hashed by `Hasher` instead.
    static let keyCount = 172
    static let keys = makeKeys(deterministic: deterministicHashing(getenv("SWIFT_DETERMINISTIC_HASHING")))

    /// Random keys; with `deterministic`, the same keys in every process (SplitMix64 from 0), so that the order in
    /// which a `Set` of tokens iterates repeats from run to run, as Swift's own hashing does under
    /// `SWIFT_DETERMINISTIC_HASHING`. (Field bug 4 is display order taken from that iteration: with it set, a test
    /// of such code fails the same cases every run.)
    static func makeKeys(deterministic: Bool) -> [UInt64] {
        guard deterministic else {
            var generator = SystemRandomNumberGenerator()
            return (0..<keyCount).map { _ in generator.next() }
        }
        var state: UInt64 = 0
        return (0..<keyCount).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Whether a value of `SWIFT_DETERMINISTIC_HASHING` turns it on, read as the Swift runtime reads its boolean
    /// variables: by the first character, `1`, `t`, `T`, `y` or `Y`.
    static func deterministicHashing(_ value: UnsafePointer<CChar>?) -> Bool {
        guard let first = value?.pointee else { return false }
        return "1tTyY".utf8.contains(UInt8(bitPattern: first))
    }

    /// NH over the string's UTF-8 (zero-padded to whole pairs of 8-byte words), plus its length: for two
    /// different strings of the same length, the chance that the digests collide is about 2⁻⁶⁴ over the keys.
    package static func digest(of data: String) -> Digest {
        if let digest = data.utf8.withContiguousStorageIfAvailable(digest) { return digest }
        return Array(data.utf8).withUnsafeBufferPointer(digest)
    }

    static func digest(_ bytes: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
        let n = bytes.count
        guard n <= keyCount * 8, let base = bytes.baseAddress else {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return (UInt64(UInt(bitPattern: hasher.finalize())), UInt64(n))
        }
        return keys.withUnsafeBufferPointer { keys in
            var low = UInt64(truncatingIfNeeded: n)
            var high: UInt64 = 0
            @inline(__always) func add(_ a: UInt64, _ b: UInt64, _ k: Int) {
                let (h, l) = (a &+ keys[k]).multipliedFullWidth(by: b &+ keys[k &+ 1])
                let (sum, carry) = low.addingReportingOverflow(l)
                low = sum
                high = high &+ h &+ (carry ? 1 : 0)
            }
            let raw = UnsafeRawPointer(base)
            var i = 0
            while i &+ 16 <= n {
                add(
                    raw.loadUnaligned(fromByteOffset: i, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self), i / 8)
                i &+= 16
            }
            if i < n {
                // The last 1…15 bytes, zero-padded.
                var tail: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &tail) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(start: raw + i, count: n &- i))
                }
                add(tail.0, tail.1, i / 8)
            }
            return (low, high)
        }
    }
}
