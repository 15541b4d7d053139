import Foundation

/// Everything the simulated device holds for one app: its managed settings stores and its authorization
/// (status, grants, minted tokens). (Ours; iOS keeps this in the system.)
///
/// One environment is shared by ``ManagedSettingsStore`` and ``AuthorizationCenter``: that is how a revocation
/// clears every store and how evaluation knows which tokens are void. Thread-safe: one lock guards all state, so a
/// revocation (end the grant, void its tokens, clear every store) is one atomic step.
///
/// App code uses ``shared`` implicitly (`ManagedSettingsStore()`, `AuthorizationCenter.shared`). Tests should make
/// their own environment (`ScreenTimeEnvironment()`) and inject it, since tests run in parallel; a test that must
/// use ``shared`` calls ``reset()`` first and runs in a serialized suite.
///
/// ```swift
/// let environment = ScreenTimeEnvironment()
/// let store = ManagedSettingsStore(named: .init("focus"), environment: environment)
/// let center = AuthorizationCenter(environment: environment)
/// environment.simulator.revokeInSettings()
/// ```
public final class ScreenTimeEnvironment: @unchecked Sendable {
    /// The environment that `ManagedSettingsStore()` and `AuthorizationCenter.shared` use.
    public static let shared = ScreenTimeEnvironment()

    struct State {
        /// Each store's shield (every shield verdict reads these alone).
        var stores = StoreTable<ShieldSettings>()
        /// Each store's other settings groups (`SPEC.md` §9.1).
        var groups = StoreTable<ManagedSettingsGroups>()
        var authorization = AuthorizationState()
    }

    private let lock = NSLock()
    /// Read and changed only in ``withState(_:)``, under `lock`, so every access is already exclusive. Unchecked:
    /// Swift otherwise checks exclusive access to a class's stored `var` at run time on every access (a call into
    /// the runtime and a thread-local access set, more instructions than the lock), and the `auth` fuzz target,
    /// which checks every minted token after every step, pays that at each one (docs/PERFORMANCE.md#decisions).
    @exclusivity(unchecked) private var state = State()

    public init() {}

    /// Ours, for tests: forgets every store and the whole authorization history (status back to
    /// `notDetermined`, no grants, no tokens).
    public func reset() {
        withState { $0 = State() }
    }

    func withState<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    // MARK: Stores

    func shieldSettings(of store: ManagedSettingsStore.Identity) -> ShieldSettings {
        withState { $0.stores[store] ?? ShieldSettings() }
    }

    func setShieldSettings(_ settings: ShieldSettings, of store: ManagedSettingsStore.Identity) {
        withState { $0.stores[store] = settings }
    }

    func modifyShieldSettings<Result, Failure: Error>(
        of store: ManagedSettingsStore.Identity, _ body: (inout ShieldSettings) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withState { (state: inout State) throws(Failure) -> Result in
            var settings = state.stores[store] ?? ShieldSettings()
            let result = try body(&settings)
            state.stores[store] = settings
            return result
        }
    }

    /// Every store that has some setting, in ``ManagedSettingsStore/Identity`` order (unnamed first, then by name).
    public var shieldSettingsByStore: [(store: ManagedSettingsStore.Identity, settings: ShieldSettings)] {
        withState { state in zip(state.stores.identities, state.stores.settings).map { (store: $0, settings: $1) } }
    }

    /// The verdict for `activity` over every store of this environment, ignoring void tokens.
    ///
    /// Rules: ``ShieldEvaluation``. A thrown ``ShieldLimitExceeded`` has `storeIndex` into
    /// ``shieldSettingsByStore`` and names the store.
    /// Example: after `simulator.revokeInSettings()`, every activity is `.allowed`.
    public func evaluateShield(_ activity: ShieldActivity) throws(ShieldLimitExceeded) -> ShieldVerdict {
        try withState { (state: inout State) throws(ShieldLimitExceeded) -> ShieldVerdict in
            let stores = state.stores
            do throws(ShieldLimitExceeded) {
                return try ShieldEvaluation.evaluate(
                    activity, stores: stores.settings, isVoid: { state.authorization.isVoid($0) })
            } catch {
                var named = error
                if stores.identities.indices.contains(error.storeIndex) {
                    named.store = stores.identities[error.storeIndex]
                }
                throw named
            }
        }
    }

    /// Every lint finding over every store: sets over the limit and void tokens (see ``ShieldSettings/lint(store:isVoid:)``).
    public func lintShields() -> [ShieldLintFinding] {
        withState { state in
            let authorization = state.authorization
            return zip(state.stores.identities, state.stores.settings).flatMap { store, settings in
                settings.lint(store: store, isVoid: { authorization.isVoid($0) })
            }
        }
    }

    /// The handle tests use to play the user and the system (approve, deny, revoke in Settings, pick).
    public var simulator: AuthorizationSimulator { AuthorizationSimulator(environment: self) }
}
