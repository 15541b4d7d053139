import StrictJSON

/// What the user picked in `FamilyActivityPicker`: sets of application, category and web-domain tokens.
///
/// Mirrors `FamilyControls.FamilyActivitySelection`. Each kind is a set: duplicates collapse and order never
/// matters (`SPEC.md` §1). Two selections are equal iff their sets, their `includeEntireCategory` and their
/// untokenized identifiers are equal, which is exactly when their ``canonicalBase64`` strings are equal.
///
/// ```swift
/// let selection = try FamilyActivitySelection(storedBase64: stored)   // ours: strict and total
/// store.shield.applications = selection.applicationTokens
/// ```
public struct FamilyActivitySelection: Hashable, Sendable {
    public var applicationTokens: Set<ApplicationToken>
    public var categoryTokens: Set<ActivityCategoryToken>
    public var webDomainTokens: Set<WebDomainToken>
    /// Whether choosing a category also chose every app and web domain in it (iOS 15.2+).
    public var includeEntireCategory: Bool
    /// Identifiers iOS could not tokenize (ours to expose; always empty in device captures). They compare by code
    /// point, as JSON strings do: `"Café"` written with U+00E9 and with `e` + U+0301 are two identifiers.
    public var untokenizedApplicationIdentifiers: Set<UntokenizedIdentifier>
    public var untokenizedCategoryIdentifiers: Set<UntokenizedIdentifier>
    public var untokenizedWebDomainIdentifiers: Set<UntokenizedIdentifier>

    public init() {
        self.init(includeEntireCategory: false)
    }

    public init(includeEntireCategory: Bool) {
        self.applicationTokens = []
        self.categoryTokens = []
        self.webDomainTokens = []
        self.includeEntireCategory = includeEntireCategory
        self.untokenizedApplicationIdentifiers = []
        self.untokenizedCategoryIdentifiers = []
        self.untokenizedWebDomainIdentifiers = []
    }

    /// A selection holding the given tokens (ours).
    public init(
        applicationTokens: Set<ApplicationToken> = [], categoryTokens: Set<ActivityCategoryToken> = [],
        webDomainTokens: Set<WebDomainToken> = [], includeEntireCategory: Bool = false
    ) {
        self.init(includeEntireCategory: includeEntireCategory)
        self.applicationTokens = applicationTokens
        self.categoryTokens = categoryTokens
        self.webDomainTokens = webDomainTokens
    }

    /// The applications, as iOS hands them out (token only: the reference knows no names or bundle ids).
    public var applications: Set<Application> { Set(applicationTokens.map { Application(token: $0) }) }
    public var categories: Set<ActivityCategory> { Set(categoryTokens.map { ActivityCategory(token: $0) }) }
    public var webDomains: Set<WebDomain> { Set(webDomainTokens.map { WebDomain(token: $0) }) }
}

/// An untokenized identifier: a string compared by its code points, not by Swift's canonical equivalence
/// (`SPEC.md` §1 sorts and deduplicates them by code point). Write one as a string literal; read `.value`.
public typealias UntokenizedIdentifier = CodePointString
