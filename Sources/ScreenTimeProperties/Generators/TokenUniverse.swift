import ScreenTimeReference

/// Token bytes and tokens: a small numbered universe (so that sets collide and shrink to readable names),
/// random short tokens, device-shaped 128-byte tokens and the 1024-byte maximum.
///
/// Universe token `i` has the same bytes whatever its kind, so an application token and a category token can
/// share their `data` string: kinds must still never mix (`SPEC.md` §1).
public enum TokenUniverse {
    /// How many numbered tokens exist (generators pick from a prefix of them).
    public static let size = 64

    /// The bytes of universe token `i` (reduced into range): every third one device-shaped (128 bytes, the first
    /// 12 zero), the others 1 to 9 bytes, so their `data` strings differ in length and in first character.
    public static func bytes(_ i: Int) -> [UInt8] { bytesTable[reduced(i)] }

    static func reduced(_ i: Int) -> Int { ((i % size) + size) % size }

    /// Made once: generators pick universe tokens all the time (under perf, making their bytes and base64 each
    /// time was a visible share of the `shield` fuzz target; docs/PERFORMANCE.md#decisions).
    static let bytesTable: [[UInt8]] = (0..<size).map(makeBytes)
    static let applicationTokens: [ApplicationToken] = bytesTable.map { ApplicationToken(bytes: $0) }
    static let categoryTokens: [ActivityCategoryToken] = bytesTable.map { ActivityCategoryToken(bytes: $0) }
    static let webDomainTokens: [WebDomainToken] = bytesTable.map { WebDomainToken(bytes: $0) }

    static func makeBytes(_ i: Int) -> [UInt8] {
        if i % 3 == 0 {
            var bytes = [UInt8](repeating: 0, count: 12)
            var x = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 1
            while bytes.count < 128 {
                x ^= x >> 29
                x = x &* 0xBF58_476D_1CE4_E5B9
                bytes.append(UInt8(truncatingIfNeeded: x >> 24))
            }
            return bytes
        }
        let length = 1 + (i * 5) % 9
        return (0..<length).map { UInt8(truncatingIfNeeded: (i &* 37) &+ $0 &* 11 &+ 0x41) }
    }

    static let dataTable: [String] = applicationTokens.map(\.data)
    static let indexOfData: [String: Int] = {
        var table: [String: Int] = [:]
        for (i, data) in dataTable.enumerated() { table[data] = i }
        return table
    }()

    /// The `data` string of universe token `i`.
    public static func data(_ i: Int) -> String { dataTable[reduced(i)] }

    /// Universe token `i` of any kind.
    public static func token<Kind: TokenKind>(_ i: Int, _ kind: Kind.Type = Kind.self) -> Token<Kind> {
        let i = reduced(i)
        if Kind.self == Application.self, let token = applicationTokens[i] as? Token<Kind> { return token }
        if Kind.self == ActivityCategory.self, let token = categoryTokens[i] as? Token<Kind> { return token }
        if Kind.self == WebDomain.self, let token = webDomainTokens[i] as? Token<Kind> { return token }
        return Token<Kind>(bytes: bytesTable[i])
    }

    /// The token of kind `Other` with the same bytes as `token`: `Token<Other>(bytes: token.bytes)`, taken from the
    /// tables when `token` is a universe token (no base64 decoding and encoding again).
    public static func sameBytes<Kind: TokenKind, Other: TokenKind>(_ token: Token<Kind>, as other: Other.Type)
        -> Token<Other>
    {
        if let i = indexOfData[token.data] {
            if Other.self == Application.self, let same = applicationTokens[i] as? Token<Other> { return same }
            if Other.self == ActivityCategory.self, let same = categoryTokens[i] as? Token<Other> { return same }
            if Other.self == WebDomain.self, let same = webDomainTokens[i] as? Token<Other> { return same }
        }
        return Token<Other>(bytes: token.bytes)
    }

    /// A short readable label for a token: `app3`, `cat0`, `web12` for universe tokens, else a prefix of its data.
    public static func label<Kind: TokenKind>(_ token: Token<Kind>) -> String {
        let prefix: String
        switch Kind.kindName {
        case Application.kindName: prefix = "app"
        case ActivityCategory.kindName: prefix = "cat"
        default: prefix = "web"
        }
        if let i = indexOfData[token.data] { return "\(prefix)\(i)" }
        let shown = token.data.count > 12 ? String(token.data.prefix(12)) + "…" : token.data
        return "\(prefix)(\(shown))"
    }

    /// Labels of a set, sorted.
    public static func labels<Kind: TokenKind>(_ tokens: Set<Token<Kind>>?) -> String {
        guard let tokens else { return "nil" }
        return "[" + tokens.sorted().map { label($0) }.joined(separator: ", ") + "]"
    }
}
