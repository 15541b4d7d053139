import ScreenTimeReference

/// The spec's lifecycle rules (`SPEC.md` §3), transcribed independently.
public struct LifecycleModel: Sendable, Hashable {
    public var approved = true
    public var shieldsActive = true
    public init() {}

    public mutating func step(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action] {
        switch observation {
        case .status(.notDetermined): return []
        case .status(.denied):
            defer { approved = false }
            if approved && shieldsActive {
                shieldsActive = false
                return [.clearShields, .notifyRevoked]
            }
            return []
        case .status(.approved), .status(.approvedWithDataAccess):
            defer { approved = true }
            return approved ? [] : [.requirePick]
        case .pick:
            if approved { shieldsActive = true }
            return []
        }
    }
}

/// One observation as a state-machine command (described by its wire name: `notDetermined`, `pick`, …).
public struct LifecycleStep: Sendable, Hashable, CustomStringConvertible {
    public var observation: LifecyclePolicy.Observation
    public init(_ observation: LifecyclePolicy.Observation) { self.observation = observation }
    public var description: String { observation.name }
}
