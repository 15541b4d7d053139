import ScreenTimeEncoding
import _FuzzCore

extension FuzzTargets {
    /// `deeplink`: the bytes as the text of a deep link, parsed with `DeepLink(parsing:)` and checked against a
    /// naive second parser written here (``EncodingInvariants/naiveDeepLink(_:)``).
    ///
    /// Invariants: parsing is total and gives what the naive parser gives, the same link or the same typed error
    /// at the same offset; a parsed link's `absoluteString` parses back to the same link and is a fixed point;
    /// every name and value survives percent-encoding and decoding; `value(forName:)` finds every item; the
    /// builder, given the parsed scheme, host and items, makes the same link; and where the parser rejects the
    /// scheme or host, the builder rejects that string at the same offset.
    ///
    /// `maxLength` 512: a scheme, a host and several items with multi-byte escapes. The components go through
    /// the percent decoder byte by byte, whose grammar is `url`'s job, so longer inputs add time and nothing else.
    public static let deeplink = FuzzTarget(
        name: "deeplink",
        summary: "bytes as a deep link: parse against a naive parser, typed errors, round trip, builder agrees",
        maxLength: 512,
        inPlace: { input in EncodingInvariants.checkDeepLink(input) })
}

extension EncodingInvariants {
    /// What the naive parser makes of a link's text: the decoded parts, or the error the reference must throw.
    public enum NaiveDeepLink: Equatable {
        case link(scheme: String, host: String, items: [DeepLink.QueryItem])
        case rejected(DeepLinkError)
        /// The naive percent decoder rejects a component that the reference accepts, or finds only ill-formed
        /// UTF-8 where the reference reports something else: the `url` target's failure, seen here.
        case decodersDisagree(component: [UInt8])
    }

    public static func checkDeepLink(_ bytes: [UInt8]) -> HarnessFailure? {
        bytes.withUnsafeBufferPointer(checkDeepLink)
    }

    /// The `deeplink` checks on libFuzzer's bytes (ill-formed UTF-8 is repaired first: the parser takes a String).
    public static func checkDeepLink(_ input: UnsafeBufferPointer<UInt8>) -> HarnessFailure? {
        let text = string(input)
        let expected = naiveDeepLink(Array(text.utf8))
        let link: DeepLink
        do throws(DeepLinkError) {
            link = try DeepLink(parsing: text)
        } catch {
            if expected != .rejected(error) {
                return HarnessFailure(
                    "the parser's error differs from the naive parser's",
                    "\(error), naive \(expected); input \(preview(text))")
            }
            return checkBuilderRejects(error, text: text)
        }
        guard case .link(let scheme, let host, let items) = expected else {
            return HarnessFailure(
                "the parser accepts what the naive parser rejects", "\(expected); input \(preview(text))")
        }
        if !sameBytes(link.scheme, scheme) || !sameBytes(link.host, host) || !sameItems(link.queryItems, items) {
            return HarnessFailure(
                "the parser's link differs from the naive parser's", "\(link); input \(preview(text))")
        }
        return checkParsedLink(link)
    }

    /// A parsed link: round trip and fixed point of `absoluteString`, component round trips, lookups, builder.
    static func checkParsedLink(_ link: DeepLink) -> HarnessFailure? {
        let written = link.absoluteString
        if !sameBytes(link.description, written) {
            return HarnessFailure("description is not absoluteString", preview(link.description))
        }
        let again: DeepLink
        do throws(DeepLinkError) {
            again = try DeepLink(parsing: written)
        } catch {
            return HarnessFailure("absoluteString does not parse", "\(error); \(preview(written))")
        }
        if again != link || !sameItems(again.queryItems, link.queryItems) {
            return HarnessFailure("parse(absoluteString) differs from the link", preview(written))
        }
        if !sameBytes(again.absoluteString, written) {
            return HarnessFailure(
                "absoluteString is not a fixed point", "\(preview(written)) then \(preview(again.absoluteString))")
        }
        for item in link.queryItems {
            for component in [item.name, item.value] {
                let decoded = try? PercentEncoding.decodeComponent(PercentEncoding.encodeComponent(component))
                if decoded.map({ sameBytes($0, component) }) != true {
                    return HarnessFailure("a query component does not survive percent-encoding", preview(component))
                }
            }
            if link.value(forName: item.name).map({ sameBytes($0, item.value) }) != true {
                return HarnessFailure("value(forName:) does not find an item", preview(item.name))
            }
        }
        // Names are never empty, so no item answers to "".
        if link.value(forName: "") != nil { return HarnessFailure("value(forName: \"\") found an item") }
        return checkBuilder(link)
    }

