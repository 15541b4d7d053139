import ScreenTimeReference

/// An authorization system as the grant properties drive it: tokens are numbered in minting order.
/// ``EnvironmentGrantSystem`` is the reference; tests plug in broken ones.
public protocol GrantSystem {
    mutating func requestAuthorization(approve: Bool)
    mutating func revoke(inSettings: Bool)
    /// A pick of one application: the new token's number, or nil when nothing was minted.
    mutating func pick() -> Int?
    /// Adds token `token` to the app's store's `applications`.
    mutating func shield(_ token: Int)
    /// Whether launching the app of token `token` is shielded.
    func isShielded(_ token: Int) -> Bool
    func isVoid(_ token: Int) -> Bool
    var status: AuthorizationStatus { get }
    /// Problems the system itself reports (an async call that did not complete, …).
    var problem: String? { get }
}

/// The reference: a fresh `ScreenTimeEnvironment`, its `AuthorizationCenter`, simulator and one named store.
public final class EnvironmentGrantSystem: GrantSystem {
    public let environment = ScreenTimeEnvironment()
    let center: AuthorizationCenter
    let store: ManagedSettingsStore
    // Unchecked: one state machine runs on one thread, and Swift's run-time exclusivity check on a class's stored
    // `var` (a runtime call at every read) cost more than the void check it guarded.
    @exclusivity(unchecked) private var minted: [ApplicationToken] = []
    @exclusivity(unchecked) public private(set) var problem: String?
    static let category = TokenUniverse.token(0, ActivityCategory.self)

    public init() {
        center = AuthorizationCenter(environment: environment)
        store = ManagedSettingsStore(named: .init("app"), environment: environment)
    }

    /// `AuthorizationCenter.requestAuthorization(for: .individual)`, through the synchronous core that the async
    /// call runs (the simulated user answers at once), so that a request needs no task.
    public func requestAuthorization(approve: Bool) {
        environment.simulator.respond(with: approve ? .approve : .deny)
        try? center.requestAuthorizationNow(for: .individual)
    }

    public func revoke(inSettings: Bool) {
        if inSettings { environment.simulator.revokeInSettings() } else { center.revokeAuthorization { _ in } }
    }

    public func pick() -> Int? {
        guard let token = environment.simulator.mint(Application.self) else { return nil }
        minted.append(token)
        return minted.count - 1
    }

    public func shield(_ token: Int) {
        guard minted.indices.contains(token) else { return }
        let t = minted[token]
        store.modifyShield { $0.applications = ($0.applications ?? []).union([t]) }
    }

    public func isShielded(_ token: Int) -> Bool {
        guard minted.indices.contains(token) else { return false }
        return (try? environment.evaluateShield(.application(minted[token], category: Self.category)))?.isShielded
            ?? false
    }

    public func isVoid(_ token: Int) -> Bool {
        minted.indices.contains(token) ? environment.simulator.isVoid(minted[token]) : false
    }

    public var status: AuthorizationStatus { environment.simulator.status }
}
