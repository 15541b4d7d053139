extension ShieldSettings {
    /// The most tokens any one limited set may hold: 50. Source: Apple doc (ShieldSettings).
    public static var maximumTokenCount: Int { 50 }

    /// One of the six token sets of a store that Apple's 50-token limit applies to. (Ours.)
    ///
    /// The limit covers `applications`, `webDomains`, a policy's category set and a policy's `except` set;
    /// with two policies that makes six places.
    public enum LimitedSet: String, Hashable, Sendable, CaseIterable, Comparable {
        case applications
        case applicationCategories
        case applicationCategoryExceptions
        case webDomains
        case webDomainCategories
        case webDomainCategoryExceptions

        public static func < (lhs: LimitedSet, rhs: LimitedSet) -> Bool {
            let order = allCases
            return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
        }
    }

    /// How many distinct tokens `set` holds as assigned (void tokens included: iOS still holds them). (Ours.)
    public func tokenCount(in set: LimitedSet) -> Int {
        switch set {
        case .applications: return applications?.count ?? 0
        case .applicationCategories: return applicationCategories?.categories.count ?? 0
        case .applicationCategoryExceptions: return applicationCategories?.exceptions.count ?? 0
        case .webDomains: return webDomains?.count ?? 0
        case .webDomainCategories: return webDomainCategories?.categories.count ?? 0
        case .webDomainCategoryExceptions: return webDomainCategories?.exceptions.count ?? 0
        }
    }

    /// The limited sets holding more than ``maximumTokenCount`` tokens, in ``LimitedSet`` order. (Ours.)
    ///
    /// Rule: a set over 50 makes every evaluation over this store fail with ``ShieldLimitExceeded``.
    /// Assumption: iOS's own behaviour past 50 is undocumented; the reference keeps what was assigned and
    /// refuses to evaluate, so that an app that goes over the limit is told instead of silently half-shielded.
    /// Example: 51 applications → `[.applications]`; 50 → `[]`.
    public var setsOverLimit: [LimitedSet] {
        LimitedSet.allCases.filter { tokenCount(in: $0) > Self.maximumTokenCount }
    }

    /// The first of ``setsOverLimit``, or `nil`: what evaluation checks, without building the array
    /// (evaluation runs once per store per verdict). (Ours.)
    ///
    /// Written out in ``LimitedSet`` order rather than as a search of `allCases`, which makes a new array on every
    /// call (an allocation per store per verdict, the costliest thing under the fuzzers' ASan).
    var firstSetOverLimit: LimitedSet? {
        let limit = Self.maximumTokenCount
        if (applications?.count ?? 0) > limit { return .applications }
        // Counted in place (`counts`), not through a copy of the policy: every verdict checks the limits first.
        if let counts = applicationCategories?.counts {
            if counts.categories > limit { return .applicationCategories }
            if counts.exceptions > limit { return .applicationCategoryExceptions }
        }
        if (webDomains?.count ?? 0) > limit { return .webDomains }
        if let counts = webDomainCategories?.counts {
            if counts.categories > limit { return .webDomainCategories }
            if counts.exceptions > limit { return .webDomainCategoryExceptions }
        }
        return nil
    }
}

extension ShieldSettings.ActivityCategoryPolicy {
    /// How many categories and exceptions the policy names: `categories.count` and `exceptions.count` without
    /// making either set.
    var counts: (categories: Int, exceptions: Int) {
        switch self {
        case .all(let except): return (0, except.count)
        case .specific(let categories, let except): return (categories.count, except.count)
        case .none: return (0, 0)
        }
    }
}

/// Evaluation refused because a store holds more than 50 tokens in one limited set.
///
/// Error code `limitExceeded` in the vector format (`SPEC.md` §5).
/// Assumption: iOS's behaviour past the documented limit of 50 is undocumented (`SPEC.md` §2).
/// Example: a store with 51 `applications` makes every `evaluate` throw, whatever the activity.
public struct ShieldLimitExceeded: Error, Hashable, Sendable, CustomStringConvertible {
    /// Position of the first offending store in the evaluated list.
    public var storeIndex: Int
    /// The first offending set of that store.
    public var set: ShieldSettings.LimitedSet
    /// How many tokens that set holds.
    public var count: Int
    /// The store's identity, when evaluation ran over a ``ScreenTimeEnvironment``.
    public var store: ManagedSettingsStore.Identity?

    public init(
        storeIndex: Int, set: ShieldSettings.LimitedSet, count: Int, store: ManagedSettingsStore.Identity? = nil
    ) {
        self.storeIndex = storeIndex
        self.set = set
        self.count = count
        self.store = store
    }

    public var description: String {
        "limitExceeded: store \(store.map { "\($0)" } ?? "#\(storeIndex)") holds \(count) tokens in \(set.rawValue), over \(ShieldSettings.maximumTokenCount)"
    }
}
