/// A custom-scheme deep link `scheme://host?name=value&…`, built and parsed without Foundation.
///
/// A shield's secondary button often opens the app at the blocked item: `myapp://open?app=<display name>`.
/// The display name may be absent (iOS gives `nil` outside the shield-configuration extension) or be in any
/// script, so every query name and value is percent-encoded with ``PercentEncoding/encodeComponent(_:)``.
///
/// ```swift
/// let link = try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": "Café & Co", "from": "shield"])
/// link.absoluteString                       // "myapp://open?app=Caf%C3%A9%20%26%20Co&from=shield"
/// let parsed = try DeepLink(parsing: link.absoluteString)
/// parsed.value(forName: "app")              // "Café & Co"
/// ```
///
/// Rules (ours, on RFC 3986 grammar):
/// - `scheme` is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1), lower-cased (schemes are
///   case-insensitive, RFC 3986 §6.2.2.1).
/// - `host` is one or more unreserved ASCII characters (`A–Z a–z 0–9 - . _ ~`), kept as written. No user info,
///   port, path or fragment: a deep link that needs them is not this shape.
/// - The query, when present, is `item *( "&" item )`, each item `name "=" value`, split at the first `=`.
///   The name must be non-empty after decoding; names are unique; each name and value is decoded with
///   ``PercentEncoding/decodeComponent(_:)`` (strict; `+` is a plus).
/// - The builder leaves out an item whose value is `nil` (so a missing display name gives a link without `app`,
///   and parsing gives `nil` back); an empty string is kept as `app=`.
/// - `parse(build(x))` gives back `x` for every link the builder accepts.
public struct DeepLink: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` pair of the query, decoded.
    public struct QueryItem: Sendable, Hashable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The scheme, lower-cased, such as `myapp`.
    public let scheme: String
    /// The host, such as `open`.
    public let host: String
    /// The query items in link order, names unique, values decoded.
    public let queryItems: [QueryItem]

    /// Builds a link; items whose value is `nil` are left out.
    ///
    /// ```swift
    /// let name: String? = nil   // no display name available
    /// try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": name]).absoluteString   // "myapp://open"
    /// ```
    /// - Throws: ``DeepLinkError`` for a malformed scheme or host (offset within that string), an empty name or
    ///   a repeated name.
    public init(scheme: String, host: String, queryItems: KeyValuePairs<String, String?> = [:]) throws(DeepLinkError) {
        if let offset = Self.schemeFault(Array(scheme.utf8)) { throw .invalidScheme(offset: offset) }
        if let offset = Self.hostFault(Array(host.utf8)) { throw .invalidHost(offset: offset) }
        var items: [QueryItem] = []
        var seen = Set<String>()
        for (name, value) in queryItems {
            guard let value else { continue }
            guard !name.isEmpty else { throw .emptyName }
            guard seen.insert(name).inserted else { throw .duplicateName(name) }
            items.append(QueryItem(name: name, value: value))
        }
        self.scheme = Self.lowercasedASCII(scheme)
        self.host = host
        self.queryItems = items
    }

    /// Parses a link strictly. Offsets in errors are UTF-8 byte offsets in `text`.
    ///
    /// ```swift
    /// try DeepLink(parsing: "myapp://open?app=%E6%97%A5%E6%9C%AC").value(forName: "app")   // "日本"
    /// try DeepLink(parsing: "myapp://open?app=My App")   // throws .invalidComponent(unencodedCharacter …)
    /// ```
    public init(parsing text: String) throws(DeepLinkError) {
        let bytes = Array(text.utf8)
        let n = bytes.count
        // Scheme: up to "://".
        var i = 0
        while i < n, bytes[i] != UInt8(ascii: ":") { i += 1 }
        let schemeBytes = Array(bytes[0..<i])
        if let offset = Self.schemeFault(schemeBytes) { throw .invalidScheme(offset: offset) }
        guard i + 3 <= n, bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/") else {
            throw .invalidScheme(offset: i)
        }
        // Host: up to "?" or the end.
        let hostStart = i + 3
        var j = hostStart
        while j < n, bytes[j] != UInt8(ascii: "?") { j += 1 }
        let hostBytes = Array(bytes[hostStart..<j])
        if let offset = Self.hostFault(hostBytes) { throw .invalidHost(offset: hostStart + offset) }

        var items: [QueryItem] = []
        var seen = Set<String>()
        if j < n {
            // Query: items separated by "&".
            var itemStart = j + 1
            while true {
                var end = itemStart
                while end < n, bytes[end] != UInt8(ascii: "&") { end += 1 }
                var equals = itemStart
                while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                guard equals < end else { throw .invalidQuery(offset: itemStart) }
                let name: String
                let value: String
                do {
                    name = try PercentEncoding.decodeComponent(utf8: bytes[itemStart..<equals])
                } catch {
                    throw .invalidComponent(error, componentOffset: itemStart)
                }
                do {
                    value = try PercentEncoding.decodeComponent(utf8: bytes[(equals + 1)..<end])
                } catch {
                    throw .invalidComponent(error, componentOffset: equals + 1)
                }
                guard !name.isEmpty else { throw .invalidQuery(offset: itemStart) }
                guard seen.insert(name).inserted else { throw .duplicateName(name) }
                items.append(QueryItem(name: name, value: value))
                if end == n { break }
                itemStart = end + 1
            }
        }
        self.scheme = Self.lowercasedASCII(String(decoding: schemeBytes, as: UTF8.self))
        self.host = String(decoding: hostBytes, as: UTF8.self)
        self.queryItems = items
    }

    /// The value of the item named `name`, or `nil` when the link has no such item.
    public func value(forName name: String) -> String? {
        queryItems.first(where: { $0.name == name })?.value
    }

    /// The link as text: names and values percent-encoded, items in order.
    public var absoluteString: String {
        var text = scheme + "://" + host
        for (index, item) in queryItems.enumerated() {
            text += index == 0 ? "?" : "&"
            text += PercentEncoding.encodeComponent(item.name)
            text += "="
            text += PercentEncoding.encodeComponent(item.value)
        }
        return text
    }

    public var description: String { absoluteString }

    // MARK: Grammar checks (offset of the first bad byte, or nil)

    private static func schemeFault(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return 0 }
        guard isASCIILetter(first) else { return 0 }
        for (offset, byte) in bytes.enumerated().dropFirst() {
            let ok =
                isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !ok { return offset }
        }
        return nil
    }

    private static func hostFault(_ bytes: [UInt8]) -> Int? {
        if bytes.isEmpty { return 0 }
        return bytes.firstIndex(where: { !PercentEncoding.isUnreserved($0) })
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func lowercasedASCII(_ text: String) -> String {
        String(
            decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 },
            as: UTF8.self)
    }
}

