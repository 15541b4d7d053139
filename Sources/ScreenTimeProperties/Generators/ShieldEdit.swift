import ScreenTimeReference

/// One change to a store's settings, for the monotonicity properties.
public enum ShieldEdit: Sendable, Hashable, CustomStringConvertible {
    case addApplication(ApplicationToken)
    case addWebDomain(WebDomainToken)
    case addApplicationCategory(ActivityCategoryToken)
    case addWebDomainCategory(ActivityCategoryToken)
    case addApplicationException(ApplicationToken)
    case addWebDomainException(WebDomainToken)

    /// Whether the edit may only add shields (token lists and category sets) rather than exempt (except).
    public var isShielding: Bool {
        switch self {
        case .addApplication, .addWebDomain, .addApplicationCategory, .addWebDomainCategory: return true
        case .addApplicationException, .addWebDomainException: return false
        }
    }

    public var description: String {
        switch self {
        case .addApplication(let t): return "add \(TokenUniverse.label(t)) to applications"
        case .addWebDomain(let t): return "add \(TokenUniverse.label(t)) to webDomains"
        case .addApplicationCategory(let t): return "add \(TokenUniverse.label(t)) to applicationCategories"
        case .addWebDomainCategory(let t): return "add \(TokenUniverse.label(t)) to webDomainCategories"
        case .addApplicationException(let t): return "add \(TokenUniverse.label(t)) to applicationCategories.except"
        case .addWebDomainException(let t): return "add \(TokenUniverse.label(t)) to webDomainCategories.except"
        }
    }

    /// Applies the edit. Adding a category to a `nil`/`.none` policy makes it `.specific([c])`; adding an
    /// exception to a `nil`/`.none` policy leaves it alone (there is nothing to exempt from).
    public func apply(to settings: inout ShieldSettings) {
        switch self {
        case .addApplication(let t): settings.applications = Self.inserting(t, into: settings.applications)
        case .addWebDomain(let t): settings.webDomains = Self.inserting(t, into: settings.webDomains)
        case .addApplicationCategory(let c):
            settings.applicationCategories = Self.addCategory(c, to: settings.applicationCategories)
        case .addWebDomainCategory(let c):
            settings.webDomainCategories = Self.addCategory(c, to: settings.webDomainCategories)
        case .addApplicationException(let t):
            settings.applicationCategories = Self.addException(t, to: settings.applicationCategories)
        case .addWebDomainException(let t):
            settings.webDomainCategories = Self.addException(t, to: settings.webDomainCategories)
        }
    }

    static func addCategory<M>(_ c: ActivityCategoryToken, to policy: ShieldSettings.ActivityCategoryPolicy<M>?)
        -> ShieldSettings.ActivityCategoryPolicy<M>?
    {
        switch policy {
        case nil, .some(.none): return .specific([c])
        case .some(.all(let except)): return .all(except: except)
        case .some(.specific(let cats, let except)): return .specific(inserting(c, into: cats), except: except)
        }
    }

    static func addException<M>(_ t: Token<M>, to policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> ShieldSettings
        .ActivityCategoryPolicy<M>?
    {
        switch policy {
        case nil, .some(.none): return policy
        case .some(.all(let except)): return .all(except: inserting(t, into: except))
        case .some(.specific(let cats, let except)): return .specific(cats, except: inserting(t, into: except))
        }
    }

    /// `(set ?? []).union([token])`, without the one-element array and second set.
    static func inserting<K>(_ token: Token<K>, into set: Set<Token<K>>?) -> Set<Token<K>> {
        var set = set ?? []
        set.insert(token)
        return set
    }
}
