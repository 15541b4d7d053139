import PropertyTesting
import ScreenTimeReference

/// Generators of the settings beyond shields (`SPEC.md` §9): domain names that differ by case, `www.`, a subdomain,
/// a look-alike suffix or a trailing dot; filter policies over them; applications by token, bundle identifier or
/// both; restriction values; URLs with user information, ports and paths; and whole ``SettingsScenario``s.
extension Gen where Value == String {
    /// Domain names over a small universe, as app code might write them: the same site in several spellings, a
    /// subdomain, a look-alike (`notexample.com`) and, with `invalid`, a few that are not domain names.
    ///
    /// Example: `"Example.COM"`, `"mail.example.com"`, `"example.com."`.
    package static func settingsDomain(invalid: Bool = false) -> Gen<String> {
        let valid = Gen<String>.element(of: SettingsUniverse.domains)
        guard invalid else { return valid }
        return .frequency([(20, valid), (1, .element(of: SettingsUniverse.invalidDomains))])
    }

    /// A URL over the domain universe: a scheme (rarely one the filter does not read), sometimes user information,
    /// a subdomain, a port, a path, a query or a fragment.
    package static var settingsURL: Gen<String> {
        Gen<(Int, String, Int, Int)>.zip(
            .int(in: 0...9), settingsDomain(), .int(in: 0...5), .int(in: 0...5)
        ).map { scheme, domain, prefix, suffix in
            let schemes = ["https://", "https://", "http://", "HTTPS://", "https://", "http://", "ftp://", "https://"]
            let prefixes = ["", "", "www.", "m.", "user:pass@", "A."]
            let suffixes = ["", "/", "/path?q=1#f", ":8443/", ":", "?x"]
            return schemes[scheme % schemes.count] + prefixes[prefix] + domain + suffixes[suffix]
        }
    }
}

/// The universes the settings generators draw from.
package enum SettingsUniverse {
    package static let domains = [
        "example.com", "www.example.com", "Example.COM", "example.com.", "mail.example.com", "notexample.com",
        "news.example", "school.edu", "casino.example",
    ]
    package static let invalidDomains = ["https://example.com", "exa mple.com", "example..com", "bücher.example"]
    package static let bundles = ["com.example.game", "com.example.Game", "com.example.mail"]
    package static let ratings = [100, 200, 300, 600, 1000]

    /// `count` distinct domains `d0.example` … that no URL of ``Gen/settingsURL`` visits, and `example.com`.
    package static func manyDomains(_ count: Int) -> Set<WebDomain> {
        Set((0..<count - 1).map { WebDomain(domain: "d\($0).example") } + [WebDomain(domain: "example.com")])
    }

    /// `Set(selection.applicationTokens.map { Application(token: $0) })` for a selection of `count` apps, the
    /// scenarios' apps among them.
    package static func selectionOfApplications(_ count: Int) -> Set<Application> {
        Set((0..<count).map { Application(token: TokenUniverse.token($0)) })
    }
}

extension Gen where Value == WebDomain {
    /// A policy's web domain: by name (mostly), by token only (which matches no URL), or both.
    package static func settingsWebDomain(invalid: Bool = false) -> Gen<WebDomain> {
        .frequency([
            (12, Gen<String>.settingsDomain(invalid: invalid).map { WebDomain(domain: $0) }),
            (2, Gen<Int>.int(in: 0...2).map { WebDomain(token: TokenUniverse.token($0)) }),
            (1, Gen<String>.settingsDomain().map { WebDomain(token: TokenUniverse.token(0), domain: $0) }),
        ])
    }
}

extension Gen where Value == WebContentSettings.FilterPolicy {
    /// A filter policy over the domain universe; with `limits`, sometimes one with 48 to 52 domains or exceptions.
    package static func settingsFilterPolicy(invalid: Bool = false, limits: Bool = true) -> Gen<Value> {
        let domains = Gen<WebDomain>.settingsWebDomain(invalid: invalid).set(count: 0...3)
        var choices: [(Int, Gen<Value>)] = [
            (2, .constant(.none)),
            (4, domains.map { .specific($0) }),
            (3, domains.map { .all(except: $0) }),
            (3, domains.zip(domains).map { .auto($0, except: $1) }),
        ]
        if limits {
            choices.append(
                (
                    1,
                    Gen<(Int, Int)>.zip(.int(in: 48...52), .int(in: 0...2)).map { count, kind in
                        let many = SettingsUniverse.manyDomains(count)
                        switch kind {
                        case 0: return .specific(many)
                        case 1: return .all(except: many)
                        default: return .auto(many)
                        }
                    }
                ))
        }
        return .frequency(choices)
    }
}

