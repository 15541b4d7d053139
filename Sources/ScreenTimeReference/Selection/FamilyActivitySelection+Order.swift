/// Stable order (ours, `SPEC.md` §1): a kind's tokens ascending by their `data` string in ASCII order.
///
/// Use one order for display and for action, so that "row 3" on screen is the token acted on. `Set` iteration
/// order changes from process to process (field bug 4), so never index into a set.
///
/// ```swift
/// let rows = selection.orderedApplicationTokens
/// store.shield.applications = [rows[2]]   // the row the user tapped
/// ```
extension FamilyActivitySelection {
    public var orderedApplicationTokens: [ApplicationToken] { applicationTokens.sorted() }
    public var orderedCategoryTokens: [ActivityCategoryToken] { categoryTokens.sorted() }
    public var orderedWebDomainTokens: [WebDomainToken] { webDomainTokens.sorted() }

    /// The `data` strings of one kind's tokens, in stable order.
    public func orderedTokenData(of kind: SelectionTokenKind) -> [String] {
        switch kind {
        case .application: return orderedApplicationTokens.map(\.data)
        case .category: return orderedCategoryTokens.map(\.data)
        case .webDomain: return orderedWebDomainTokens.map(\.data)
        }
    }

    /// How many distinct tokens of one kind the selection holds.
    public func count(of kind: SelectionTokenKind) -> Int {
        switch kind {
        case .application: return applicationTokens.count
        case .category: return categoryTokens.count
        case .webDomain: return webDomainTokens.count
        }
    }
}

/// The three token kinds of a selection, by their names in the vector format (ours).
public enum SelectionTokenKind: String, Sendable, CaseIterable {
    case application
    case category
    case webDomain

    /// The selection's JSON key for this kind's tokens.
    public var jsonKey: String {
        switch self {
        case .application: return "applicationTokens"
        case .category: return "categoryTokens"
        case .webDomain: return "webDomainTokens"
        }
    }
}
