#if canImport(FamilyControls)
    import FamilyControls
#else
    import ScreenTimeReference
#endif

/// The rows of the "Blocked" screen: one per picked app, category and site, in the order they are shown and
/// acted on ("Unblock" on row 3 unblocks `apps[2]`).
public struct BlockedList {
    public var apps: [ApplicationToken]
    public var categories: [ActivityCategoryToken]
    public var sites: [WebDomainToken]

    public init(_ selection: FamilyActivitySelection) {
        apps = Array(selection.applicationTokens)
        categories = Array(selection.categoryTokens)
        sites = Array(selection.webDomainTokens)
    }

    /// The selection without the app on `row`.
    public func unblockingApp(at row: Int, in selection: FamilyActivitySelection) -> FamilyActivitySelection {
        var remaining = selection
        remaining.applicationTokens.remove(apps[row])
        return remaining
    }
}

/// Picked lists put together, for a schedule that blocks "Work" and "Evening" at once, or to show what a new
/// pick changed.
public enum Blocklists {
    public enum Combination: Sendable {
        case merged, shared, removing, changes

        func apply<T>(_ a: Set<T>, _ b: Set<T>) -> Set<T> {
            switch self {
            case .merged: return a.union(b)
            case .shared: return a.intersection(b)
            case .removing: return a.subtracting(b)
            case .changes: return a.symmetricDifference(b)
            }
        }
    }

    /// `includeEntireCategory` holds for the result when each list either has it or picked no category.
    public static func combined(
        _ a: FamilyActivitySelection, _ b: FamilyActivitySelection, _ how: Combination
    ) -> FamilyActivitySelection {
        let entire =
            (a.includeEntireCategory || a.categoryTokens.isEmpty)
            && (b.includeEntireCategory || b.categoryTokens.isEmpty)
        var result = FamilyActivitySelection(includeEntireCategory: entire)
        result.applicationTokens = how.apply(a.applicationTokens, b.applicationTokens)
        result.categoryTokens = how.apply(a.categoryTokens, b.categoryTokens)
        result.webDomainTokens = how.apply(a.webDomainTokens, b.webDomainTokens)
        return result
    }
}
