import Conformance
import PropertyTesting
import ScreenTimeReference
import StrictJSON

/// Inputs of `settings.evaluate` (`SPEC.md` §9, §5.2): steps over a few stores (the unnamed one and three names)
/// that assign every member of §9.1, filter policies over a small universe of domains that differ by case, `www.`,
/// a subdomain or a trailing dot (and a few that are not domain names), `blockedApplications` of 48 to 52 apps
/// made from a selection's tokens, `clearAllSettings` steps, and every kind of query, URLs built over the same
/// domains with user information, ports and paths; sometimes a member of the wrong type or an unknown name, for the
/// wire's `badInput`.
enum SettingsInputs {
    static let operations = [evaluate]

    /// The order of `settings.evaluate`'s checks (`SPEC.md` §9.5): the wire first, then limits, policy domains,
    /// the URL.
    static let errorOrder = ["badInput", "limitExceeded", "invalidWebDomain", "invalidURL"]

    static let evaluate = ExploredOperation(
        name: "settings.evaluate",
        input: Gen<JSONValue>.frequency([
            (30, request),
            (1, request.zip(corruption).map { ActivityInputs.corrupt($0, $1) }),
        ]),
        errorOrder: errorOrder)

    // MARK: Universes

    static let storeNames: [JSONValue] = [.null, "focus", "strict", "school"]
    static let domains = [
        "example.com", "www.example.com", "Example.COM", "example.com.", "mail.example.com", "notexample.com",
        "news.example", "school.edu", "casino.example",
    ]
    static let invalidDomains = ["https://example.com", "exa mple.com", "example..com", "bücher.example"]
    static let bundles = ["com.example.game", "com.example.Game", "com.example.mail"]
    static let ratings = [100, 200, 300, 600, 1000]

    static let appID = Gen<Int>.int(in: 0...4).map { JSONValue.string("app\($0)") }
    static let categoryID = Gen<Int>.int(in: 0...2).map { JSONValue.string("cat\($0)") }

    // MARK: Members

