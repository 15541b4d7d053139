import PropertyTesting
import ScreenTimeReference

// Stores, policies and activities over small token universes (4 apps, 3 categories, 4 web domains by default),
// so that an activity's token and category often appear in the settings and shrunk counterexamples read as
// `app0`, `cat1`, `web2`.

/// The sizes of the token universes shield generators draw from.
public struct ShieldUniverse: Sendable, Hashable {
    public var applications: Int
    public var categories: Int
    public var webDomains: Int
    public init(applications: Int = 4, categories: Int = 3, webDomains: Int = 4) {
        self.applications = applications
        self.categories = categories
        self.webDomains = webDomains
    }
    public static let small = ShieldUniverse()
}

extension Gen {
    /// A category policy: `nil` first, then `.none`, `.all(except:)`, `.specific(_, except:)`.
    public static func categoryPolicy<Member: TokenKind>(
        _ member: Member.Type, _ universe: ShieldUniverse, members: Int
    ) -> Gen<ShieldSettings.ActivityCategoryPolicy<Member>?> where Value == ShieldSettings.ActivityCategoryPolicy<Member>? {
        let except = Gen<Set<Token<Member>>>.universeTokens(Member.self, universe: members, count: 0...3)
        let categories = Gen<Set<ActivityCategoryToken>>.universeTokens(ActivityCategory.self, universe: universe.categories, count: 0...3)
        return Gen.oneOf(
            Gen.constant(nil),
            Gen.constant(ShieldSettings.ActivityCategoryPolicy<Member>.none),
            except.map { .all(except: $0) },
            Gen<(Set<ActivityCategoryToken>, Set<Token<Member>>)>.zip(categories, except).map { .specific($0.0, except: $0.1) }
        )
    }
}

extension Gen where Value == ShieldSettings {
    /// One store's settings: each member `nil`, empty or a few universe tokens.
    public static func shieldSettings(_ universe: ShieldUniverse = .small) -> Gen<ShieldSettings> {
        let apps = Gen<Set<ApplicationToken>>.universeTokens(Application.self, universe: universe.applications, count: 0...3).optional(probability: 0.7)
        let webs = Gen<Set<WebDomainToken>>.universeTokens(WebDomain.self, universe: universe.webDomains, count: 0...3).optional(probability: 0.7)
        let appPolicy = Gen<ShieldSettings.ActivityCategoryPolicy<Application>?>.categoryPolicy(Application.self, universe, members: universe.applications)
        let webPolicy = Gen<ShieldSettings.ActivityCategoryPolicy<WebDomain>?>.categoryPolicy(WebDomain.self, universe, members: universe.webDomains)
        return Gen { source in
            ShieldSettings(
                applications: apps.generate(using: source),
                applicationCategories: appPolicy.generate(using: source),
                webDomains: webs.generate(using: source),
                webDomainCategories: webPolicy.generate(using: source))
        }
    }
}

extension Gen where Value == ShieldActivity {
    /// An app launch or a web visit, with its category.
    public static func shieldActivity(_ universe: ShieldUniverse = .small) -> Gen<ShieldActivity> {
        let category = Gen<ActivityCategoryToken>.universeToken(ActivityCategory.self, universe: universe.categories)
        return Gen.oneOf(
            Gen<(ApplicationToken, ActivityCategoryToken)>.zip(
                Gen<ApplicationToken>.universeToken(Application.self, universe: universe.applications), category
            ).map { ShieldActivity.application($0.0, category: $0.1) },
            Gen<(WebDomainToken, ActivityCategoryToken)>.zip(
                Gen<WebDomainToken>.universeToken(WebDomain.self, universe: universe.webDomains), category
            ).map { ShieldActivity.webDomain($0.0, category: $0.1) }
        )
    }
}

/// Several stores and one activity.
public struct ShieldScenario: Sendable, CustomStringConvertible {
    public init(stores: [ShieldSettings], activity: ShieldActivity) {
        self.stores = stores
        self.activity = activity
    }
    public var stores: [ShieldSettings]
    public var activity: ShieldActivity
    public var description: String {
        let stores = stores.isEmpty ? "  (no stores)" : stores.enumerated().map { "  store \($0.offset): \(ShieldDescription.settings($0.element))" }.joined(separator: "\n")
        return "activity \(ShieldDescription.activity(activity))\n\(stores)"
    }
}

