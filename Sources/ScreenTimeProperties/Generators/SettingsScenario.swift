import ScreenTimeReference

/// Steps an app takes on its `ManagedSettingsStore`s, then one question put to all of them (`SPEC.md` §9): what the
/// `settings.*` properties and the `settings` fuzz target draw.
///
/// Rule: a step names one of ``stores`` by index and changes one member of `SPEC.md` §9.1 (or two of the shield's,
/// or calls `clearAllSettings()`); steps apply in order, through the stores' own API.
///
/// ```swift
/// SettingsScenario(steps: [.init(store: 1, change: .restriction(.denyAppRemoval, .bool(true)))], query: .removal)
/// ```
package struct SettingsScenario: Sendable, Hashable, CustomStringConvertible {
    /// One change to one store, as app code makes it.
    package enum Change: Sendable, Hashable {
        case filter(WebContentSettings.FilterPolicy?)
        case blockedApplications(Set<Application>?)
        case restriction(Restriction, RestrictionValue?)
        case shieldApplications(Set<ApplicationToken>?)
        case shieldApplicationCategories(ShieldSettings.ActivityCategoryPolicy<Application>?)
        case clearAllSettings
    }

    /// A change to the store at `store` in ``SettingsScenario/stores``.
    package struct Step: Sendable, Hashable {
        package var store: Int
        package var change: Change
        package init(store: Int, change: Change) {
            self.store = store
            self.change = change
        }
    }

    /// The stores a scenario may touch: the unnamed store and three named ones, in identity order.
    package static let stores: [ManagedSettingsStore.Identity] = [
        .unnamed, .named(.init("focus")), .named(.init("school")), .named(.init("strict")),
    ]

    package var steps: [Step]
    package var query: SettingsQuery

    package init(steps: [Step], query: SettingsQuery) {
        self.steps = steps
        self.query = query
    }

    /// The store of `step`, in `environment`.
    package static func store(_ index: Int, in environment: ScreenTimeEnvironment) -> ManagedSettingsStore {
        switch stores[index] {
        case .unnamed: return ManagedSettingsStore(environment: environment)
        case .named(let name): return ManagedSettingsStore(named: name, environment: environment)
        }
    }

    /// Applies `change` to `store` through its API, as an app does.
    package static func apply(_ change: Change, to store: ManagedSettingsStore) {
        switch change {
        case .filter(let policy): store.webContent.blockedByFilter = policy
        case .blockedApplications(let applications): store.application.blockedApplications = applications
        case .restriction(let restriction, let value): store.modifyGroups { $0[restriction] = value }
        case .shieldApplications(let tokens): store.shield.applications = tokens
        case .shieldApplicationCategories(let policy): store.shield.applicationCategories = policy
        case .clearAllSettings: store.clearAllSettings()
        }
    }

    package var description: String {
        let lines = steps.map { "  \(Self.stores[$0.store]): \(Self.describe($0.change))" }
        return (["steps:"] + lines + ["query: \(Self.describe(query))"]).joined(separator: "\n")
    }

    static func describe(_ change: Change) -> String {
        switch change {
        case .filter(let policy): return "webContent.blockedByFilter = \(policy.map(describe) ?? "nil")"
        case .blockedApplications(let apps):
            return "application.blockedApplications = \(apps.map { describe(Array($0)) } ?? "nil")"
        case .restriction(let restriction, let value):
            return "\(restriction.rawValue) = \(value.map { "\($0)" } ?? "nil")"
        case .shieldApplications(let tokens):
            return "shield.applications = \(tokens.map { "\($0.map(token).sorted())" } ?? "nil")"
        case .shieldApplicationCategories(let policy):
            return "shield.applicationCategories = \(policy.map { ShieldDescription.policy($0) } ?? "nil")"
        case .clearAllSettings: return "clearAllSettings()"
        }
    }

    static func describe(_ policy: WebContentSettings.FilterPolicy) -> String {
        func list(_ domains: Set<WebDomain>) -> String {
            "["
                + domains.map { d in d.domain.map { "\"\($0)\"" } ?? "token \(d.token.map(token) ?? "?")" }.sorted()
                .joined(separator: ", ") + "]"
        }
        switch policy {
        case .none: return ".none"
        case .specific(let d): return ".specific(\(list(d)))"
        case .all(let e): return ".all(except: \(list(e)))"
        case .auto(let d, let e): return ".auto(\(list(d)), except: \(list(e)))"
        }
    }

    static func describe(_ applications: [Application]) -> String {
        if applications.count > 6 { return "\(Set(applications).count) applications" }
        let items = applications.map { a in
            [a.token.map { "token " + token($0) }, a.bundleIdentifier.map { "\"\($0)\"" }].compactMap { $0 }
                .joined(separator: " ")
        }
        return "[" + items.sorted().map { $0.isEmpty ? "(display name only)" : $0 }.joined(separator: ", ") + "]"
    }

    static func token<Kind>(_ token: Token<Kind>) -> String {
        TokenUniverse.indexOfData[token.data].map { "#\($0)" } ?? token.data
    }

    static func describe(_ query: SettingsQuery) -> String {
        switch query {
        case .launch(let app, let bundle, let category):
            return "launch app \(token(app))\(bundle.map { " (\($0))" } ?? "") in category \(token(category))"
        case .removal: return "removal"
        case .installation: return "installation"
        case .url(let url): return "url \(url)"
        case .privateBrowsing: return "private browsing"
        case .setting(let restriction): return "setting \(restriction.rawValue)"
        }
    }
}