    /// A web domain as the wire writes it: a string, or an object with a domain, a token or both.
    static let webDomain: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (12, Gen<String>.element(of: domains).map { .string($0) }),
        (4, Gen<String>.element(of: domains).map { ["domain": .string($0)] }),
        (2, Gen<Int>.int(in: 0...2).map { ["token": .string("web\($0)")] }),
        (1, Gen<String>.element(of: domains).map { ["token": "web0", "domain": .string($0)] }),
        (1, Gen<String>.element(of: invalidDomains).map { .string($0) }),
    ])

    static let webDomains = webDomain.array(count: 0...3).map { JSONValue.array($0) }

    /// 48 to 52 distinct domains: the limit is 50 (`SPEC.md` §9.1).
    static let manyDomains = Gen<Int>.int(in: 48...52).map { count in
        JSONValue.array((0..<count).map { .string("d\($0).example") } + ["example.com"])
    }

    static let filterPolicy: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (2, .constant(.null)),
        (2, .constant(["policy": "none"])),
        (4, webDomains.map { ["policy": "specific", "domains": $0] }),
        (3, webDomains.map { ["policy": "all", "except": $0] }),
        (
            3,
            Gen<(JSONValue, JSONValue)>.zip(webDomains, webDomains).map {
                ["policy": "auto", "domains": $0, "except": $1]
            }
        ),
        (
            1,
            manyDomains.zip(Gen<Int>.int(in: 0...2)).map { list, kind in
                switch kind {
                case 0: return ["policy": "specific", "domains": list]
                case 1: return ["policy": "all", "except": list]
                default: return ["policy": "auto", "domains": list]
                }
            }
        ),
    ])

    /// An application as `blockedApplications` holds it: by token, by bundle identifier, both, or a display name
    /// only (which names nothing).
    static let application: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (6, appID.map { ["token": $0] }),
        (3, Gen<String>.element(of: bundles).map { ["bundleIdentifier": .string($0)] }),
        (2, appID.zip(Gen<String>.element(of: bundles)).map { ["token": $0, "bundleIdentifier": .string($1)] }),
        (1, .constant(["localizedDisplayName": "Game"])),
    ])

    /// `Set(selection.applicationTokens.map { Application(token: $0) })` for a picked selection of 48 to 52 apps,
    /// the queried apps among them (field bug 21, `SPEC.md` §7.21).
    static let selectionOfApplications = Gen<Int>.int(in: 48...52).map { count in
        JSONValue.array((0..<count).map { ["token": .string("app\($0)")] })
    }

    static let blockedApplications: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (1, .constant(.null)),
        (6, application.array(count: 0...3).map { .array($0) }),
        (2, selectionOfApplications),
    ])

    static let shieldPolicy: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (1, .constant(.null)),
        (1, .constant(["policy": "none"])),
        (3, categoryID.array(count: 1...2).map { ["policy": "specific", "categories": .array($0)] }),
        (2, appID.array(count: 0...2).map { ["policy": "all", "except": .array($0)] }),
    ])

    static let restrictionValue: Gen<(String, JSONValue)> = Gen<Restriction>.element(of: Restriction.allCases)
        .zip(Gen<Int>.int(in: 0...5))
        .map { restriction, pick in
            if pick == 0 { return (restriction.rawValue, .null) }
            if restriction.isInteger { return (restriction.rawValue, .number(Double(ratings[pick - 1]))) }
            return (restriction.rawValue, .bool(pick % 2 == 1))
        }

    /// One member of `SPEC.md` §9.1 (or a `shield.*` one) and its value.
    static let member: Gen<(String, JSONValue)> = Gen<(String, JSONValue)>.frequency([
        (3, filterPolicy.map { ("webContent.blockedByFilter", $0) }),
        (3, blockedApplications.map { ("application.blockedApplications", $0) }),
        (4, restrictionValue),
        (2, appID.array(count: 0...2).map { ("shield.applications", .array($0)) }),
        (2, shieldPolicy.map { ("shield.applicationCategories", $0) }),
    ])

    // MARK: Steps and queries

    static let step: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (
            5,
            Gen<(JSONValue, [(String, JSONValue)])>.zip(Gen.element(of: storeNames), member.array(count: 1...4))
                .map { store, members in
                    var object: [String: JSONValue] = [:]
                    for (name, value) in members { object[name] = value }
                    return ["store": store, "do": "assign", "members": .object(object)]
                }
        ),
        (1, Gen<JSONValue>.element(of: storeNames).map { ["store": $0, "do": "clearAllSettings"] }),
    ])

    /// A URL over the domain universe: a scheme (rarely not http/https), user information, a subdomain, a port
    /// and a path, each sometimes.
    static let url: Gen<JSONValue> = Gen<(Int, Int, Int, Int)>.zip(
        Gen<Int>.int(in: 0...9), Gen<Int>.int(in: 0...(domains.count - 1)), Gen<Int>.int(in: 0...5),
        Gen<Int>.int(in: 0...5)
    ).map { scheme, domain, prefix, suffix in
        let schemes = [
            "https://", "https://", "http://", "HTTPS://", "https://", "http://", "https://", "ftp://",
            "https://", "https://",
        ]
        let prefixes = ["", "", "www.", "m.", "user:pass@", "A."]
        let suffixes = ["", "/", "/path?q=1#f", ":8443/", ":", "?x"]
        return .string(schemes[scheme] + prefixes[prefix] + domains[domain] + suffixes[suffix])
    }

    static let query: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (
            6,
            Gen<(JSONValue, Int, JSONValue)>.zip(appID, Gen<Int>.int(in: 0...3), categoryID).map {
                app, bundle, category in
                var object: [String: JSONValue] = ["kind": "launch", "application": app, "category": category]
                if bundle < bundles.count { object["bundleIdentifier"] = .string(bundles[bundle]) }
                return .object(object)
            }
        ),
        (2, .constant(["kind": "removal"])),
        (1, .constant(["kind": "installation"])),
        (6, url.map { ["kind": "url", "url": $0] }),
        (1, .constant(["kind": "privateBrowsing"])),
        (
            2,
            Gen<Restriction>.element(of: Restriction.allCases).map {
                ["kind": "setting", "name": .string($0.rawValue)]
            }
        ),
    ])

    static let request: Gen<JSONValue> = Gen<(JSONValue, [JSONValue])>.zip(query, step.array(count: 0...6))
        .map { query, steps in ["steps": .array(steps), "query": query] }

    /// What to spoil in a request (see ``ActivityInputs/corrupt(_:_:)``): a scalar replaced by one of these.
    static let corruption = Gen<Int>.int(in: 0...40).zip(
        Gen<JSONValue>.element(of: ["9", 9.5, .null, .bool(true), "shield.unknown", "delete", [], [:], "auto"]))
}
