import Testing

@testable import ScreenTimeReference
@testable import ScreenTimeSelection

/// `Token`'s keyed digest (`Token+Hashing.swift`): consistent with `==`, sensitive to every character, and
/// correct at every length, including past the keys (the `Hasher` fallback); and its byte order.
@Suite struct TokenHashingTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func digest(_ text: [UInt8]) -> (UInt64, UInt64) {
        let d = text.withUnsafeBufferPointer { TokenDigest.digest($0) }
        return (d.low, d.high)
    }

    @Test func equalTokensHashEqualWhicheverWayTheyWereMade() throws {
        for length in [1, 2, 3, 16, 96, 128, 1024] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let a = ApplicationToken(bytes: bytes)
            let b = try ApplicationToken(base64Data: String(decoding: Array(a.data.utf8), as: UTF8.self))
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
            #expect(Set([a, b]).count == 1)
        }
    }

    /// One changed character, anywhere (in the 16-byte blocks or in the zero-padded tail), changes the digest:
    /// with random keys a collision has a chance of about 2⁻⁶⁴, so any hit here is a bug (a byte left out).
    @Test func everyCharacterCountsInTheDigest() {
        for length in [4, 8, 12, 16, 20, 172, 176, 1368] {
            let text = (0..<length).map { Self.alphabet[($0 * 7) % 64] }
            let original = Self.digest(text)
            for i in 0..<length {
                var changed = text
                changed[i] = changed[i] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                #expect(Self.digest(changed) != original, "length \(length), character \(i)")
            }
        }
    }

    /// Strings that differ only in length (a prefix) or in zero bytes of the padding do not collide: the length
    /// is part of the digest.
    @Test func lengthIsPartOfTheDigest() {
        let zeros = [UInt8](repeating: 0, count: 40)
        var digests = Set<[UInt64]>()
        for n in 0...40 {
            let d = Self.digest(Array(zeros.prefix(n)))
            digests.insert([d.0, d.1])
        }
        #expect(digests.count == 41)
    }

    /// Sets of tokens behave at every length, including data strings longer than the keys cover (1376
    /// characters: only `Token(bytes:)` makes those), which `Hasher` hashes instead.
    @Test func setsHoldTokensOfEveryLength() {
        var tokens: [WebDomainToken] = []
        for length in 1...1100 {
            tokens.append(WebDomainToken(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 ^ length) }))
        }
        #expect(tokens.contains { $0.data.utf8.count > TokenDigest.keyCount * 8 })
        let set = Set(tokens + tokens.reversed())
        #expect(set.count == tokens.count)
        for token in tokens { #expect(set.contains(token)) }
    }

    /// `SWIFT_DETERMINISTIC_HASHING` fixes the keys, as it fixes `Hasher`'s seed: then the same tokens land in the
    /// same buckets, and a `Set` iterates them in the same order, in every process.
    @Test func deterministicHashingFixesTheKeys() {
        #expect(TokenDigest.makeKeys(deterministic: true) == TokenDigest.makeKeys(deterministic: true))
        #expect(TokenDigest.makeKeys(deterministic: false) != TokenDigest.makeKeys(deterministic: false))
        #expect(Set(TokenDigest.makeKeys(deterministic: true)).count == TokenDigest.keyCount)
        for (value, on) in [("1", true), ("true", true), ("Yes", true), ("0", false), ("false", false), ("", false)] {
            #expect(value.withCString(TokenDigest.deterministicHashing) == on, "\(value)")
        }
        #expect(!TokenDigest.deterministicHashing(nil))
    }

    @Test func orderIsTheByteOrderOfData() {
        let texts = ["AAAA", "AAA=", "AA==", "//8=", "+/8=", "ZZZZ", "zzzz", "0000", "AAAAAAAA", "AAAB"]
        let tokens = texts.map { ActivityCategoryToken(validatedData: $0) }
        for a in tokens {
            for b in tokens {
                #expect(
                    (a < b) == Array(a.data.utf8).lexicographicallyPrecedes(Array(b.data.utf8)), "\(a.data) < \(b.data)"
                )
            }
        }
    }
}

