import ScreenTimeReference

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
