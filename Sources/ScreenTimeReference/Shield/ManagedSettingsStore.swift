/// A named set of managed settings (mirrors `ManagedSettings.ManagedSettingsStore`).
///
/// Rule: stores with the same name share the same settings, in one process and across instances; the unnamed
/// store `ManagedSettingsStore()` is a store of its own. Settings live in a ``ScreenTimeEnvironment``
/// (``ScreenTimeEnvironment/shared`` unless one is injected), which also holds the authorization simulator, so
/// that a revocation can clear every store and evaluation can ignore void tokens. Each read and each write of
/// ``shield`` (and of every other group: ``webContent``, ``application``, the restrictions) is atomic;
/// ``modifyShield(_:)`` and ``modifyGroups(_:)`` make a read-modify-write atomic too.
///
/// ```swift
/// let store = ManagedSettingsStore(named: ManagedSettingsStore.Name("focus"))
/// store.shield.applications = selection.applicationTokens
/// store.shield.applicationCategories = .specific(selection.categoryTokens, except: [])
/// ManagedSettingsStore(named: .init("focus")).shield.applications == selection.applicationTokens // true
/// ```
///
/// Source: Apple doc (ManagedSettingsStore, "Name"); the sharing by name is documented, the rest is ours.
public final class ManagedSettingsStore: Sendable {
    /// A store's name (mirrors `ManagedSettingsStore.Name`).
    public struct Name: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static func < (lhs: Name, rhs: Name) -> Bool {
            lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
        }
        public var description: String { rawValue }
    }

    /// Which store: the unnamed default store or a named one. (Ours; no name can collide with the default.)
    public enum Identity: Hashable, Comparable, Sendable, CustomStringConvertible {
        case unnamed
        case named(Name)

        public static func < (lhs: Identity, rhs: Identity) -> Bool {
            switch (lhs, rhs) {
            case (.unnamed, .unnamed): return false
            case (.unnamed, .named): return true
            case (.named, .unnamed): return false
            case (.named(let a), .named(let b)): return a < b
            }
        }

        public var description: String {
            switch self {
            case .unnamed: return "ManagedSettingsStore()"
            case .named(let name): return "ManagedSettingsStore(\(name.rawValue))"
            }
        }
    }

    /// Which store this is. (Ours.)
    public let identity: Identity
    /// Where this store's settings live. (Ours.)
    public let environment: ScreenTimeEnvironment

    /// The store's name, `nil` for the unnamed store.
    public var name: Name? {
        if case .named(let name) = identity { return name }
        return nil
    }

    /// The unnamed default store.
    public init() {
        self.identity = .unnamed
        self.environment = .shared
    }

    /// The unnamed default store of `environment`. (Ours.)
    public init(environment: ScreenTimeEnvironment) {
        self.identity = .unnamed
        self.environment = environment
    }

    /// The store called `name`: every store of that name shares its settings.
    public init(named name: Name, environment: ScreenTimeEnvironment = .shared) {
        self.identity = .named(name)
        self.environment = environment
    }

    /// The store's shield settings. Reading returns a snapshot; assigning replaces them (never fails, even past
    /// the limits). `store.shield.applications = x` is a read followed by a write.
    public var shield: ShieldSettings {
        get { environment.shieldSettings(of: identity) }
        set { environment.setShieldSettings(newValue, of: identity) }
    }

    /// Changes the shield settings in one atomic step. (Ours.)
    ///
    /// Example: `store.modifyShield { $0.applications = ($0.applications ?? []).union([mail]) }`.
    @discardableResult
    public func modifyShield<Result, Failure: Error>(
        _ body: (inout ShieldSettings) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try environment.modifyShieldSettings(of: identity, body)
    }

    /// The store's web filter (mirrors `webContent`). Reading returns a snapshot; assigning replaces it.
    public var webContent: WebContentSettings {
        get { environment.groups(of: identity).webContent }
        set { environment.modifyGroups(of: identity) { $0.webContent = newValue } }
    }

    /// The apps the store hides, and whether apps may be removed or installed (mirrors `application`).
    public var application: ApplicationSettings {
        get { environment.groups(of: identity).application }
        set { environment.modifyGroups(of: identity) { $0.application = newValue } }
    }

    /// Account restrictions (mirrors `account`).
    public var account: AccountSettings {
        get { environment.groups(of: identity).account }
        set { environment.modifyGroups(of: identity) { $0.account = newValue } }
    }

    /// App Store restrictions (mirrors `appStore`).
    public var appStore: AppStoreSettings {
        get { environment.groups(of: identity).appStore }
        set { environment.modifyGroups(of: identity) { $0.appStore = newValue } }
    }

    /// Cellular restrictions (mirrors `cellular`).
    public var cellular: CellularSettings {
        get { environment.groups(of: identity).cellular }
        set { environment.modifyGroups(of: identity) { $0.cellular = newValue } }
    }

    /// Date and time restrictions (mirrors `dateAndTime`).
    public var dateAndTime: DateAndTimeSettings {
        get { environment.groups(of: identity).dateAndTime }
        set { environment.modifyGroups(of: identity) { $0.dateAndTime = newValue } }
    }

    /// Game Center restrictions (mirrors `gameCenter`).
    public var gameCenter: GameCenterSettings {
        get { environment.groups(of: identity).gameCenter }
        set { environment.modifyGroups(of: identity) { $0.gameCenter = newValue } }
    }

    /// Media restrictions (mirrors `media`).
    public var media: MediaSettings {
        get { environment.groups(of: identity).media }
        set { environment.modifyGroups(of: identity) { $0.media = newValue } }
    }

    /// Passcode restrictions (mirrors `passcode`).
    public var passcode: PasscodeSettings {
        get { environment.groups(of: identity).passcode }
        set { environment.modifyGroups(of: identity) { $0.passcode = newValue } }
    }

    /// Siri restrictions (mirrors `siri`).
    public var siri: SiriSettings {
        get { environment.groups(of: identity).siri }
        set { environment.modifyGroups(of: identity) { $0.siri = newValue } }
    }

    /// Changes every settings group but the shield in one atomic step. (Ours.)
    ///
    /// Example: `store.modifyGroups { $0.application.denyAppRemoval = true; $0.siri.denySiri = true }`.
    @discardableResult
    public func modifyGroups<Result>(_ body: (inout ManagedSettingsGroups) -> Result) -> Result {
        environment.modifyGroups(of: identity, body)
    }

    /// Removes every setting of this store, shield and every other group, `denyAppRemoval` included (mirrors
    /// `clearAllSettings()`; `SPEC.md` §9.1, field bug §7.20).
    public func clearAllSettings() {
        environment.clearAllSettings(of: identity)
    }
}
