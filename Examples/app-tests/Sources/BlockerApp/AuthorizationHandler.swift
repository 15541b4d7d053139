#if canImport(ManagedSettings)
    import FamilyControls
    import ManagedSettings
#else
    import ScreenTimeReference
#endif

/// Keeps the shields in step with Screen Time authorization. The app calls ``statusChanged(_:)`` at launch and on
/// every return to the foreground with `AuthorizationCenter.shared.authorizationStatus`, and ``picked(_:)`` after
/// the picker closes.
public final class AuthorizationHandler {
    /// What the user sees happen.
    public enum Effect: Equatable, Sendable {
        case shieldsCleared
        case revokedAlertShown
        case pickerRequested
    }

    private let store: ManagedSettingsStore
    private let perform: (Effect) -> Void
    private var authorized = true
    public private(set) var shieldsOn = true

    /// A handler for an app that was set up before: authorized, its shields on.
    public init(store: ManagedSettingsStore, perform: @escaping (Effect) -> Void) {
        self.store = store
        self.perform = perform
    }

    public func statusChanged(_ status: AuthorizationStatus) {
        switch status {
        case .approved, .approvedWithDataAccess:
            guard !authorized else { return }
            authorized = true
            perform(.pickerRequested)
        default:
            guard authorized else { return }
            authorized = false
            guard shieldsOn else { return }
            store.clearAllSettings()
            shieldsOn = false
            perform(.shieldsCleared)
            perform(.revokedAlertShown)
        }
    }

    public func picked(_ selection: FamilyActivitySelection) throws {
        guard authorized else { return }
        try Blocklist.apply(selection, to: store)
        shieldsOn = true
    }
}

/// The user's named blocklists ("Work", "Evening"), each remembered with the authorization it was picked under:
/// a pick from before a revocation holds void tokens and is never applied again.
public struct SavedPicks: Sendable {
    /// The running authorization's number, 0 when none runs.
    private var current = 0
    private var started = 0
    private var pickedUnder: [String: Int] = [:]

    public init() {}

    public mutating func authorized() {
        guard current == 0 else { return }
        started += 1
        current = started
    }

    public mutating func revoked() { current = 0 }

    public mutating func picked(_ name: String) {
        guard current != 0 else { return }
        pickedUnder[name] = current
    }

    public func canApply(_ name: String) -> Bool { current != 0 && pickedUnder[name] == current }
}
