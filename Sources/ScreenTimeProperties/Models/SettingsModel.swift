import ScreenTimeReference

/// An independent transcription of `SPEC.md` §9 over a ``SettingsScenario``, used as the oracle of
/// `settings.matches-model`: its own record of each store (the steps replayed as plain values), its own reading of
/// domain names and URL hosts, and the rules of §9.2–§9.5 written out. Shield verdicts come from ``ShieldModel``.
package enum SettingsModel {
    /// What one store holds after the steps: the members the scenarios set.
    struct Store: Equatable {
        var filter: WebContentSettings.FilterPolicy?
        var blocked: Set<Application>?
        var restrictions: [Restriction: RestrictionValue] = [:]
        var shieldApplications: Set<ApplicationToken>?
        var shieldCategories: ShieldSettings.ActivityCategoryPolicy<Application>?

        var shield: ShieldSettings {
            ShieldSettings(applications: shieldApplications, applicationCategories: shieldCategories)
        }
        var isUnset: Bool { self == Store() }
    }

    /// The model's answer: a verdict's wire name, the value of a restriction, the stores responsible, or an error.
    package enum Answer: Equatable, CustomStringConvertible {
        case verdict(String, stores: [ManagedSettingsStore.Identity])
        case error(ManagedSettingsError.Code)

        package var description: String {
            switch self {
            case .verdict(let verdict, let stores): return "\(verdict) by \(stores.map(\.description))"
            case .error(let code): return "error \(code.rawValue)"
            }
        }
    }

    /// The stores after `steps`, by index into ``SettingsScenario/stores``; `clearAllSettings()` empties one.
    static func stores(_ steps: [SettingsScenario.Step]) -> [Int: Store] {
        var stores: [Int: Store] = [:]
        for step in steps {
            var store = stores[step.store] ?? Store()
            switch step.change {
            case .filter(let policy): store.filter = policy
            case .blockedApplications(let apps): store.blocked = apps
            case .restriction(let restriction, let value):
                // A value of the other kind is ignored (`ManagedSettingsGroups` subscript): the generators never
                // draw one, so this is only the plain assignment.
                store.restrictions[restriction] = value
            case .shieldApplications(let tokens): store.shieldApplications = tokens
            case .shieldApplicationCategories(let policy): store.shieldCategories = policy
            case .clearAllSettings: store = Store()
            }
            stores[step.store] = store
        }
        return stores
    }

    /// §9.3 domain names: ASCII letters lower-cased, one trailing dot dropped, labels of 1…63 of `a-z0-9-` not
    /// starting or ending with `-`, 253 characters at most.
    package static func domainName(_ text: String) -> String? {
        var name = String(
            text.unicodeScalars.map { ("A"..."Z").contains($0) ? Character(String($0).lowercased()) : Character($0) })
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.allSatisfy(allowed.contains), label.first != "-",
                label.last != "-"
            else { return nil }
        }
        return name
    }

    /// §9.3 a URL's host: `http`/`https` in any case, the authority up to `/`, `?`, `#`; user information up to
    /// the last `@` and a `:digits` port dropped; the rest a domain name.
    package static func host(_ url: String) -> String? {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = url.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = url.dropFirst(7)
        } else {
            return nil
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let colon = authority.lastIndex(of: ":"),
            authority[authority.index(after: colon)...].allSatisfy({ ("0"..."9").contains($0) })
        {
            authority = authority[..<colon]
        }
        return domainName(String(authority))
    }

    /// §9.3 matching: `d` covers `h` when `h` is `d` or ends with `.d`.
    package static func covers(_ domain: String, _ host: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }

    /// The model's answer to `scenario`.
    package static func answer(_ scenario: SettingsScenario) -> Answer {
        let record = stores(scenario.steps)
        // Stores that hold nothing have no say and are not listed; the rest in identity order.
        let stores = record.sorted { $0.key < $1.key }.filter { !$0.value.isUnset }.map {
            (SettingsScenario.stores[$0.key], $0.value)
        }
        // §9.5: limits (shield, then blockedApplications, then D, then E), then policy domains, then the query.
        for (_, store) in stores {
            if ShieldModel.overLimit(store.shield) { return .error(.limitExceeded) }
            if Set(store.blocked ?? []).count > 50 { return .error(.limitExceeded) }
            if (store.filter?.domains.count ?? 0) > 50 || (store.filter?.exceptions.count ?? 0) > 50 {
                return .error(.limitExceeded)
            }
        }
        for (_, store) in stores {
            for domain in (store.filter?.domains ?? []).union(store.filter?.exceptions ?? []) {
                if let name = domain.domain, domainName(name) == nil { return .error(.invalidWebDomain) }
            }
        }
        switch scenario.query {
        case .launch(let app, let bundle, let category):
            let hiding = stores.filter { _, store in
                (store.blocked ?? []).contains { a in
                    (a.token != nil && a.token == app) || (a.bundleIdentifier != nil && a.bundleIdentifier == bundle)
                }
            }
            if !hiding.isEmpty { return .verdict("hidden", stores: hiding.map(\.0)) }
            let activity = ShieldActivity.application(app, category: category)
            switch ShieldModel.verdict(stores.map(\.1.shield), activity) {
            case .shielded(let reason)?:
                let reasonKind = stores.map { ShieldModel.match($0.1.shield, activity) }.max() ?? .nothing
                return .verdict(
                    "shielded \(reason)",
                    stores: stores.filter { ShieldModel.match($0.1.shield, activity) == reasonKind }.map(\.0))
            default: return .verdict("allowed", stores: [])
            }
        case .removal, .installation:
            let member: Restriction = scenario.query == .removal ? .denyAppRemoval : .denyAppInstallation
            let deniers = stores.filter { $0.1.restrictions[member] == .bool(true) }.map(\.0)
            return .verdict(deniers.isEmpty ? "allowed" : "denied", stores: deniers)
        case .privateBrowsing:
            let deniers = stores.filter { $0.1.filter != nil && $0.1.filter != WebContentSettings.FilterPolicy.none }
            return .verdict(deniers.isEmpty ? "allowed" : "denied", stores: deniers.map(\.0))
        case .url(let url):
            guard let host = host(url) else { return .error(.invalidURL) }
            var blocking: [ManagedSettingsStore.Identity] = []
            var deferring: [ManagedSettingsStore.Identity] = []
            for (identity, store) in stores {
                func matches(_ domains: Set<WebDomain>) -> Bool {
                    domains.contains { d in d.domain.flatMap(domainName).map { covers($0, host) } ?? false }
                }
                switch store.filter {
                case nil, .none?: continue
                case .specific(let d)?: if matches(d) { blocking.append(identity) }
                case .all(let e)?: if !matches(e) { blocking.append(identity) }
                case .auto(let d, let e)?:
                    if matches(e) { continue }
                    if matches(d) { blocking.append(identity) } else { deferring.append(identity) }
                }
            }
            if !blocking.isEmpty { return .verdict("blocked", stores: blocking) }
            if !deferring.isEmpty { return .verdict("dependsOnSystemFilter", stores: deferring) }
            return .verdict("allowed", stores: [])
        case .setting(let restriction):
            let values = stores.compactMap { identity, store in store.restrictions[restriction].map { (identity, $0) } }
            var best: RestrictionValue?
            for (_, value) in values {
                switch (best, value) {
                case (nil, _): best = value
                case (.bool(let a)?, .bool(let b)): best = .bool(a || b)
                case (.integer(let a)?, .integer(let b)): best = .integer(Swift.min(a, b))
                default: break
                }
            }
            guard let best else { return .verdict("value nil", stores: []) }
            return .verdict("value \(best)", stores: values.filter { $0.1 == best }.map(\.0))
        }
    }

    /// The reference's answer in the model's terms.
    package static func answer(_ result: Result<SettingsAnswer, ManagedSettingsError>) -> Answer {
        switch result {
        case .failure(let error): return .error(error.code)
        case .success(let answer):
            switch answer.verdict {
            case .value(let value): return .verdict("value \(value.map { "\($0)" } ?? "nil")", stores: answer.stores)
            case .shielded(let reason): return .verdict("shielded \(reason)", stores: answer.stores)
            default: return .verdict(answer.verdict.name, stores: answer.stores)
            }
        }
    }
}
