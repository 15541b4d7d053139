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
        var stores: [ManagedSettingsStore.Identity: ShieldSettings] = [:]
        var authorization = AuthorizationState()
    }

    private let lock = NSLock()
    private var state = State()

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
        withState { $0.stores[store] = settings.isUnset ? nil : settings }
    }

    func modifyShieldSettings<Result, Failure: Error>(
        of store: ManagedSettingsStore.Identity, _ body: (inout ShieldSettings) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withState { (state: inout State) throws(Failure) -> Result in
            var settings = state.stores[store] ?? ShieldSettings()
            let result = try body(&settings)
            state.stores[store] = settings.isUnset ? nil : settings
            return result
        }
    }

    /// Every store that has some setting, in ``ManagedSettingsStore/Identity`` order (unnamed first, then by name).
    public var shieldSettingsByStore: [(store: ManagedSettingsStore.Identity, settings: ShieldSettings)] {
        withState { state in state.stores.sorted { $0.key < $1.key }.map { (store: $0.key, settings: $0.value) } }
    }

    /// The verdict for `activity` over every store of this environment, ignoring void tokens.
    ///
    /// Rules: ``ShieldEvaluation``. A thrown ``ShieldLimitExceeded`` has `storeIndex` into
    /// ``shieldSettingsByStore`` and names the store.
    /// Example: after `simulator.revokeInSettings()`, every activity is `.allowed`.
    public func evaluateShield(_ activity: ShieldActivity) throws(ShieldLimitExceeded) -> ShieldVerdict {
        try withState { (state: inout State) throws(ShieldLimitExceeded) -> ShieldVerdict in
            let authorization = state.authorization
            // A verdict never depends on store order, so the stores are taken as the dictionary holds them; only
            // an error depends on it (the first store over a limit), and it is found again in store order.
            if let verdict = try? ShieldEvaluation.evaluate(
                activity, stores: Array(state.stores.values), isVoid: { authorization.isVoid($0) }) { return verdict }
            let entries = state.stores.sorted { $0.key < $1.key }
            do throws(ShieldLimitExceeded) {
                return try ShieldEvaluation.evaluate(
                    activity, stores: entries.map(\.value), isVoid: { authorization.isVoid($0) })
            } catch {
                var named = error
                if entries.indices.contains(error.storeIndex) { named.store = entries[error.storeIndex].key }
                throw named
            }
        }
    }

    /// Every lint finding over every store: sets over the limit and void tokens (see ``ShieldSettings/lint(store:isVoid:)``).
    public func lintShields() -> [ShieldLintFinding] {
        withState { state in
            let authorization = state.authorization
            return state.stores.sorted { $0.key < $1.key }.flatMap { entry in
                entry.value.lint(store: entry.key, isVoid: { authorization.isVoid($0) })
            }
        }
    }

    /// The handle tests use to play the user and the system (approve, deny, revoke in Settings, pick).
    public var simulator: AuthorizationSimulator { AuthorizationSimulator(environment: self) }
}
