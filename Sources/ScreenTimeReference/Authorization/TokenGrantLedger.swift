import StrictJSON

/// Which picked names still hold a valid token, as grants start and end (`SPEC.md` §3 "Grants"). (Ours.)
///
/// A pure model of token voiding, keyed by the name of what was picked:
/// - `authorize` starts a grant unless one is running;
/// - `revoke` ends the running grant (no effect when none runs);
/// - `pick(name)` while a grant runs mints a token for `name` under it, replacing that name's earlier token;
///   with no grant running it mints nothing (and leaves the earlier token as it was);
/// - a name is valid iff its latest token was minted under the running grant.
///
/// ```swift
/// var ledger = TokenGrantLedger()
/// ledger.apply([.authorize, .pick("mail"), .revoke, .authorize])
/// ledger.isValid("mail") // false: minted under the first grant, which was revoked
/// ```
///
/// Source: Apple doc (FamilyActivitySelection: revocation voids every token provided while authorized).
public struct TokenGrantLedger: Hashable, Sendable {
    /// One step of the history.
    public enum Event: Hashable, Sendable {
        case authorize
        case revoke
        case pick(String)
    }

    /// The grant running now, if any.
    public private(set) var runningGrant: AuthorizationGrant?
    /// The grant each name's latest token was minted under. Names compare by code point, as JSON strings do
    /// (`"Café"` and `"Cafe\u{301}"` are two names). Assumption: the spec does not say how names compare.
    public private(set) var latestGrantByName: [CodePointString: AuthorizationGrant] = [:]
    private var grantsStarted = 0

    public init() {}

    public mutating func apply(_ event: Event) {
        switch event {
        case .authorize:
            guard runningGrant == nil else { return }
            grantsStarted += 1
            runningGrant = AuthorizationGrant(number: grantsStarted)
        case .revoke:
            runningGrant = nil
        case .pick(let name):
            guard let grant = runningGrant else { return }
            latestGrantByName[CodePointString(name)] = grant
        }
    }

    public mutating func apply(_ events: some Sequence<Event>) {
        for event in events { apply(event) }
    }

    /// True iff `name`'s latest token was minted under the running grant.
    public func isValid(_ name: String) -> Bool {
        guard let running = runningGrant, let grant = latestGrantByName[CodePointString(name)] else { return false }
        return grant == running
    }
}
