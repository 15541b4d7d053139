#if canImport(ManagedSettings)
    import FamilyControls
    import ManagedSettings
#else
    import ScreenTimeReference
#endif

/// The user's pick applied to the app's store, and what the app's list shows for each blocked item.
public enum Blocklist {
    public static let storeName = ManagedSettingsStore.Name("blocklist")
    /// Apple's limit on each set of tokens a store shields.
    public static let limit = 50

    /// Shields what was picked: the apps and sites themselves, and every app and site in the picked categories.
    public static func apply(_ selection: FamilyActivitySelection, to store: ManagedSettingsStore) throws {
        let most = max(
            selection.applicationTokens.count, selection.categoryTokens.count, selection.webDomainTokens.count)
        guard most <= limit else { throw BlocklistError.tooManyItems(most) }
        store.shield.applications = selection.applicationTokens
        store.shield.applicationCategories = .specific(selection.categoryTokens)
        store.shield.webDomains = selection.webDomainTokens
        store.shield.webDomainCategories = .specific(selection.categoryTokens)
    }

    /// Why the list shows a lock on an item.
    public enum Lock: Equatable, Sendable {
        /// The item itself was picked.
        case item
        /// A picked category covers it (what iOS reports when both apply).
        case category(ActivityCategoryToken)
    }

    /// The lock on an app, over the settings of every store the app uses; `nil` when it is not blocked.
    public static func lock(
        onApp app: ApplicationToken, in category: ActivityCategoryToken, stores: [ShieldSettings]
    ) throws -> Lock? {
        try checkLimits(stores)
        for settings in stores {
            switch settings.applicationCategories {
            case .all(let except)? where !except.contains(app): return .category(category)
            case .specific(let categories, let except)? where categories.contains(category) && !except.contains(app):
                return .category(category)
            default: continue
            }
        }
        return stores.contains { $0.applications?.contains(app) == true } ? .item : nil
    }

    /// The lock on a site, over the settings of every store the app uses; `nil` when it is not blocked.
    public static func lock(
        onSite site: WebDomainToken, in category: ActivityCategoryToken, stores: [ShieldSettings]
    ) throws -> Lock? {
        try checkLimits(stores)
        for settings in stores {
            switch settings.webDomainCategories {
            case .all(let except)? where !except.contains(site): return .category(category)
            case .specific(let categories, let except)? where categories.contains(category) && !except.contains(site):
                return .category(category)
            default: continue
            }
        }
        return stores.contains { $0.webDomains?.contains(site) == true } ? .item : nil
    }

    /// Throws when a store holds more than ``limit`` tokens in one set.
    private static func checkLimits(_ stores: [ShieldSettings]) throws {
        for settings in stores {
            var counts = [settings.applications?.count ?? 0, settings.webDomains?.count ?? 0]
            switch settings.applicationCategories {
            case .all(let except)?: counts.append(except.count)
            case .specific(let categories, let except)?: counts += [categories.count, except.count]
            default: break
            }
            switch settings.webDomainCategories {
            case .all(let except)?: counts.append(except.count)
            case .specific(let categories, let except)?: counts += [categories.count, except.count]
            default: break
            }
            if let most = counts.max(), most > limit { throw BlocklistError.tooManyItems(most) }
        }
    }
}

public enum BlocklistError: Error, Equatable {
    /// More than ``Blocklist/limit`` tokens in one set.
    case tooManyItems(Int)
}
