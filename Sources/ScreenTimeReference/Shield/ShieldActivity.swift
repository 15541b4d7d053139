/// Something the user tries to do that a shield may cover: launch an app or visit a web domain. (Ours.)
///
/// Each carries its own token and the token of its category, since category policies match on the latter.
/// Source: `SPEC.md` §2 (an app launch is its app token plus its category token; a visit is a domain token plus
/// its category token).
///
/// ```swift
/// let launch = ShieldActivity.application(mail, category: productivity)
/// let visit = ShieldActivity.webDomain(news, category: newsCategory)
/// ```
public enum ShieldActivity: Hashable, Sendable {
    case application(ApplicationToken, category: ActivityCategoryToken)
    case webDomain(WebDomainToken, category: ActivityCategoryToken)

    /// The activity's category token.
    public var category: ActivityCategoryToken {
        switch self {
        case .application(_, let category), .webDomain(_, let category): return category
        }
    }
}

/// Why an activity is shielded (`SPEC.md` §2 "Verdicts").
///
/// Category reasons carry the category token, which is always the activity's own category.
public enum ShieldReason: Hashable, Sendable {
    /// `applications` lists the app and no category policy shields it.
    case application
    /// An application category policy shields the app (this wins over `.application`).
    case applicationCategory(ActivityCategoryToken)
    /// `webDomains` lists the domain and no category policy shields it.
    case webDomain
    /// A web domain category policy shields the domain (this wins over `.webDomain`).
    case webDomainCategory(ActivityCategoryToken)

    /// The reason's wire name: `application`, `applicationCategory`, `webDomain` or `webDomainCategory`.
    public var name: String {
        switch self {
        case .application: return "application"
        case .applicationCategory: return "applicationCategory"
        case .webDomain: return "webDomain"
        case .webDomainCategory: return "webDomainCategory"
        }
    }

    /// The category for a category reason, else `nil`.
    public var category: ActivityCategoryToken? {
        switch self {
        case .applicationCategory(let category), .webDomainCategory(let category): return category
        case .application, .webDomain: return nil
        }
    }

    /// Whether this is a category reason.
    public var isCategoryReason: Bool { category != nil }

    /// Which `ShieldConfigurationDataSource` method iOS calls to draw this shield.
    ///
    /// Rule: an app or domain reason draws through `configuration(shielding:)`, a category reason through
    /// `configuration(shielding:in:)`. Source: device observation (`SPEC.md` §2, precedence).
    /// Example: `.applicationCategory(social).configurationCallback == .applicationInCategory`.
    public var configurationCallback: ShieldConfigurationCallback {
        switch self {
        case .application: return .application
        case .applicationCategory: return .applicationInCategory
        case .webDomain: return .webDomain
        case .webDomainCategory: return .webDomainInCategory
        }
    }
}

/// The `ShieldConfigurationDataSource` method iOS calls for a shield. (Ours; names the iOS methods.)
public enum ShieldConfigurationCallback: String, Hashable, Sendable, CaseIterable {
    /// `configuration(shielding application: Application) -> ShieldConfiguration`
    case application
    /// `configuration(shielding application: Application, in category: ActivityCategory) -> ShieldConfiguration`
    case applicationInCategory
    /// `configuration(shielding webDomain: WebDomain) -> ShieldConfiguration`
    case webDomain
    /// `configuration(shielding webDomain: WebDomain, in category: ActivityCategory) -> ShieldConfiguration`
    case webDomainInCategory

    /// The Swift selector of the method, e.g. `configuration(shielding:in:)`.
    public var selector: String {
        switch self {
        case .application, .webDomain: return "configuration(shielding:)"
        case .applicationInCategory, .webDomainInCategory: return "configuration(shielding:in:)"
        }
    }
}

/// The outcome of evaluating an activity against every store (`SPEC.md` §2 "Verdicts").
public enum ShieldVerdict: Hashable, Sendable {
    case allowed
    case shielded(ShieldReason)

    /// The reason when shielded.
    public var reason: ShieldReason? {
        if case .shielded(let reason) = self { return reason }
        return nil
    }

    public var isShielded: Bool { reason != nil }

    /// The configuration method iOS calls, or `nil` when nothing is shielded.
    public var configurationCallback: ShieldConfigurationCallback? { reason?.configurationCallback }
}

/// What a shield action extension answers when the user taps a shield button (mirrors
/// `ManagedSettings.ShieldActionResponse`). Source: Apple doc.
public enum ShieldActionResponse: String, Hashable, Sendable, CaseIterable {
    /// Close the shielded app or page.
    case close
    /// Redraw the shield; the configuration extension may return a new configuration.
    case `defer`
    /// Do nothing; the shield stays as it is.
    case none
}
