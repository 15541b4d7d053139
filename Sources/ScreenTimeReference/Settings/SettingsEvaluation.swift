/// Every settings group of one store, shield included, as evaluation reads it. (Ours.)
public struct StoreSettings: Hashable, Sendable {
    public var store: ManagedSettingsStore.Identity
    public var shield: ShieldSettings
    public var groups: ManagedSettingsGroups

    public init(
        store: ManagedSettingsStore.Identity, shield: ShieldSettings = ShieldSettings(),
        groups: ManagedSettingsGroups = ManagedSettingsGroups()
    ) {
        self.store = store
        self.shield = shield
        self.groups = groups
    }
}

/// Answers a ``SettingsQuery`` over any number of stores (`SPEC.md` §9). (Ours.)
///
/// Rules, in the order they apply (§9.5):
/// 1. **Limits**: a store over a limit of §2 or §9.1 (51 applications, 51 policy domains or exceptions) fails
///    every query with `limitExceeded` (Assumption A6).
/// 2. **Policy domains**: a policy domain that is not a domain name fails every query with `invalidWebDomain`.
/// 3. **Launch**: hidden when any store's `blockedApplications` names the app, and then never shielded; else the
///    shield verdict of ``ShieldEvaluation``; else allowed (§9.2).
/// 4. **Removal, installation, private browsing**: denied when any store denies (§9.2, §9.3).
/// 5. **URL**: blocked when any store's filter blocks the host, else `dependsOnSystemFilter` when any `auto`
///    policy leaves it to iOS's filter, else allowed (§9.3).
/// 6. **Restrictions**: the most restrictive value set (§9.4).
/// The stores responsible are those whose own settings give the verdict; store order never changes an answer.
///
/// ```swift
/// var strict = StoreSettings(store: .named(.init("strict")))
/// strict.groups.application.denyAppRemoval = true
/// try SettingsEvaluation.evaluate(.removal, stores: [strict]).verdict   // .denied
/// ```
public enum SettingsEvaluation {
    /// The answer to `query` over `stores`.
    ///
    /// - Parameters:
    ///   - query: what is asked.
    ///   - stores: every store of the app, in any order (answers list their stores in identity order).
    ///   - isVoid: which tokens are void (revoked, `SPEC.md` §3); none by default.
    /// - Returns: the verdict and the stores responsible.
    /// - Throws: ``ManagedSettingsError``, in the order of `SPEC.md` §9.5.
    public static func evaluate(
        _ query: SettingsQuery, stores: [StoreSettings], isVoid: (TokenIdentity) -> Bool = { _ in false }
    ) throws(ManagedSettingsError) -> SettingsAnswer {
        let stores = stores.sorted { $0.store < $1.store }
        try checkLimits(stores)
        try checkDomains(stores)
        switch query {
        case .launch(let token, let bundleIdentifier, let category):
            return launch(token, bundleIdentifier, category, stores, isVoid)
        case .removal:
            return denial(.denyAppRemoval, stores)
        case .installation:
            return denial(.denyAppInstallation, stores)
        case .privateBrowsing:
            let deniers = stores.filter { store in
                guard let policy = store.groups.webContent.blockedByFilter else { return false }
                return policy != .none
            }
            return SettingsAnswer(verdict: deniers.isEmpty ? .allowed : .denied, stores: deniers.map(\.store))
        case .url(let url):
            guard let host = DomainName.host(ofURL: url) else {
                throw ManagedSettingsError(.invalidURL, detail: url)
            }
            return visit(host, stores)
        case .setting(let restriction):
            return effectiveValue(restriction, stores)
        }
    }

    /// §9.1 limits, store by store: the six shield sets, then `blockedApplications`, the policy's domains, its
    /// exceptions.
    static func checkLimits(_ stores: [StoreSettings]) throws(ManagedSettingsError) {
        for store in stores {
            if let set = store.shield.firstSetOverLimit {
                throw ManagedSettingsError(
                    .limitExceeded, store: store.store,
                    detail: "shield.\(set.rawValue) holds \(store.shield.tokenCount(in: set)) tokens, over 50")
            }
            let applications = store.groups.application.blockedApplications?.count ?? 0
            if applications > ManagedSettingsGroups.maximumApplicationCount {
                throw ManagedSettingsError(
                    .limitExceeded, store: store.store,
                    detail: "application.blockedApplications holds \(applications) applications, over 50")
            }
            guard let policy = store.groups.webContent.blockedByFilter else { continue }
            for (name, set) in [("domains", policy.domains), ("except", policy.exceptions)]
            where set.count > ManagedSettingsGroups.maximumDomainCount {
                throw ManagedSettingsError(
                    .limitExceeded, store: store.store,
                    detail: "webContent.blockedByFilter \(name) holds \(set.count) domains, over 50")
            }
        }
    }

