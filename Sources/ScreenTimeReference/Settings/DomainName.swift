/// A domain name as the web filter compares it: ASCII, lower case, without a trailing dot. (Ours.)
///
/// Rule (`SPEC.md` §9.3): ASCII letters are lower-cased and one trailing `.` dropped; the rest must be labels of
/// 1–63 characters from `a`–`z`, `0`–`9` and `-` (not first or last), joined by `.`, 253 characters at most.
/// A policy domain covers a host that is itself or one of its subdomains (Assumption A31).
/// Source: RFC 1035 §2.3.1, RFC 4343; the trailing dot and refusing IDN in Unicode form are Assumption A30.
///
/// ```swift
/// DomainName("WWW.Example.com.")?.text == "www.example.com"
/// DomainName("example.com")!.covers(DomainName("m.example.com")!)   // true
/// DomainName.host(ofURL: "https://user@Example.com:8443/path")?.text == "example.com"
/// ```
public struct DomainName: Hashable, Sendable, CustomStringConvertible {
    /// The normalized name.
    public let text: String

    /// The longest name: 253 characters. Source: RFC 1035 §2.3.4 (255 octets on the wire).
    public static var maximumLength: Int { 253 }
    /// The longest label: 63 characters. Source: RFC 1035 §2.3.4.
    public static var maximumLabelLength: Int { 63 }

    /// The name `text` reads as, or `nil` when it is not a domain name.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return nil }
        var labelLength = 0
        var previous: UInt8 = UInt8(ascii: ".")
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes[index] = byte + 32
                labelLength += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                labelLength += 1
            case UInt8(ascii: "-"):
                guard previous != UInt8(ascii: ".") else { return nil }
                labelLength += 1
            case UInt8(ascii: "."):
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
                labelLength = 0
            default:
                return nil
            }
            guard labelLength <= Self.maximumLabelLength else { return nil }
            previous = byte
        }
        guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
        self.text = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a policy naming `self` covers `host`: the same name, or a name ending in `.` followed by `self`.
    public func covers(_ host: DomainName) -> Bool {
        guard host.text.utf8.count >= text.utf8.count else { return false }
        if host.text == text { return true }
        return host.text.utf8.count > text.utf8.count && host.text.hasSuffix("." + text)
    }

    /// The host of an `http` or `https` URL, or `nil` when the URL has none that is a domain name.
    ///
    /// Rule (`SPEC.md` §9.3): the scheme (any case) and `://`, then the authority up to the first `/`, `?`, `#` or
    /// the end; user information up to the last `@` and a final `:` with only digits after it are dropped.
    /// Example: `host(ofURL: "http://[::1]/")` is `nil`, as is `host(ofURL: "ftp://example.com")`.
    public static func host(ofURL url: String) -> DomainName? {
        let bytes = Array(url.utf8)
        var start: Int?
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            if bytes.count >= prefix.count,
                zip(bytes, prefix).allSatisfy({ asciiLowercase($0) == $1 })
            {
                start = prefix.count
            }
        }
        guard let start else { return nil }
        var end = start
        while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) {
            end += 1
        }
        var authority = bytes[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")),
            authority[(colon + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            authority = authority[..<colon]
        }
        return DomainName(String(decoding: authority, as: UTF8.self))
    }

    public var description: String { text }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
