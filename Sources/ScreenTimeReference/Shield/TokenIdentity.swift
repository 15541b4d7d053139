/// A token of any kind, as a hashable value: its kind name and its `data` string. (Ours.)
///
/// The reference keeps the set of void tokens (``ScreenTimeEnvironment``) and lint findings in this form.
/// Kinds never mix: an application token and a category token with the same bytes are different identities
/// (`SPEC.md` §1, "a token of one kind never matches another kind").
///
/// ```swift
/// TokenIdentity(mail) == TokenIdentity(kind: "application", data: mail.data)
/// ```
public struct TokenIdentity: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// ``TokenKind/kindName`` of the token's kind: `application`, `category` or `webDomain`.
    public var kind: String
    /// The token's `data` string (standard padded base64 of its bytes).
    public var data: String {
        didSet { digest = TokenDigest.digest(of: data) }
    }
    /// The digest of `data` that ``Token`` hashes, taken from the token when there is one: hashing an identity then
    /// reads two words, not all of `data` (172 characters for a device token; the simulator looks a token's grant
    /// up by identity at every void check).
    private var digest: TokenDigest.Digest

    public init(kind: String, data: String) {
        self.kind = kind
        self.data = data
        self.digest = TokenDigest.digest(of: data)
    }

    public init<Kind: TokenKind>(_ token: Token<Kind>) {
        self.kind = Kind.kindName
        self.data = token.data
        self.digest = token.digest
    }

    /// Identities are equal when their kinds and `data` strings are (the digest follows from `data`).
    public static func == (lhs: TokenIdentity, rhs: TokenIdentity) -> Bool {
        lhs.kind == rhs.kind && lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(digest.low)
        hasher.combine(digest.high)
    }

    /// What `Set` and `Dictionary` ask for (the simulator's grant of every token is a dictionary): the digest mixed
    /// with the seed, as ``Token`` does, and the kind's length, which tells the three kinds apart without hashing
    /// the string (equal kinds have equal lengths; other kinds of the same length are told apart by `==`).
    public func _rawHashValue(seed: Int) -> Int { TokenDigest.mix(digest, UInt64(kind.utf8.count), seed: seed) }

    /// Ordered by kind, then by `data` in byte order (the stable order of `SPEC.md` §1).
    public static func < (lhs: TokenIdentity, rhs: TokenIdentity) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind.utf8.lexicographicallyPrecedes(rhs.kind.utf8) }
        return lhs.data.utf8.lexicographicallyPrecedes(rhs.data.utf8)
    }

    public var description: String { "\(kind)Token(\(data))" }
}
