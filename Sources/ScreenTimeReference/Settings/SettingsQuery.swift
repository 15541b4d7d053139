/// A question put to every store of an app: can this app be launched, removed, installed, is this URL blocked,
/// is private browsing allowed, what is this restriction's effective value (`SPEC.md` §9). (Ours.)
///
/// ```swift
/// let launch = SettingsQuery.launch(game, bundleIdentifier: "com.example.game", category: games)
/// let visit = SettingsQuery.url("https://www.example.com/news")
/// ```
public enum SettingsQuery: Hashable, Sendable {
    /// Launching the app with this token (and bundle identifier, when known) in this category.
    case launch(ApplicationToken, bundleIdentifier: String? = nil, category: ActivityCategoryToken)
    /// Removing an app.
    case removal
    /// Installing an app.
    case installation
    /// Opening this URL in a browser the web filter governs.
    case url(String)
    /// Opening a private browsing tab in Safari.
    case privateBrowsing
    /// The effective value of a restriction.
    case setting(Restriction)
}

/// What the stores answer to a ``SettingsQuery`` (`SPEC.md` §9.2–§9.4). (Ours.)
public enum SettingsVerdict: Hashable, Sendable {
    /// The launch, removal, installation, URL or private browsing is allowed.
    case allowed
    /// The app is in `blockedApplications`: hidden and not launchable (never also shielded).
    case hidden
    /// The app is shielded, for this reason (`SPEC.md` §2).
    case shielded(ShieldReason)
    /// Removal, installation or private browsing is denied.
    case denied
    /// The web filter blocks the URL.
    case blocked
    /// Only iOS's adult-content filter (`FilterPolicy.auto`) can say; the reference does not guess.
    case dependsOnSystemFilter
    /// The effective value of a restriction, `nil` when no store sets it.
    case value(RestrictionValue?)

    /// The wire name of the verdict (`value` for a restriction).
    public var name: String {
        switch self {
        case .allowed: return "allowed"
        case .hidden: return "hidden"
        case .shielded: return "shielded"
        case .denied: return "denied"
        case .blocked: return "blocked"
        case .dependsOnSystemFilter: return "dependsOnSystemFilter"
        case .value: return "value"
        }
    }
}

/// A verdict and the stores responsible for it, unnamed first, then by name (`SPEC.md` §9). (Ours.)
///
/// Example: a URL that two stores block answers `.blocked` with both stores.
public struct SettingsAnswer: Hashable, Sendable {
    public var verdict: SettingsVerdict
    /// The stores whose settings give the verdict; empty when nothing restricts.
    public var stores: [ManagedSettingsStore.Identity]

    public init(verdict: SettingsVerdict, stores: [ManagedSettingsStore.Identity] = []) {
        self.verdict = verdict
        self.stores = stores
    }
}

/// Why a ``SettingsQuery`` got no answer (`SPEC.md` §9.5). (Ours.)
///
/// Rule: every query over stores one of which is over a limit fails with `limitExceeded`; then every query over
/// stores with an invalid policy domain fails with `invalidWebDomain`; a URL that cannot be read is `invalidURL`.
/// Example: 51 applications in one store's `blockedApplications` make even a `.removal` query throw.
public struct ManagedSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error code, as the vector format names it.
    public enum Code: String, Hashable, Sendable {
        case limitExceeded
        case invalidWebDomain
        case invalidURL
    }

    public var code: Code
    /// The store at fault, when the error is a store's.
    public var store: ManagedSettingsStore.Identity?
    /// The setting at fault (`application.blockedApplications`, `webContent.blockedByFilter.except`, …), the
    /// domain or the URL.
    public var detail: String

    public init(_ code: Code, store: ManagedSettingsStore.Identity? = nil, detail: String) {
        self.code = code
        self.store = store
        self.detail = detail
    }

    public var description: String {
        "\(code.rawValue): " + (store.map { "\($0): " } ?? "") + detail
    }
}
