/// What one ``ManagedSettingsStore`` shields (mirrors `ManagedSettings.ShieldSettings`).
///
/// Four optional members: ``applications`` and ``webDomains`` list tokens to shield one by one;
/// ``applicationCategories`` and ``webDomainCategories`` shield by category through an
/// ``ActivityCategoryPolicy``. `nil` means "not set" and shields nothing, exactly like an empty set or `.none`
/// (`SPEC.md` §2, invariant "`nil` and empty sets behave alike").
///
/// Assignment never fails, even past the 50-token limits of Apple's documentation: the settings keep what was
/// assigned, and evaluation then fails with ``ShieldLimitExceeded`` (see ``ShieldSettings/maximumTokenCount``).
///
/// ```swift
/// var shield = ShieldSettings()
/// shield.applications = [mail]
/// shield.applicationCategories = .specific([social], except: [messages])
/// ```
///
/// Source: Apple doc (ShieldSettings). Assumption: evaluation fails past the limits (iOS's behaviour past 50 is
/// undocumented; see ``setsOverLimit``).
public struct ShieldSettings: Hashable, Sendable {
    /// Applications shielded one by one, whatever their category. Source: Apple doc.
    public var applications: Set<ApplicationToken>?
    /// The category policy for applications. Source: Apple doc.
    public var applicationCategories: ActivityCategoryPolicy<Application>?
    /// Web domains shielded one by one, whatever their category. Source: Apple doc.
    public var webDomains: Set<WebDomainToken>?
    /// The category policy for web domains. Source: Apple doc.
    public var webDomainCategories: ActivityCategoryPolicy<WebDomain>?

    /// Settings with nothing set: they shield nothing.
    public init(
        applications: Set<ApplicationToken>? = nil,
        applicationCategories: ActivityCategoryPolicy<Application>? = nil,
        webDomains: Set<WebDomainToken>? = nil,
        webDomainCategories: ActivityCategoryPolicy<WebDomain>? = nil
    ) {
        self.applications = applications
        self.applicationCategories = applicationCategories
        self.webDomains = webDomains
        self.webDomainCategories = webDomainCategories
    }

    /// True when nothing is set (every member `nil`). Empty sets and `.none` count as set. (Ours.)
    public var isUnset: Bool {
        applications == nil && applicationCategories == nil && webDomains == nil && webDomainCategories == nil
    }
}
