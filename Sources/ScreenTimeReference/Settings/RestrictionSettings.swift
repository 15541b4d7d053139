// The restriction groups of `ManagedSettingsStore` that blockers set beside their shields, under iOS's names.
// Each member is `nil` until set; over several stores the most restrictive value wins (`SPEC.md` §9.4,
// Assumption A28): `true` over `false`, the least `maximumRating`. Source: Apple doc, one page per group.

/// Account changes (mirrors `ManagedSettings.AccountSettings`). Example: `store.account.lockAccounts = true`.
public struct AccountSettings: Hashable, Sendable {
    /// Whether the person is kept from adding, removing or changing accounts. Source: Apple doc.
    public var lockAccounts: Bool?
    public init(lockAccounts: Bool? = nil) { self.lockAccounts = lockAccounts }
}

/// The App Store (mirrors `ManagedSettings.AppStoreSettings`). Example: `store.appStore.maximumRating = 200`.
public struct AppStoreSettings: Hashable, Sendable {
    /// Whether in-app purchases are denied. Source: Apple doc.
    public var denyInAppPurchases: Bool?
    /// The highest app rating the person may download (iOS's rating scale). Source: Apple doc.
    public var maximumRating: Int?
    /// Whether every purchase asks for the password. Source: Apple doc.
    public var requirePasswordForPurchases: Bool?
    public init(denyInAppPurchases: Bool? = nil, maximumRating: Int? = nil, requirePasswordForPurchases: Bool? = nil) {
        self.denyInAppPurchases = denyInAppPurchases
        self.maximumRating = maximumRating
        self.requirePasswordForPurchases = requirePasswordForPurchases
    }
}

/// Cellular plans (mirrors `ManagedSettings.CellularSettings`). Example: `store.cellular.lockCellularPlan = true`.
public struct CellularSettings: Hashable, Sendable {
    /// Whether the person is kept from changing the cellular plan. Source: Apple doc.
    public var lockCellularPlan: Bool?
    public init(lockCellularPlan: Bool? = nil) { self.lockCellularPlan = lockCellularPlan }
}

/// Date and time (mirrors `ManagedSettings.DateAndTimeSettings`): blockers require the automatic clock so that
/// their schedules cannot be cheated by setting the clock back.
/// Example: `store.dateAndTime.requireAutomaticDateAndTime = true`.
public struct DateAndTimeSettings: Hashable, Sendable {
    /// Whether the date and time must be set automatically. Source: Apple doc.
    public var requireAutomaticDateAndTime: Bool?
    public init(requireAutomaticDateAndTime: Bool? = nil) {
        self.requireAutomaticDateAndTime = requireAutomaticDateAndTime
    }
}

/// Game Center (mirrors `ManagedSettings.GameCenterSettings`).
/// Example: `store.gameCenter.denyMultiplayerGaming = true`.
public struct GameCenterSettings: Hashable, Sendable {
    /// Whether multiplayer games are denied. Source: Apple doc.
    public var denyMultiplayerGaming: Bool?
    /// Whether adding friends is denied. Source: Apple doc.
    public var denyAddingFriends: Bool?
    public init(denyMultiplayerGaming: Bool? = nil, denyAddingFriends: Bool? = nil) {
        self.denyMultiplayerGaming = denyMultiplayerGaming
        self.denyAddingFriends = denyAddingFriends
    }
}

/// Media (mirrors `ManagedSettings.MediaSettings`). Example: `store.media.denyExplicitContent = true`.
public struct MediaSettings: Hashable, Sendable {
    /// Whether explicit music, podcasts and books are denied. Source: Apple doc.
    public var denyExplicitContent: Bool?
    public init(denyExplicitContent: Bool? = nil) { self.denyExplicitContent = denyExplicitContent }
}

/// The passcode (mirrors `ManagedSettings.PasscodeSettings`). Example: `store.passcode.lockPasscode = true`.
public struct PasscodeSettings: Hashable, Sendable {
    /// Whether the person is kept from changing the passcode. Source: Apple doc.
    public var lockPasscode: Bool?
    public init(lockPasscode: Bool? = nil) { self.lockPasscode = lockPasscode }
}

/// Siri (mirrors `ManagedSettings.SiriSettings`). Example: `store.siri.denySiri = true`.
public struct SiriSettings: Hashable, Sendable {
    /// Whether Siri is denied. Source: Apple doc.
    public var denySiri: Bool?
    public init(denySiri: Bool? = nil) { self.denySiri = denySiri }
}

/// One restriction of `SPEC.md` §9.1, by its wire name: a Boolean member, or `appStore.maximumRating`. (Ours.)
///
/// Rule: its effective value over several stores is the most restrictive one set (`SPEC.md` §9.4).
/// Example: `Restriction.denyAppRemoval.rawValue == "application.denyAppRemoval"`.
public enum Restriction: String, Hashable, Sendable, CaseIterable, Comparable {
    case denyAppRemoval = "application.denyAppRemoval"
    case denyAppInstallation = "application.denyAppInstallation"
    case lockAccounts = "account.lockAccounts"
    case denyInAppPurchases = "appStore.denyInAppPurchases"
    case requirePasswordForPurchases = "appStore.requirePasswordForPurchases"
    case maximumRating = "appStore.maximumRating"
    case lockCellularPlan = "cellular.lockCellularPlan"
    case requireAutomaticDateAndTime = "dateAndTime.requireAutomaticDateAndTime"
    case denyMultiplayerGaming = "gameCenter.denyMultiplayerGaming"
    case denyAddingFriends = "gameCenter.denyAddingFriends"
    case denyExplicitContent = "media.denyExplicitContent"
    case lockPasscode = "passcode.lockPasscode"
    case denySiri = "siri.denySiri"

    public static func < (lhs: Restriction, rhs: Restriction) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the restriction is an integer (`maximumRating`) rather than a Boolean.
    public var isInteger: Bool { self == .maximumRating }
}

/// The value of a restriction: a Boolean, or the integer of `appStore.maximumRating`. (Ours.)
public enum RestrictionValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int)

    /// Whether `self` restricts more than `other`: `true` over `false`, a lower rating over a higher one.
    public func isMoreRestrictive(than other: RestrictionValue) -> Bool {
        switch (self, other) {
        case (.bool(let a), .bool(let b)): return a && !b
        case (.integer(let a), .integer(let b)): return a < b
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .bool(let value): return "\(value)"
        case .integer(let value): return "\(value)"
        }
    }
}
