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