    /// §9.3 policy domains, store by store: the first name that is not a domain name (in code point order).
    static func checkDomains(_ stores: [StoreSettings]) throws(ManagedSettingsError) {
        for store in stores {
            guard let policy = store.groups.webContent.blockedByFilter else { continue }
            let names = (policy.domains.compactMap(\.domain) + policy.exceptions.compactMap(\.domain)).sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
            if let bad = names.first(where: { DomainName($0) == nil }) {
                throw ManagedSettingsError(.invalidWebDomain, store: store.store, detail: bad)
            }
        }
    }

    private static func launch(
        _ token: ApplicationToken, _ bundleIdentifier: String?, _ category: ActivityCategoryToken,
        _ stores: [StoreSettings], _ isVoid: (TokenIdentity) -> Bool
    ) -> SettingsAnswer {
        let hiding = stores.filter { store in
            store.groups.application.blockedApplications?.contains {
                $0.names(token, bundleIdentifier: bundleIdentifier, isVoid: isVoid)
            } == true
        }
        if !hiding.isEmpty { return SettingsAnswer(verdict: .hidden, stores: hiding.map(\.store)) }
        let activity = ShieldActivity.application(token, category: category)
        let matches = stores.map { $0.shield.match(activity, isVoid: isVoid) }
        let kind: ShieldSettings.Match =
            matches.contains(.category) ? .category : matches.contains(.token) ? .token : .nothing
        let responsible = zip(stores, matches).filter { $0.1 == kind }.map(\.0.store)
        switch kind {
        case .category: return SettingsAnswer(verdict: .shielded(.applicationCategory(category)), stores: responsible)
        case .token: return SettingsAnswer(verdict: .shielded(.application), stores: responsible)
        case .nothing: return SettingsAnswer(verdict: .allowed)
        }
    }

    private static func denial(_ restriction: Restriction, _ stores: [StoreSettings]) -> SettingsAnswer {
        let deniers = stores.filter { $0.groups[restriction] == .bool(true) }
        return SettingsAnswer(verdict: deniers.isEmpty ? .allowed : .denied, stores: deniers.map(\.store))
    }

    /// One store's say over a host (§9.3): `nil` for no say.
    static func say(of policy: WebContentSettings.FilterPolicy?, over host: DomainName) -> SettingsVerdict? {
        func covers(_ domains: Set<WebDomain>) -> Bool {
            domains.contains { $0.domain.flatMap(DomainName.init)?.covers(host) == true }
        }
        switch policy {
        case nil, .none?: return nil
        case .specific(let domains)?: return covers(domains) ? .blocked : nil
        case .all(let except)?: return covers(except) ? nil : .blocked
        case .auto(let domains, let except)?:
            if covers(except) { return nil }
            return covers(domains) ? .blocked : .dependsOnSystemFilter
        }
    }

    private static func visit(_ host: DomainName, _ stores: [StoreSettings]) -> SettingsAnswer {
        let says = stores.map { say(of: $0.groups.webContent.blockedByFilter, over: host) }
        for verdict in [SettingsVerdict.blocked, .dependsOnSystemFilter] where says.contains(verdict) {
            return SettingsAnswer(verdict: verdict, stores: zip(stores, says).filter { $0.1 == verdict }.map(\.0.store))
        }
        return SettingsAnswer(verdict: .allowed)
    }

    private static func effectiveValue(_ restriction: Restriction, _ stores: [StoreSettings]) -> SettingsAnswer {
        var effective: RestrictionValue?
        for store in stores {
            guard let value = store.groups[restriction] else { continue }
            if let current = effective, !value.isMoreRestrictive(than: current) { continue }
            effective = value
        }
        guard let effective else { return SettingsAnswer(verdict: .value(nil)) }
        return SettingsAnswer(
            verdict: .value(effective), stores: stores.filter { $0.groups[restriction] == effective }.map(\.store))
    }
}