    /// The builder, given the parsed parts (the scheme upper-cased: schemes are case-insensitive), makes the
    /// same link. `KeyValuePairs` is built from literals only, so up to the first two items are given, with a
    /// `nil` item under an existing name between them (left out, so no duplicate); a repeated name and an
    /// empty name with a value are errors.
    static func checkBuilder(_ link: DeepLink) -> HarnessFailure? {
        let items = link.queryItems
        let scheme = String(
            decoding: link.scheme.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
        let built: Result<DeepLink, DeepLinkError>
        switch items.count {
        case 0:
            built = Result { () throws(DeepLinkError) in try DeepLink(scheme: scheme, host: link.host) }
        case 1:
            built = Result { () throws(DeepLinkError) in
                try DeepLink(scheme: scheme, host: link.host, queryItems: [items[0].name: items[0].value, "": nil])
            }
        default:
            built = Result { () throws(DeepLinkError) in
                try DeepLink(
                    scheme: scheme, host: link.host,
                    queryItems: [items[0].name: items[0].value, items[0].name: nil, items[1].name: items[1].value])
            }
        }
        guard case .success(let b) = built else {
            return HarnessFailure("the builder rejects a parsed link's parts", "\(built); link \(link)")
        }
        let expected = Array(items.prefix(2))
        if !sameBytes(b.scheme, link.scheme) || !sameBytes(b.host, link.host) || !sameItems(b.queryItems, expected) {
            return HarnessFailure("the builder makes another link from the parsed parts", "\(b); link \(link)")
        }
        if let first = items.first {
            let duplicate = Result { () throws(DeepLinkError) in
                try DeepLink(scheme: scheme, host: link.host, queryItems: [first.name: first.value, first.name: ""])
            }
            if duplicate != .failure(.duplicateName(first.name)) {
                return HarnessFailure("the builder takes a repeated name", "\(duplicate); name \(preview(first.name))")
            }
        }
        let empty = Result { () throws(DeepLinkError) in
            try DeepLink(scheme: scheme, host: link.host, queryItems: ["": items.first?.value ?? ""])
        }
        if empty != .failure(.emptyName) { return HarnessFailure("the builder takes an empty name", "\(empty)") }
        return nil
    }

    /// Where the parser rejects the scheme or the host itself (not the `://` after the scheme), the builder
    /// rejects that string at the same offset: one grammar for both.
    static func checkBuilderRejects(_ error: DeepLinkError, text: String) -> HarnessFailure? {
        let bytes = Array(text.utf8)
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
        switch error {
        case .invalidScheme(let offset) where offset < colon || colon == 0:
            let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
            let built = Result { () throws(DeepLinkError) in try DeepLink(scheme: scheme, host: "h") }
            if built != .failure(.invalidScheme(offset: offset)) {
                return HarnessFailure("the builder and the parser disagree on a scheme", "\(built); parser \(error)")
            }
        case .invalidHost(let offset):
            let start = colon + 3
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            let host = String(decoding: bytes[start..<end], as: UTF8.self)
            let built = Result { () throws(DeepLinkError) in try DeepLink(scheme: "s", host: host) }
            if built != .failure(.invalidHost(offset: offset - start)) {
                return HarnessFailure("the builder and the parser disagree on a host", "\(built); parser \(error)")
            }
        default: break
        }
        return nil
    }

    /// Items equal byte for byte (`==` on their strings is canonical equivalence, weaker).
    static func sameItems(_ a: [DeepLink.QueryItem], _ b: [DeepLink.QueryItem]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { sameBytes($0.name, $1.name) && sameBytes($0.value, $1.value) }
    }

    /// A second parser, sharing nothing with the reference but the error type: it reads the rules of
    /// `DeepLink`'s documentation with slices and searches, and decodes components with the naive decoder of
    /// the `url` target. Errors come in reading order: the scheme, `://`, the host, then item by item its name's
    /// encoding, its value's encoding, an empty name, a repeated name.
    public static func naiveDeepLink(_ b: [UInt8]) -> NaiveDeepLink {
        func isLetter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        let schemeEnd = b.firstIndex(of: UInt8(ascii: ":")) ?? b.count
        let scheme = b[..<schemeEnd]
        if scheme.isEmpty || !isLetter(scheme[0]) { return .rejected(.invalidScheme(offset: 0)) }
        if let bad = scheme.firstIndex(where: {
            !(isLetter($0) || (0x30...0x39).contains($0) || "+-.".utf8.contains($0))
        }) {
            return .rejected(.invalidScheme(offset: bad))
        }
        guard b[schemeEnd...].starts(with: "://".utf8) else { return .rejected(.invalidScheme(offset: schemeEnd)) }
        let hostStart = schemeEnd + 3
        let queryMark = b[hostStart...].firstIndex(of: UInt8(ascii: "?"))
        let host = b[hostStart..<(queryMark ?? b.count)]
        if host.isEmpty { return .rejected(.invalidHost(offset: hostStart)) }
        if let bad = host.firstIndex(where: { !isUnreserved($0) }) { return .rejected(.invalidHost(offset: bad)) }
        var items: [DeepLink.QueryItem] = []
        if let queryMark {
            for item in b[(queryMark + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
                let start = item.startIndex
                guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else {
                    return .rejected(.invalidQuery(offset: start))
                }
                var parts: [String] = []
                for (component, offset) in [(item[..<equals], start), (item[(equals + 1)...], equals + 1)] {
                    switch naiveDecode(Array(component)) {
                    case .decoded(let bytes): parts.append(String(decoding: bytes, as: UTF8.self))
                    case .rejected(let code):
                        // The error itself is the reference decoder's (the url target checks its offset). A
                        // component with a bad escape may also decode to ill-formed UTF-8 before it, and the
                        // decoder reports what it meets first; with every escape well formed, it is invalidUTF8.
                        do throws(PercentDecodingError) {
                            _ = try PercentEncoding.decodeComponent(utf8: component)
                        } catch {
                            if code == .invalidUTF8, error.code != .invalidUTF8 {
                                return .decodersDisagree(component: Array(component))
                            }
                            return .rejected(.invalidComponent(error, componentOffset: offset))
                        }
                        return .decodersDisagree(component: Array(component))
                    }
                }
                if parts[0].isEmpty { return .rejected(.invalidQuery(offset: start)) }
                if items.contains(where: { $0.name == parts[0] }) { return .rejected(.duplicateName(parts[0])) }
                items.append(DeepLink.QueryItem(name: parts[0], value: parts[1]))
            }
        }
        let lower = scheme.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return .link(
            scheme: String(decoding: lower, as: UTF8.self), host: String(decoding: host, as: UTF8.self), items: items)
    }
}
