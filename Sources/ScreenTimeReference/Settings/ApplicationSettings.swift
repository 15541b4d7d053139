/// Which apps one ``ManagedSettingsStore`` hides, and whether apps may be removed or installed (mirrors
/// `ManagedSettings.ApplicationSettings`).
///
/// Rule (`SPEC.md` §9.2): an app in ``blockedApplications`` (by token or bundle identifier) is hidden and cannot be
/// launched, so it is never shielded; ``denyAppRemoval`` and ``denyAppInstallation`` set to `true` in any store
/// deny removal and installation, whatever other stores say. At most 50 applications
/// (``ManagedSettingsGroups/maximumApplicationCount``). `clearAllSettings()` clears these too.
///
/// ```swift
/// store.application.blockedApplications = Set(selection.applicationTokens.map { Application(token: $0) })
/// store.application.denyAppRemoval = strictMode ? true : nil
/// ```
///
/// Source: Apple doc (ApplicationSettings and its members).
public struct ApplicationSettings: Hashable, Sendable {
    /// The apps the system hides and will not launch. Source: Apple doc.
    public var blockedApplications: Set<Application>?
    /// Whether the person is kept from installing apps. Source: Apple doc.
    public var denyAppInstallation: Bool?
    /// Whether the person is kept from removing apps. Source: Apple doc.
    public var denyAppRemoval: Bool?

    /// Settings with nothing set.
    public init(
        blockedApplications: Set<Application>? = nil, denyAppInstallation: Bool? = nil, denyAppRemoval: Bool? = nil
    ) {
        self.blockedApplications = blockedApplications
        self.denyAppInstallation = denyAppInstallation
        self.denyAppRemoval = denyAppRemoval
    }

    /// True when nothing is set. (Ours.)
    public var isUnset: Bool { blockedApplications == nil && denyAppInstallation == nil && denyAppRemoval == nil }
}

extension Application {
    /// Whether this member of `blockedApplications` names the app launched with `token` and `bundleIdentifier`.
    ///
    /// Rule (`SPEC.md` §9.2, Assumption A29): the same token (and not void), or the same bundle identifier compared
    /// exactly; the display name never matches, and an application with neither names nothing.
    /// Example: `Application(bundleIdentifier: "com.example.game").names(token, bundleIdentifier: "com.example.game")`.
    public func names(
        _ token: ApplicationToken, bundleIdentifier: String?, isVoid: (TokenIdentity) -> Bool = { _ in false }
    ) -> Bool {
        if let own = self.token, own == token, !isVoid(TokenIdentity(own)) { return true }
        if let own = self.bundleIdentifier, let bundleIdentifier, own == bundleIdentifier { return true }
        return false
    }
}
