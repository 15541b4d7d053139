/// The authorization state a ``ScreenTimeEnvironment`` holds: status, grants and every minted token. (Ours.)
struct AuthorizationState: Sendable {
    var status: AuthorizationStatus = .notDetermined
    var member: FamilyControlsMember?
    var runningGrant: AuthorizationGrant?
    var grantsStarted = 0
    var response: AuthorizationSimulator.Response = .approve
    var grantOfToken: [TokenIdentity: AuthorizationGrant] = [:]
    var tokensMinted: UInt64 = 0

    /// A token is void iff it was minted under a grant that is no longer running. Tokens the simulator never
    /// minted (fixtures, tests) are never void.
    func isVoid(_ token: TokenIdentity) -> Bool {
        guard let grant = grantOfToken[token] else { return false }
        return grant != runningGrant
    }

    mutating func startGrant(for member: FamilyControlsMember) {
        grantsStarted += 1
        runningGrant = AuthorizationGrant(number: grantsStarted)
        self.member = member
        status = .approved
    }
}

/// Plays the user and the system around ``AuthorizationCenter``, for tests and simulations. (Ours.)
///
/// - ``respond(with:)`` decides how the next authorization prompts end (approve, deny, or fail with an error);
/// - ``revokeInSettings()`` is the user turning the app off in Settings › Screen Time;
/// - ``mint(_:)`` and ``pick(applications:categories:webDomains:)`` are a `FamilyActivityPicker` pick: they mint
///   fresh tokens under the running grant, or nothing when no grant runs.
///
/// Revocation (by the app or in Settings) ends the grant: every token minted under it is void forever, and every
/// store of the environment is cleared. Source: Apple doc (FamilyActivitySelection, AuthorizationCenter);
/// `SPEC.md` §3.
///
/// ```swift
/// let simulator = environment.simulator
/// simulator.respond(with: .approve)
/// try await center.requestAuthorization(for: .individual)
/// let mail = simulator.mint(Application.self)       // valid
/// simulator.revokeInSettings()                        // mail is now void; every store is cleared
/// ```
public struct AuthorizationSimulator: Sendable {
    /// How the user (or parent) answers authorization prompts.
    public enum Response: Hashable, Sendable {
        /// Approve: status becomes `approved`, a new grant starts.
        case approve
        /// Decline: status becomes `denied`; the request throws `FamilyControlsError.authorizationCanceled`.
        case deny
        /// The request throws this error and the status does not change.
        case fail(FamilyControlsError)
    }

    public let environment: ScreenTimeEnvironment

    public init(environment: ScreenTimeEnvironment) { self.environment = environment }

    /// Makes every later prompt end with `response` (until changed). The default is `.approve`.
    public func respond(with response: Response) {
        environment.withState { $0.authorization.response = response }
    }

    /// The current status.
    public var status: AuthorizationStatus { environment.withState { $0.authorization.status } }

    /// The running grant, `nil` when the app is not authorized.
    public var runningGrant: AuthorizationGrant? { environment.withState { $0.authorization.runningGrant } }

    /// The member the running (or last) grant was requested for.
    public var member: FamilyControlsMember? { environment.withState { $0.authorization.member } }

    /// The user revokes the app in Settings: same effect as `revokeAuthorization` (no effect unless approved).
    public func revokeInSettings() {
        environment.withState { Self.revoke(&$0) }
    }

    /// A fresh token of kind `kind`, minted under the running grant; `nil` when no grant runs (iOS shows no picker
    /// to an unauthorized app). Tokens are 128 bytes, the first 12 zero, like device tokens; every one is new.
    public func mint<Kind: TokenKind>(_ kind: Kind.Type = Kind.self) -> Token<Kind>? {
        environment.withState { state in
            guard let grant = state.authorization.runningGrant else { return nil }
            state.authorization.tokensMinted += 1
            let token = Token<Kind>(
                bytes: Self.tokenBytes(
                    kind: Kind.kindName, grant: grant, serial: state.authorization.tokensMinted))
            if state.authorization.grantOfToken.isEmpty {  // grows less (see `pick` for why not `reserveCapacity`)
                state.authorization.grantOfToken = Dictionary(minimumCapacity: 16)
            }
            state.authorization.grantOfToken[TokenIdentity(token)] = grant
            return token
        }
    }