/// A token carries its digest from the moment it is made, and a `TokenIdentity` hashes the same digest: equal
/// tokens and identities hash alike however they were made, and an identity whose `data` is changed hashes as
/// one made with the new `data`. Kinds still never mix.
@Suite struct CarriedDigestTests {
    @Test func tokensCarryTheDigestOfTheirData() throws {
        for length in [1, 5, 12, 128, 1024, 1100] {
            let token = WebDomainToken(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
            let digest = TokenDigest.digest(of: token.data)
            func same(_ other: WebDomainToken) -> Bool {
                other.digest.low == digest.low && other.digest.high == digest.high
            }
            #expect(same(token))
            if length <= 1024 { #expect(same(try WebDomainToken(base64Data: token.data))) }
            #expect(same(WebDomainToken(validatedData: token.data)))
        }
    }

    @Test func identitiesHashLikeTheirTokensAndFollowTheirData() {
        let device = ApplicationToken(bytes: [UInt8](repeating: 0, count: 12) + (0..<116).map { UInt8($0) })
        let short = ApplicationToken(bytes: [1, 2, 3])
        for token in [device, short] {
            let identity = TokenIdentity(token)
            let rebuilt = TokenIdentity(
                kind: "application", data: String(decoding: Array(token.data.utf8), as: UTF8.self))
            #expect(identity == rebuilt && identity.hashValue == rebuilt.hashValue)
            let sameBytesCategory = TokenIdentity(ActivityCategoryToken(bytes: token.bytes))
            #expect(identity != sameBytesCategory)
            var grants: [TokenIdentity: Int] = [identity: 1]
            grants[sameBytesCategory] = 2
            #expect(grants[rebuilt] == 1 && grants[sameBytesCategory] == 2 && grants.count == 2)
        }
        var changed = TokenIdentity(short)
        changed.data = device.data
        #expect(changed == TokenIdentity(device) && changed.hashValue == TokenIdentity(device).hashValue)
        let tail = [UInt8](repeating: 7, count: 126)
        let many = (0..<300).map { (i: Int) -> TokenIdentity in
            TokenIdentity(WebDomainToken(bytes: [UInt8(i & 0xff), UInt8(i >> 8)] + tail))
        }
        #expect(Set(many).count == 300)
    }
}

/// What `Set` and `Dictionary` hash (`_rawHashValue(seed:)`, the digest mixed with the collection's seed, without
/// SipHash): equal for equal tokens and identities under every seed, and spread over the bucket bits, so that sets of
/// device tokens (which share their first 12 zero bytes and differ in a few) do not pile into a few buckets.
@Suite struct CollectionHashTests {
    static let seeds = [0, 1, -1, 0x5EED, Int.max, Int.min]

    static func deviceTokens(_ n: Int) -> [ApplicationToken] {
        (0..<n).map { i in
            ApplicationToken(
                bytes: [UInt8](repeating: 0, count: 12) + [UInt8(i & 0xff), UInt8(i >> 8)]
                    + [UInt8](repeating: 9, count: 114))
        }
    }

    @Test func equalValuesHashEqualUnderEverySeed() throws {
        for token in Self.deviceTokens(20) {
            let copy = try ApplicationToken(base64Data: String(decoding: Array(token.data.utf8), as: UTF8.self))
            let identity = TokenIdentity(token)
            let rebuilt = TokenIdentity(kind: "application", data: copy.data)
            for seed in Self.seeds {
                #expect(token._rawHashValue(seed: seed) == copy._rawHashValue(seed: seed))
                #expect(identity._rawHashValue(seed: seed) == rebuilt._rawHashValue(seed: seed))
            }
        }
    }

    /// 4096 device tokens that differ in two bytes: under each seed, the low 8 bits (what a 256-bucket table uses)
    /// reach every bucket and no bucket holds more than three times its share; the full hashes are all distinct.
    @Test func hashesSpreadOverTheBucketBits() {
        let tokens = Self.deviceTokens(4096)
        for seed in Self.seeds {
            let hashes = tokens.map { $0._rawHashValue(seed: seed) }
            #expect(Set(hashes).count == tokens.count, "seed \(seed)")
            var buckets = [Int](repeating: 0, count: 256)
            for hash in hashes { buckets[hash & 0xff] += 1 }
            let (fewest, most) = (buckets.min() ?? 0, buckets.max() ?? 0)
            #expect(fewest > 0 && most <= 48, "seed \(seed): buckets hold \(fewest)…\(most)")
            let identities = tokens.map { TokenIdentity($0)._rawHashValue(seed: seed) & 0xff }
            var identityBuckets = [Int](repeating: 0, count: 256)
            for bucket in identities { identityBuckets[bucket] += 1 }
            #expect((identityBuckets.min() ?? 0) > 0 && (identityBuckets.max() ?? 0) <= 48, "seed \(seed)")
        }
    }

    /// The seed changes the hash (each `Set` has its own), and the kind changes an identity's hash.
    @Test func seedAndKindTakePart() {
        let token = Self.deviceTokens(1)[0]
        #expect(Set(Self.seeds.map { token._rawHashValue(seed: $0) }).count == Self.seeds.count)
        let kinds = [
            TokenIdentity(token), TokenIdentity(ActivityCategoryToken(validatedData: token.data)),
            TokenIdentity(WebDomainToken(validatedData: token.data)),
        ]
        #expect(Set(kinds.map { $0._rawHashValue(seed: 7) }).count == 3)
        #expect(Set(kinds).count == 3)
    }
}
