/// Decides whether an activity is shielded, over any number of stores (`SPEC.md` §2). (Ours.)
///
/// Rules, in the order they apply:
/// 1. **Limits**: if any store holds more than 50 tokens in a limited set, evaluation throws
///    ``ShieldLimitExceeded`` for every activity (Assumption: iOS's behaviour past 50 is undocumented).
/// 2. **Kinds never mix**: an application is judged only by `applications` and `applicationCategories`,
///    a web domain only by `webDomains` and `webDomainCategories`.
/// 3. **Category shield**: the store's policy for the kind shields the activity (see
///    ``ShieldSettings/ActivityCategoryPolicy``).
/// 4. **Token shield**: `applications` (or `webDomains`) contains the activity's token. `except` does not
///    exempt from this (Assumption, consistent with Apple's wording "even if they're in the categories that you
///    list").
/// 5. **Precedence**: when a category shield applies, the reason is the category one, naming the activity's own
///    category, even when a token shield also applies. Source: device observation.
/// 6. **Several stores**: shielded iff any store shields; a category reason if any store shields by category.
///    The verdict never depends on store order. Source: Apple doc (stores combine), `SPEC.md` §2.
/// 7. **Void tokens** (see ``ScreenTimeEnvironment``) in settings match nothing: they shield nothing and exempt
///    nothing. The activity's own tokens are taken as given. Assumption: Apple documents that revoked tokens are
///    voided, not how a voided token still sitting in a store behaves; "matches nothing" is the only reading under
///    which a void token shields nothing.
///
/// ```swift
/// let stores = [ShieldSettings(applications: [mail], applicationCategories: .specific([work]))]
/// try ShieldEvaluation.evaluate(.application(mail, category: work), stores: stores)
/// // .shielded(.applicationCategory(work))
/// ```
public enum ShieldEvaluation {
    /// The verdict for `activity` over `stores` (in any order).
    ///
    /// - Parameter isVoid: which tokens are void; none by default.
    /// - Throws: ``ShieldLimitExceeded`` naming the first store (by index) and set over the limit.
    public static func evaluate(
        _ activity: ShieldActivity, stores: [ShieldSettings],
        isVoid: (TokenIdentity) -> Bool = { _ in false }
    ) throws(ShieldLimitExceeded) -> ShieldVerdict {
        // The stores are read in place, through a buffer (its subscript lends the element): a copied
        // `ShieldSettings` is copied field by field, its category policies through their value witnesses. Reading
        // in place, and counting the policies' sets in place (`firstSetOverLimit`), avoids those copies on every
        // verdict (callgrind over the shield fuzz corpus; docs/PERFORMANCE.md#decisions).
        try stores.withUnsafeBufferPointer { (stores) throws(ShieldLimitExceeded) -> ShieldVerdict in
            for index in stores.indices {
                if let set = stores[index].firstSetOverLimit {
                    throw ShieldLimitExceeded(storeIndex: index, set: set, count: stores[index].tokenCount(in: set))
                }
            }
            var tokenShield = false
            for index in stores.indices {
                switch stores[index].match(activity, isVoid: isVoid) {
                case .category:
                    // A category reason wins over every token reason; the category is the activity's own.
                    return .shielded(categoryReason(for: activity))
                case .token:
                    tokenShield = true
                case .nothing:
                    break
                }
            }
            guard tokenShield else { return .allowed }
            switch activity {
            case .application: return .shielded(.application)
            case .webDomain: return .shielded(.webDomain)
            }
        }
    }

    private static func categoryReason(for activity: ShieldActivity) -> ShieldReason {
        switch activity {
        case .application(_, let category): return .applicationCategory(category)
        case .webDomain(_, let category): return .webDomainCategory(category)
        }
    }
}

extension ShieldSettings {
    /// How one store covers an activity, before precedence and limits. (Ours.)
    public enum Match: Hashable, Sendable {
        case nothing
        /// `applications`/`webDomains` lists the token and no category policy shields it.
        case token
        /// The category policy shields it (whatever the token lists say).
        case category
    }

    /// How this store alone covers `activity`, ignoring the limits. See ``ShieldEvaluation`` for the rules.
    ///
    /// Example: `ShieldSettings(applications: [mail]).match(.application(mail, category: work)) == .token`.
    public func match(_ activity: ShieldActivity, isVoid: (TokenIdentity) -> Bool = { _ in false }) -> Match {
        switch activity {
        case .application(let token, let category):
            if applicationCategories?.shields(token, in: category, isVoid: isVoid) == true { return .category }
            if applications?.contains(token) == true, !isVoid(TokenIdentity(token)) { return .token }
            return .nothing
        case .webDomain(let token, let category):
            if webDomainCategories?.shields(token, in: category, isVoid: isVoid) == true { return .category }
            if webDomains?.contains(token) == true, !isVoid(TokenIdentity(token)) { return .token }
            return .nothing
        }
    }

    /// The verdict of this store alone, limits included. Same as `ShieldEvaluation.evaluate(activity, stores: [self])`.
    public func evaluate(
        _ activity: ShieldActivity, isVoid: (TokenIdentity) -> Bool = { _ in false }
    ) throws(ShieldLimitExceeded) -> ShieldVerdict {
        try ShieldEvaluation.evaluate(activity, stores: [self], isVoid: isVoid)
    }
}
