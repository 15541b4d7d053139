import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
    struct LinkCase: Sendable, CustomStringConvertible {
        var scheme: String
        var host: String
        var items: [(String, String?)]
        var description: String {
            "scheme \(scheme), host \(host), items \(items.map { "\(String(reflecting: $0.0))=\($0.1.map { String(reflecting: $0) } ?? "nil")" })"
        }
    }

    public static func deeplinkRoundTrip() -> Property {
        let gen = Gen<LinkCase> { source in
            let scheme = "m" + Gen<String>.string(Alphabet("abcXYZ019+-."), length: 0...5).generate(using: source)
            let host = Gen<String>.string(Alphabet("openABC09-._~"), length: 1...6).generate(using: source)
            let names = Gen<String>.oneOf(
                Gen<String>.element(of: ["app", "from", "category"]), Gen<String>.appName.filter { !$0.isEmpty })
            var items: [(String, String?)] = []
            for _ in 0..<Gen<Int>.int(in: 0...3).generate(using: source) {
                let name = names.generate(using: source)
                if items.contains(where: { $0.0 == name }) { continue }
                items.append((name, Gen<String>.appName.optional(probability: 0.8).generate(using: source)))
            }
            return LinkCase(scheme: scheme, host: host, items: items)
        }
        return Property(
            "deeplink.round-trip",
            summary:
                "parse(build(link)) gives back scheme (lower-cased), host and every non-nil item; nil items are left out (§4)",
            gen, describe: { $0.description }
        ) { c in
            let pairs = KeyValuePairs<String, String?>.init(dictionaryLiteral: ("", nil))
            _ = pairs
            let link: DeepLink
            do {
                link = try DeepLink(
                    scheme: c.scheme, host: c.host,
                    queryItems: c.items.reduce(into: KeyValuePairsBuilder()) { $0.append($1) }.pairs)
            } catch { return "builder refused: \(error)" }
            let text = link.absoluteString
            let parsed: DeepLink
            do { parsed = try DeepLink(parsing: text) } catch { return "\(text) does not parse: \(error)" }
            if parsed.scheme != c.scheme.lowercased() || parsed.host != c.host {
                return "\(text) parsed as \(parsed.scheme)://\(parsed.host)"
            }
            let expected = c.items.compactMap { item in item.1.map { DeepLink.QueryItem(name: item.0, value: $0) } }
            if parsed.queryItems != expected { return "\(text) parsed items \(parsed.queryItems)" }
            for (name, value) in c.items where parsed.value(forName: name) != value {
                return "value(forName: \(name)) = \(String(describing: parsed.value(forName: name)))"
            }
            return nil
        }
    }

    static var deepLinkProperties: [Property] { [deeplinkRoundTrip()] }
}

/// Builds `KeyValuePairs` from a runtime list (the type only has a literal initializer).
struct KeyValuePairsBuilder {
    var items: [(String, String?)] = []
    mutating func append(_ item: (String, String?)) { items.append(item) }
    var pairs: KeyValuePairs<String, String?> {
        // KeyValuePairs can only be made from a literal; build the common sizes explicitly.
        switch items.count {
        case 0: return [:]
        case 1: return [items[0].0: items[0].1]
        case 2: return [items[0].0: items[0].1, items[1].0: items[1].1]
        default: return [items[0].0: items[0].1, items[1].0: items[1].1, items[2].0: items[2].1]
        }
    }
}
