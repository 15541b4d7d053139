import PropertyTesting
import ScreenTimeReference

// Authorization histories: grant events over a few picked names, and the status observations an app makes
// (with `notDetermined` frequent, as iOS reports it at launch).

extension Gen where Value == TokenGrantLedger.Event {
    /// `authorize`, `revoke` or `pick NAME` over `names`.
    public static func grantEvent(names: [String] = ["mail", "maps", "news"]) -> Gen<TokenGrantLedger.Event> {
        Gen.oneOf(
            Gen.constant(.authorize),
            Gen.constant(.revoke),
            Gen<String>.element(of: names).map { .pick($0) })
    }
}

extension Gen where Value == LifecyclePolicy.Observation {
    /// A status read (notDetermined weighted up) or a completed pick.
    public static var lifecycleObservation: Gen<LifecyclePolicy.Observation> {
        Gen.frequency([
            (3, Gen.constant(.status(.notDetermined))),
            (2, Gen.constant(.status(.approved))),
            (2, Gen.constant(.status(.denied))),
            (2, Gen.constant(.pick)),
            (1, Gen.constant(.status(.approvedWithDataAccess))),
        ])
    }
}

extension LifecyclePolicy.Observation {
    /// `notDetermined`, `denied`, `approved`, `approvedWithDataAccess` or `pick`.
    public var name: String {
        switch self {
        case .status(let status): return status.rawValue
        case .pick: return "pick"
        }
    }
}

/// Describes an event list on one line.
public enum AuthorizationDescription {
    public static func events(_ events: [TokenGrantLedger.Event]) -> String {
        events.isEmpty
            ? "(no events)"
            : events.map { event in
                switch event {
                case .authorize: return "authorize"
                case .revoke: return "revoke"
                case .pick(let name): return "pick \(name)"
                }
            }.joined(separator: ", ")
    }

    public static func observations(_ observations: [LifecyclePolicy.Observation]) -> String {
        observations.isEmpty ? "(no observations)" : observations.map(\.name).joined(separator: ", ")
    }
}
