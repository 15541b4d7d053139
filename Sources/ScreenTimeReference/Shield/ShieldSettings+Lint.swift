/// One problem lint finds in a store's shield settings. (Ours.)
///
/// Two kinds (`SPEC.md` §2 and §3): a limited set over 50 tokens (evaluation would fail with
/// ``ShieldLimitExceeded``), and a void token (minted under a revoked grant: it shields nothing, so the app
/// believes it blocks something it does not).
///
/// ```swift
/// environment.lintShields()
/// // [ShieldLintFinding(store: .named(Name("focus")), set: .applications, problem: .overLimit(count: 51))]
/// ```
public struct ShieldLintFinding: Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// The set holds `count` tokens, more than ``ShieldSettings/maximumTokenCount``.
        case overLimit(count: Int)
        /// The set holds this void token.
        case voidToken(TokenIdentity)
    }

    /// The store, or `nil` when linting bare ``ShieldSettings``.
    public var store: ManagedSettingsStore.Identity?
    /// Where the problem is.
    public var set: ShieldSettings.LimitedSet
    public var problem: Problem

    public init(store: ManagedSettingsStore.Identity?, set: ShieldSettings.LimitedSet, problem: Problem) {
        self.store = store
        self.set = set
        self.problem = problem
    }

    public var description: String {
        let location = store.map { "\($0)." } ?? ""
        switch problem {
        case .overLimit(let count):
            return "\(location)\(set.rawValue): \(count) tokens, over the limit of \(ShieldSettings.maximumTokenCount)"
        case .voidToken(let token):
            return "\(location)\(set.rawValue): void token \(token)"
        }
    }
}

extension ShieldSettings {
    /// Every problem in these settings: sets over the limit first (in ``LimitedSet`` order), then void tokens
    /// (by set, then in stable token order). (Ours.)
    ///
    /// Example: settings with 51 `applications`, one of them void, give `[.overLimit(count: 51)` on
    /// `applications`, `.voidToken(…)` on `applications]`.
    public func lint(
        store: ManagedSettingsStore.Identity? = nil, isVoid: (TokenIdentity) -> Bool = { _ in false }
    ) -> [ShieldLintFinding] {
        var findings = setsOverLimit.map {
            ShieldLintFinding(store: store, set: $0, problem: .overLimit(count: tokenCount(in: $0)))
        }
        for set in LimitedSet.allCases {
            for token in tokens(in: set).sorted() where isVoid(token) {
                findings.append(ShieldLintFinding(store: store, set: set, problem: .voidToken(token)))
            }
        }
        return findings
    }

    /// The tokens held in `set`, as identities. (Ours.)
    public func tokens(in set: LimitedSet) -> [TokenIdentity] {
        switch set {
        case .applications: return (applications ?? []).map(TokenIdentity.init)
        case .applicationCategories: return (applicationCategories?.categories ?? []).map(TokenIdentity.init)
        case .applicationCategoryExceptions: return (applicationCategories?.exceptions ?? []).map(TokenIdentity.init)
        case .webDomains: return (webDomains ?? []).map(TokenIdentity.init)
        case .webDomainCategories: return (webDomainCategories?.categories ?? []).map(TokenIdentity.init)
        case .webDomainCategoryExceptions: return (webDomainCategories?.exceptions ?? []).map(TokenIdentity.init)
        }
    }
}
