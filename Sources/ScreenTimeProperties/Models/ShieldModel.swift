import ScreenTimeReference

/// An independent transcription of `SPEC.md` §2 (no void tokens), used as the oracle.
public enum ShieldModel {
    public enum Match: Int, Comparable, Sendable {
        case nothing = 0
        case token = 1
        case category = 2
        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    static func policyShields<M>(
        _ policy: ShieldSettings.ActivityCategoryPolicy<M>?, _ token: Token<M>, _ category: ActivityCategoryToken
    ) -> Bool {
        switch policy {
        case nil, .some(.none): return false
        case .some(.all(let except)): return !except.contains(token)
        case .some(.specific(let cats, let except)): return cats.contains(category) && !except.contains(token)
        }
    }

    public static func match(_ s: ShieldSettings, _ activity: ShieldActivity) -> Match {
        switch activity {
        case .application(let t, let c):
            if policyShields(s.applicationCategories, t, c) { return .category }
            return (s.applications ?? []).contains(t) ? .token : .nothing
        case .webDomain(let t, let c):
            if policyShields(s.webDomainCategories, t, c) { return .category }
            return (s.webDomains ?? []).contains(t) ? .token : .nothing
        }
    }

    static func overLimit(_ s: ShieldSettings) -> Bool {
        (s.applications?.count ?? 0) > 50 || (s.webDomains?.count ?? 0) > 50
            || (s.applicationCategories?.categories.count ?? 0) > 50
            || (s.applicationCategories?.exceptions.count ?? 0) > 50
            || (s.webDomainCategories?.categories.count ?? 0) > 50
            || (s.webDomainCategories?.exceptions.count ?? 0) > 50
    }

    /// The verdict `SPEC.md` §2 requires; `nil` for limitExceeded.
    public static func verdict(_ stores: [ShieldSettings], _ activity: ShieldActivity) -> ShieldVerdict? {
        if stores.contains(where: overLimit) { return nil }
        var best = Match.nothing
        for store in stores { best = Swift.max(best, match(store, activity)) }
        switch (best, activity) {
        case (.nothing, _): return .allowed
        case (.token, .application): return .shielded(.application)
        case (.token, .webDomain): return .shielded(.webDomain)
        case (.category, .application(_, let c)): return .shielded(.applicationCategory(c))
        case (.category, .webDomain(_, let c)): return .shielded(.webDomainCategory(c))
        }
    }
}