extension Gen where Value == Application {
    /// An application as `blockedApplications` holds it: by token, by bundle identifier, both, or a display name
    /// only (which names nothing).
    package static var settingsApplication: Gen<Application> {
        let token = Gen<Int>.int(in: 0...4).map { TokenUniverse.token($0, Application.self) }
        let bundle = Gen<String>.element(of: SettingsUniverse.bundles)
        return .frequency([
            (6, token.map { Application(token: $0) }),
            (3, bundle.map { Application(bundleIdentifier: $0) }),
            (2, token.zip(bundle).map { Application(token: $0, bundleIdentifier: $1) }),
            (1, .constant(Application(localizedDisplayName: "Game"))),
        ])
    }
}

extension Gen where Value == SettingsScenario.Change {
    /// One change: a filter policy, `blockedApplications` (sometimes a whole selection of 48 to 52 apps), a
    /// restriction, a shield member, or `clearAllSettings()`; every member sometimes set to `nil`.
    package static func settingsChange(invalid: Bool = false, limits: Bool = true) -> Gen<Value> {
        let appToken = Gen<Int>.int(in: 0...4).map { TokenUniverse.token($0, Application.self) }
        let category = Gen<Int>.int(in: 0...2).map { TokenUniverse.token($0, ActivityCategory.self) }
        var applications: [(Int, Gen<Set<Application>?>)] = [
            (1, .constant(nil)), (6, Gen<Application>.settingsApplication.set(count: 0...3).map { $0 }),
        ]
        if limits {
            applications.append((2, Gen<Int>.int(in: 48...52).map { SettingsUniverse.selectionOfApplications($0) }))
        }
        let restriction = Gen<(Restriction, Int)>.zip(.caseOf(Restriction.self), .int(in: 0...5)).map {
            restriction, pick -> Value in
            if pick == 0 { return .restriction(restriction, nil) }
            if restriction.isInteger { return .restriction(restriction, .integer(SettingsUniverse.ratings[pick - 1])) }
            return .restriction(restriction, .bool(pick % 2 == 1))
        }
        let categoryPolicy = Gen<ShieldSettings.ActivityCategoryPolicy<Application>?>.frequency([
            (1, .constant(nil)),
            (1, .constant(ShieldSettings.ActivityCategoryPolicy<Application>.none)),
            (3, category.set(count: 1...2).zip(appToken.set(count: 0...1)).map { .specific($0, except: $1) }),
            (2, appToken.set(count: 0...2).map { .all(except: $0) }),
        ])
        return .frequency([
            (
                4,
                Gen<WebContentSettings.FilterPolicy>.settingsFilterPolicy(invalid: invalid, limits: limits)
                    .optional(probability: 0.85).map { .filter($0) }
            ),
            (4, Gen<Set<Application>?>.frequency(applications).map { .blockedApplications($0) }),
            (5, restriction),
            (2, appToken.set(count: 0...2).optional().map { .shieldApplications($0) }),
            (2, categoryPolicy.map { .shieldApplicationCategories($0) }),
            (1, .constant(.clearAllSettings)),
        ])
    }
}

extension Gen where Value == SettingsQuery {
    /// Every kind of query: launches of the scenarios' apps (with or without a bundle identifier), removal,
    /// installation, URLs, private browsing and each restriction.
    package static var settingsQuery: Gen<SettingsQuery> {
        let launch = Gen<(Int, Int, Int)>.zip(.int(in: 0...4), .int(in: 0...3), .int(in: 0...2)).map {
            app, bundle, category -> SettingsQuery in
            .launch(
                TokenUniverse.token(app), bundleIdentifier: bundle < 3 ? SettingsUniverse.bundles[bundle] : nil,
                category: TokenUniverse.token(category))
        }
        return .frequency([
            (6, launch),
            (2, .constant(.removal)),
            (1, .constant(.installation)),
            (6, Gen<String>.settingsURL.map { .url($0) }),
            (1, .constant(.privateBrowsing)),
            (3, Gen<Restriction>.caseOf(Restriction.self).map { .setting($0) }),
        ])
    }
}

extension Gen where Value == SettingsScenario {
    /// Zero to six changes over the four stores of ``SettingsScenario/stores``, then a query.
    ///
    /// - Parameters:
    ///   - invalid: also draw policy domains that are not domain names (`invalidWebDomain`).
    ///   - limits: also draw sets of 48 to 52 apps or domains (`limitExceeded` past 50).
    package static func settingsScenario(invalid: Bool = true, limits: Bool = true) -> Gen<SettingsScenario> {
        let step = Gen<(Int, SettingsScenario.Change)>.zip(
            .int(in: 0...(SettingsScenario.stores.count - 1)),
            Gen<SettingsScenario.Change>.settingsChange(invalid: invalid, limits: limits)
        ).map { SettingsScenario.Step(store: $0, change: $1) }
        return Gen<([SettingsScenario.Step], SettingsQuery)>.zip(step.array(count: 0...6), .settingsQuery).map {
            SettingsScenario(steps: $0, query: $1)
        }
    }
}
