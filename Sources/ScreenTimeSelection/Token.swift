/// An opaque token that iOS hands out for an application, an activity category or a web domain.
///
/// Mirrors `ManagedSettings.Token<T>`: three kinds (``ApplicationToken``, ``ActivityCategoryToken``,
/// ``WebDomainToken``) that the type system never mixes up. iOS writes a token as the one-key JSON object
/// `{"data": "<standard padded base64>"}`; device tokens are 128 bytes, the first 12 of them zero
/// (device capture). The reference accepts 1 to 1024 bytes (`SPEC.md` §1).
///
/// A token's identity is its bytes; since the reference only accepts canonical base64 (RFC 4648 §3.5, zero pad
/// bits), its `data` string identifies it just as well, and tokens order by that string in ASCII order
/// (the stable display order of `SPEC.md` §1).
///
/// ```swift
/// let token = try ApplicationToken(base64Data: "AAAA…")   // ours: strict, throws on bad base64
/// let same = ApplicationToken(bytes: Array(repeating: 0, count: 128))
/// ```
public struct Token<Kind: TokenKind>: Hashable, Sendable {
    /// The token's bytes as standard padded base64: the `data` member of its JSON form. (Ours.)
    public let data: String
    /// `TokenDigest.digest(of: data)`, made once with the token: what `hash(into:)` feeds the hasher (a token is
    /// hashed at every set insertion and lookup, and the digest reads all of `data`).
    package let digest: TokenDigest.Digest

    /// A token holding `bytes` (ours; iOS mints tokens itself). `bytes` may be of any length here;
    /// decoding only accepts 1…1024 bytes.
    public init(bytes: [UInt8]) {
        self.init(validatedData: Base64.encode(bytes))
    }

    /// A token from its `data` string, which must be canonical standard base64 of 1…1024 bytes. (Ours.)
    public init(base64Data: String) throws(SelectionDecodingError) {
        guard let bytes = Base64.decode(Array(base64Data.utf8)) else {
            throw SelectionDecodingError(.token, at: 0, detail: "token data is not canonical standard base64")
        }
        guard !bytes.isEmpty else { throw SelectionDecodingError(.token, at: 0, detail: "token data is empty") }
        guard bytes.count <= Self.maximumByteCount else {
            throw SelectionDecodingError(
                .token, at: 0, detail: "token data is \(bytes.count) bytes, over \(Self.maximumByteCount)")
        }
        self.init(validatedData: base64Data)
    }

    /// Trusted initializer for strings already checked by the decoder.
    package init(validatedData: String) {
        self.data = validatedData
        self.digest = TokenDigest.digest(of: validatedData)
    }

    /// Tokens are equal when their `data` strings are (the digest follows from it).
    public static func == (lhs: Token, rhs: Token) -> Bool { lhs.data == rhs.data }

    /// The token's bytes. (Ours.)
    public var bytes: [UInt8] { Base64.decode(Array(data.utf8)) ?? [] }

    /// How many bytes the token holds (128 on devices). (Ours.)
    public var byteCount: Int { Base64.decodedByteCount(of: data.utf8) }

    /// Tokens made by iOS are this long (device capture).
    public static var deviceByteCount: Int { 128 }
    /// The longest token the reference accepts (`SPEC.md` §1).
    public static var maximumByteCount: Int { 1024 }
}

extension Token: CustomStringConvertible {
    public var description: String { "\(Kind.kindName)Token(\(data))" }
}

/// What a token stands for: one of ``Application``, ``ActivityCategory``, ``WebDomain``.
public protocol TokenKind: Sendable {
    /// The kind's name in the vector format: `application`, `category` or `webDomain`.
    static var kindName: String { get }
}

/// An application (mirrors `ManagedSettings.Application`).
public struct Application: TokenKind, Hashable, Sendable {
    public static var kindName: String { "application" }
    public var token: ApplicationToken?
    public var bundleIdentifier: String?
    /// The app's name; iOS often leaves it `nil` (outside the shield extension, and sometimes inside).
    public var localizedDisplayName: String?
    public init(token: ApplicationToken? = nil, bundleIdentifier: String? = nil, localizedDisplayName: String? = nil) {
        self.token = token
        self.bundleIdentifier = bundleIdentifier
        self.localizedDisplayName = localizedDisplayName
    }
}

/// An activity category (mirrors `ManagedSettings.ActivityCategory`).
public struct ActivityCategory: TokenKind, Hashable, Sendable {
    public static var kindName: String { "category" }
    public var token: ActivityCategoryToken?
    public var localizedDisplayName: String?
    public init(token: ActivityCategoryToken? = nil, localizedDisplayName: String? = nil) {
        self.token = token
        self.localizedDisplayName = localizedDisplayName
    }
}

/// A web domain (mirrors `ManagedSettings.WebDomain`).
public struct WebDomain: TokenKind, Hashable, Sendable {
    public static var kindName: String { "webDomain" }
    public var token: WebDomainToken?
    public var domain: String?
    public init(token: WebDomainToken? = nil, domain: String? = nil) {
        self.token = token
        self.domain = domain
    }
}

public typealias ApplicationToken = Token<Application>
public typealias ActivityCategoryToken = Token<ActivityCategory>
public typealias WebDomainToken = Token<WebDomain>