    /// A pick of `applications` apps, `categories` categories and `webDomains` domains, all minted under the running
    /// grant; `nil` when no grant runs.
    public func pick(applications: Int = 0, categories: Int = 0, webDomains: Int = 0) -> PickedTokens? {
        guard runningGrant != nil else { return nil }
        // Not `reserveCapacity`: on a set or a dictionary it is a call into the standard library's unspecialized
        // code, which looks the type's metadata up at run time and copies the empty singleton. `Set(minimumCapacity:)`
        // does less of that, so a pick costs fewer instructions (callgrind, `stc check auth.`;
        // docs/PERFORMANCE.md#decisions).
        var picked = PickedTokens()
        picked.applicationTokens = Set(minimumCapacity: max(0, applications))
        picked.categoryTokens = Set(minimumCapacity: max(0, categories))
        picked.webDomainTokens = Set(minimumCapacity: max(0, webDomains))
        for _ in 0..<max(0, applications) { if let t = mint(Application.self) { picked.applicationTokens.insert(t) } }
        for _ in 0..<max(0, categories) { if let t = mint(ActivityCategory.self) { picked.categoryTokens.insert(t) } }
        for _ in 0..<max(0, webDomains) { if let t = mint(WebDomain.self) { picked.webDomainTokens.insert(t) } }
        return picked
    }

    /// Whether `token` is void: minted under a grant that has ended. Tokens not minted here are never void.
    public func isVoid<Kind: TokenKind>(_ token: Token<Kind>) -> Bool {
        environment.withState { $0.authorization.isVoid(TokenIdentity(token)) }
    }

    /// The grant `token` was minted under, or `nil` when the simulator did not mint it.
    public func grant<Kind: TokenKind>(of token: Token<Kind>) -> AuthorizationGrant? {
        environment.withState { $0.authorization.grantOfToken[TokenIdentity(token)] }
    }

    /// Every void token, in stable order.
    public var voidTokens: [TokenIdentity] {
        environment.withState { state in
            state.authorization.grantOfToken.keys.filter { state.authorization.isVoid($0) }.sorted()
        }
    }

    // MARK: Transitions shared with AuthorizationCenter

    /// Ends the running grant, voids its tokens and clears every store; no effect unless approved.
    static func revoke(_ state: inout ScreenTimeEnvironment.State) {
        guard state.authorization.status.isApproved else { return }
        state.authorization.runningGrant = nil
        state.authorization.status = .denied
        state.stores = .init()
        state.groups = .init()
    }

    /// 128 bytes: 12 zero bytes, then kind, grant and serial (big-endian), then 99 bytes of filler derived from
    /// them. Written into one buffer, eleven filler bytes per round (minting is most of what the auth fuzz target
    /// does, and there every loop test and every append is a call into the sanitizers).
    static func tokenBytes(kind: String, grant: AuthorizationGrant, serial: UInt64) -> [UInt8] {
        let kindByte: UInt8 = kind == Application.kindName ? 1 : kind == ActivityCategory.kindName ? 2 : 3
        let grantNumber = UInt64(truncatingIfNeeded: grant.number)
        return [UInt8](unsafeUninitializedCapacity: 128) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: 0, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: 0, toByteOffset: 8, as: UInt32.self)
            raw.storeBytes(of: kindByte, toByteOffset: 12, as: UInt8.self)
            raw.storeBytes(of: grantNumber.bigEndian, toByteOffset: 13, as: UInt64.self)
            raw.storeBytes(of: serial.bigEndian, toByteOffset: 21, as: UInt64.self)
            var x = serial &* 0x9E37_79B9_7F4A_7C15 &+ grantNumber
            @inline(__always) func filler() -> UInt8 {
                x ^= x >> 30
                x = x &* 0xBF58_476D_1CE4_E5B9
                x ^= x >> 27
                return UInt8(truncatingIfNeeded: x)
            }
            var offset = 29
            for _ in 0..<9 {  // 9 × 11 = 99 bytes: offsets 29..<128
                raw[offset] = filler()
                raw[offset + 1] = filler()
                raw[offset + 2] = filler()
                raw[offset + 3] = filler()
                raw[offset + 4] = filler()
                raw[offset + 5] = filler()
                raw[offset + 6] = filler()
                raw[offset + 7] = filler()
                raw[offset + 8] = filler()
                raw[offset + 9] = filler()
                raw[offset + 10] = filler()
                offset += 11
            }
            count = 128
        }
    }
}

/// The tokens of one simulated pick (the three token sets of a `FamilyActivitySelection`). (Ours.)
public struct PickedTokens: Hashable, Sendable {
    public var applicationTokens: Set<ApplicationToken> = []
    public var categoryTokens: Set<ActivityCategoryToken> = []
    public var webDomainTokens: Set<WebDomainToken> = []
    public init() {}
}