/// Why a deep link could not be built or parsed. Offsets are UTF-8 byte offsets: in the parsed text, or for the
/// builder in the scheme or host string given.
public enum DeepLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No scheme, a scheme outside RFC 3986 §3.1 grammar, or no `://` after it.
    case invalidScheme(offset: Int)
    /// An empty host, or a host character outside unreserved ASCII (this includes `/`: no paths).
    case invalidHost(offset: Int)
    /// A query item that is empty, has no `=`, or has an empty name (offset of the item).
    case invalidQuery(offset: Int)
    /// A name or value whose percent-encoding is invalid; the inner error's offset is within the component,
    /// which starts at `componentOffset`.
    case invalidComponent(PercentDecodingError, componentOffset: Int)
    /// A query name given twice: which one wins would be a guess.
    case duplicateName(String)
    /// The builder was given an empty query name.
    case emptyName

    public var description: String {
        switch self {
        case .invalidScheme(let offset): "invalid scheme at byte \(offset)"
        case .invalidHost(let offset): "invalid host at byte \(offset)"
        case .invalidQuery(let offset): "query item at byte \(offset) is not name=value"
        case .invalidComponent(let error, let start):
            "query component at byte \(start): \(error.code.rawValue) at byte \(start + error.offset)"
        case .duplicateName(let name): "query name \(name.debugDescription) given twice"
        case .emptyName: "empty query name"
        }
    }
}
