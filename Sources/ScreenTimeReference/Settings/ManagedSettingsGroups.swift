/// Every settings group of one ``ManagedSettingsStore`` but ``ManagedSettingsStore/shield``. (Ours.)
///
/// Rule (`SPEC.md` §9.1): every member is optional and `nil` until set; ``ManagedSettingsStore/clearAllSettings()``
/// sets them all back to `nil`, with the shield. The shield lives apart (``ShieldSettings``) because every shield
/// verdict reads it alone.
///
/// ```swift
/// var groups = ManagedSettingsGroups()
/// groups.application.denyAppRemoval = true
/// groups[.denyAppRemoval] == .bool(true)
/// ```
public struct ManagedSettingsGroups: Hashable, Sendable {
    public var webContent = WebContentSettings()
    public var application = ApplicationSettings()
    public var account = AccountSettings()
    public var appStore = AppStoreSettings()
    public var cellular = CellularSettings()
    public var dateAndTime = DateAndTimeSettings()
    public var gameCenter = GameCenterSettings()
    public var media = MediaSettings()
    public var passcode = PasscodeSettings()
    public var siri = SiriSettings()

    public init() {}

    /// The most applications `blockedApplications` may hold: 50. Source: Apple doc (ApplicationSettings).
    public static var maximumApplicationCount: Int { 50 }
    /// The most domains a filter policy may block, and the most exceptions: 50 each. Source: Apple doc
    /// (WebContentSettings.FilterPolicy).
    public static var maximumDomainCount: Int { 50 }

    /// True when nothing is set.
    public var isUnset: Bool { self == ManagedSettingsGroups() }

    /// The value of a restriction, `nil` when not set; assigning `nil` deletes it, and a value of the other kind
    /// (an integer for a Boolean restriction) is ignored.
    public subscript(restriction: Restriction) -> RestrictionValue? {
        get {
            if restriction == .maximumRating { return appStore.maximumRating.map { .integer($0) } }
            return boolean(restriction).map { .bool($0) }
        }
        set {
            switch (restriction, newValue) {
            case (.maximumRating, .integer(let value)): appStore.maximumRating = value
            case (.maximumRating, nil): appStore.maximumRating = nil
            case (.maximumRating, .bool): break
            case (_, .bool(let value)): setBoolean(restriction, value)
            case (_, nil): setBoolean(restriction, nil)
            case (_, .integer): break
            }
        }
    }

    private func boolean(_ restriction: Restriction) -> Bool? {
        switch restriction {
        case .denyAppRemoval: return application.denyAppRemoval
        case .denyAppInstallation: return application.denyAppInstallation
        case .lockAccounts: return account.lockAccounts
        case .denyInAppPurchases: return appStore.denyInAppPurchases
        case .requirePasswordForPurchases: return appStore.requirePasswordForPurchases
        case .maximumRating: return nil
        case .lockCellularPlan: return cellular.lockCellularPlan
        case .requireAutomaticDateAndTime: return dateAndTime.requireAutomaticDateAndTime
        case .denyMultiplayerGaming: return gameCenter.denyMultiplayerGaming
        case .denyAddingFriends: return gameCenter.denyAddingFriends
        case .denyExplicitContent: return media.denyExplicitContent
        case .lockPasscode: return passcode.lockPasscode
        case .denySiri: return siri.denySiri
        }
    }

    private mutating func setBoolean(_ restriction: Restriction, _ value: Bool?) {
        switch restriction {
        case .denyAppRemoval: application.denyAppRemoval = value
        case .denyAppInstallation: application.denyAppInstallation = value
        case .lockAccounts: account.lockAccounts = value
        case .denyInAppPurchases: appStore.denyInAppPurchases = value
        case .requirePasswordForPurchases: appStore.requirePasswordForPurchases = value
        case .maximumRating: break
        case .lockCellularPlan: cellular.lockCellularPlan = value
        case .requireAutomaticDateAndTime: dateAndTime.requireAutomaticDateAndTime = value
        case .denyMultiplayerGaming: gameCenter.denyMultiplayerGaming = value
        case .denyAddingFriends: gameCenter.denyAddingFriends = value
        case .denyExplicitContent: media.denyExplicitContent = value
        case .lockPasscode: passcode.lockPasscode = value
        case .denySiri: siri.denySiri = value
        }
    }
}
