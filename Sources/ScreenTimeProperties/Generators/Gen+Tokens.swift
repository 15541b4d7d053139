import PropertyTesting
import ScreenTimeReference

extension Gen where Value == [UInt8] {
    /// Bytes of a valid token (1…1024 bytes): mostly universe tokens (collisions), else random short bytes,
    /// device-shaped 128-byte tokens with a random tail, or the 1024-byte maximum.
    public static func tokenBytes(universe: Int = 12) -> Gen<[UInt8]> {
        let count = Swift.max(1, Swift.min(universe, TokenUniverse.size))
        return Gen.frequency([
            (6, Gen<Int>.int(in: 0...(count - 1)).map { TokenUniverse.bytes($0) }),
            (2, Gen<[UInt8]>.bytes(count: 1...24)),
            (
                1,
                Gen<[UInt8]>.bytes(count: 0...8).map { tail in
                    var bytes = [UInt8](repeating: 0, count: 12) + tail
                    while bytes.count < 128 { bytes.append(UInt8(truncatingIfNeeded: bytes.count &* 29)) }
                    return bytes
                }
            ),
            (1, Gen<UInt8>.int().map { [UInt8](repeating: $0, count: 1024) }),
        ])
    }
}

extension Gen {
    /// A token of any kind from the first `universe` numbered tokens.
    public static func universeToken<Kind: TokenKind>(_ kind: Kind.Type, universe: Int) -> Gen<Token<Kind>>
    where Value == Token<Kind> {
        let count = Swift.max(1, Swift.min(universe, TokenUniverse.size))
        return Gen<Int>.int(in: 0...(count - 1)).map { TokenUniverse.token($0, Kind.self) }
    }

    /// A token of any kind: universe tokens, random short tokens, device-shaped and maximal ones.
    public static func token<Kind: TokenKind>(_ kind: Kind.Type, universe: Int = 12) -> Gen<Token<Kind>>
    where Value == Token<Kind> {
        Gen<[UInt8]>.tokenBytes(universe: universe).map { Token<Kind>(bytes: $0) }
    }

    /// A set of tokens of one kind from the first `universe` numbered tokens.
    public static func universeTokens<Kind: TokenKind>(
        _ kind: Kind.Type, universe: Int, count: ClosedRange<Int> = 0...4
    ) -> Gen<Set<Token<Kind>>> where Value == Set<Token<Kind>> {
        Gen<Token<Kind>>.universeToken(kind, universe: universe).array(count: count).map { Set($0) }
    }
}