extension Gen where Value == ShieldScenario {
    public static func shieldScenario(_ universe: ShieldUniverse = .small, stores: ClosedRange<Int> = 0...3) -> Gen<ShieldScenario> {
        Gen<ShieldScenario> { source in
            ShieldScenario(
                stores: Gen<ShieldSettings>.shieldSettings(universe).array(count: stores).generate(using: source),
                activity: Gen<ShieldActivity>.shieldActivity(universe).generate(using: source))
        }
    }
}

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
        case .addApplication(let t): settings.applications = (settings.applications ?? []).union([t])
        case .addWebDomain(let t): settings.webDomains = (settings.webDomains ?? []).union([t])
        case .addApplicationCategory(let c): settings.applicationCategories = Self.addCategory(c, to: settings.applicationCategories)
        case .addWebDomainCategory(let c): settings.webDomainCategories = Self.addCategory(c, to: settings.webDomainCategories)
        case .addApplicationException(let t): settings.applicationCategories = Self.addException(t, to: settings.applicationCategories)
        case .addWebDomainException(let t): settings.webDomainCategories = Self.addException(t, to: settings.webDomainCategories)
        }
    }

    static func addCategory<M>(_ c: ActivityCategoryToken, to policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> ShieldSettings.ActivityCategoryPolicy<M>? {
        switch policy {
        case nil, .some(.none): return .specific([c])
        case .some(.all(let except)): return .all(except: except)
        case .some(.specific(let cats, let except)): return .specific(cats.union([c]), except: except)
        }
    }

    static func addException<M>(_ t: Token<M>, to policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> ShieldSettings.ActivityCategoryPolicy<M>? {
        switch policy {
        case nil, .some(.none): return policy
        case .some(.all(let except)): return .all(except: except.union([t]))
        case .some(.specific(let cats, let except)): return .specific(cats, except: except.union([t]))
        }
    }
}

extension Gen where Value == ShieldEdit {
    public static func shieldEdit(_ universe: ShieldUniverse = .small, shielding: Bool) -> Gen<ShieldEdit> {
        let app = Gen<ApplicationToken>.universeToken(Application.self, universe: universe.applications)
        let web = Gen<WebDomainToken>.universeToken(WebDomain.self, universe: universe.webDomains)
        let cat = Gen<ActivityCategoryToken>.universeToken(ActivityCategory.self, universe: universe.categories)
        if shielding {
            return Gen.oneOf(app.map(ShieldEdit.addApplication), web.map(ShieldEdit.addWebDomain),
                             cat.map(ShieldEdit.addApplicationCategory), cat.map(ShieldEdit.addWebDomainCategory))
        }
        return Gen.oneOf(app.map(ShieldEdit.addApplicationException), web.map(ShieldEdit.addWebDomainException))
    }
}

/// Readable descriptions of shield values (universe labels instead of base64).
public enum ShieldDescription {
    public static func activity(_ activity: ShieldActivity) -> String {
        switch activity {
        case .application(let t, let c): return "launch \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        case .webDomain(let t, let c): return "visit \(TokenUniverse.label(t)) in \(TokenUniverse.label(c))"
        }
    }

    public static func policy<M>(_ policy: ShieldSettings.ActivityCategoryPolicy<M>?) -> String {
        switch policy {
        case nil: return "nil"
        case .some(.none): return ".none"
        case .some(.all(let except)): return ".all(except: \(TokenUniverse.labels(except)))"
        case .some(.specific(let cats, let except)): return ".specific(\(TokenUniverse.labels(cats)), except: \(TokenUniverse.labels(except)))"
        }
    }

    public static func settings(_ s: ShieldSettings) -> String {
        "applications \(TokenUniverse.labels(s.applications)), applicationCategories \(policy(s.applicationCategories)), "
            + "webDomains \(TokenUniverse.labels(s.webDomains)), webDomainCategories \(policy(s.webDomainCategories))"
    }

    public static func verdict(_ result: Result<ShieldVerdict, ShieldLimitExceeded>) -> String {
        switch result {
        case .failure(let error): return "limitExceeded(\(error.set.rawValue))"
        case .success(.allowed): return "allowed"
        case .success(.shielded(let reason)):
            return reason.category.map { "shielded(\(reason.name), \(TokenUniverse.label($0)))" } ?? "shielded(\(reason.name))"
        }
    }
}
