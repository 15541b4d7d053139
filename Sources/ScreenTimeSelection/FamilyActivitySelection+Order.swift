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
    public var orderedApplicationTokens: [ApplicationToken] { Self.ordered(applicationTokens) }
    public var orderedCategoryTokens: [ActivityCategoryToken] { Self.ordered(categoryTokens) }
    public var orderedWebDomainTokens: [WebDomainToken] { Self.ordered(webDomainTokens) }

    /// `tokens.sorted()`, with most comparisons done on integers: each token gets as key the 8 bytes of its
    /// `data` that follow the prefix all tokens share (device tokens share 16 characters), zero-padded, so keys
    /// order as the strings do; only equal keys fall back to comparing the strings.
    static func ordered<Kind>(_ tokens: Set<Token<Kind>>) -> [Token<Kind>] {
        guard tokens.count > 1 else { return Array(tokens) }
        var keyed = tokens.map { (key: UInt64(0), token: $0) }
        var shared = Int.max
        var first = keyed[0].token.data
        first.withUTF8 { a in
            shared = a.count
            for i in 1..<keyed.count {
                var other = keyed[i].token.data
                other.withUTF8 { b in
                    var n = 0
                    let limit = min(shared, b.count)
                    while n < limit, a[n] == b[n] { n += 1 }
                    shared = n
                }
            }
        }
        for i in keyed.indices {
            var data = keyed[i].token.data
            keyed[i].key = data.withUTF8 { bytes in
                var key: UInt64 = 0
                for j in shared..<(shared + 8) { key = key << 8 | (j < bytes.count ? UInt64(bytes[j]) : 0) }
                return key
            }
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.token < $1.token }
        return keyed.map(\.token)
    }

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

    /// Hashes the case, not the raw `String` (what `RawRepresentable` would hash): reports key dictionaries by kind.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .application: hasher.combine(0 as UInt8)
        case .category: hasher.combine(1 as UInt8)
        case .webDomain: hasher.combine(2 as UInt8)
        }
    }

    /// The selection's JSON key for this kind's tokens.
    public var jsonKey: String {
        switch self {
        case .application: return "applicationTokens"
        case .category: return "categoryTokens"
        case .webDomain: return "webDomainTokens"
        }
    }
}
