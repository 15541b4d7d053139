#if canImport(ManagedSettings)
    import FamilyControls
    import ManagedSettings
#else
    import ScreenTimeReference
#endif

extension ManagedSettingsStore.Name {
    /// The store of a focus session: shields, web filter and strict mode.
    public static let focus = Self("focus")
}

/// What a focus session restricts, as the app's settings screen offers it.
public struct FocusRules: Sendable {
    /// The web filter: off, adult sites (and the typed domains), only the typed domains, or everything but them.
    public enum Web: Sendable {
        case off
        case adult
        case typed
        case allowOnly
    }

    public var web: Web
    /// The domains the person typed, as typed.
    public var domains: [String]
    /// Hide the picked apps (and these bundle identifiers) instead of shielding them.
    public var hideApps: Bool
    public var hiddenBundleIdentifiers: [String]
    /// Strict mode: the app cannot be deleted, and the clock must be automatic.
    public var strict: Bool
    public var blockInstalls: Bool

    public init(
        web: Web = .off, domains: [String] = [], hideApps: Bool = false, hiddenBundleIdentifiers: [String] = [],
        strict: Bool = false, blockInstalls: Bool = false
    ) {
        self.web = web
        self.domains = domains
        self.hideApps = hideApps
        self.hiddenBundleIdentifiers = hiddenBundleIdentifiers
        self.strict = strict
        self.blockInstalls = blockInstalls
    }
}

/// The app's blocking function, as it sits in the iOS app: every call is one a blocker makes on iOS.
public enum Restrictions {
    /// Starts a focus session over the picked selection.
    public static func start(
        _ selection: FamilyActivitySelection, rules: FocusRules,
        store: ManagedSettingsStore = ManagedSettingsStore(named: .focus)
    ) {
        if rules.hideApps {
            store.application.blockedApplications = Set(selection.applicationTokens.map { Application(token: $0) })
                .union(rules.hiddenBundleIdentifiers.map { Application(bundleIdentifier: $0) })
            store.shield.applications = nil
        } else {
            store.application.blockedApplications = nil
            store.shield.applications = selection.applicationTokens.isEmpty ? nil : selection.applicationTokens
        }
        store.shield.applicationCategories =
            selection.categoryTokens.isEmpty ? nil : .specific(selection.categoryTokens)
        store.shield.webDomains = selection.webDomainTokens.isEmpty ? nil : selection.webDomainTokens

        let typed = Set(rules.domains.map { WebDomain(domain: $0) })
        switch rules.web {
        case .off: store.webContent.blockedByFilter = nil
        case .adult: store.webContent.blockedByFilter = typed.isEmpty ? .auto() : .auto(typed)
        case .typed: store.webContent.blockedByFilter = typed.isEmpty ? nil : .specific(typed)
        case .allowOnly: store.webContent.blockedByFilter = .all(except: typed)
        }

        store.application.denyAppRemoval = rules.strict
        store.application.denyAppInstallation = rules.blockInstalls ? true : nil
        store.dateAndTime.requireAutomaticDateAndTime = rules.strict ? true : nil
    }

    /// "Take a five-minute break": lifts the shields and means to keep strict mode on.
    ///
    /// The bug (SPEC.md §7.20, field bug 20): `clearAllSettings()` clears every group of the store, so strict mode
    /// (`denyAppRemoval`) and the web filter go with the shields, and the app can be deleted during the break.
    public static func takeBreak(store: ManagedSettingsStore = ManagedSettingsStore(named: .focus)) {
        store.clearAllSettings()
    }

    /// Ends the session: nothing of it stays.
    public static func end(store: ManagedSettingsStore = ManagedSettingsStore(named: .focus)) {
        store.clearAllSettings()
    }
}
