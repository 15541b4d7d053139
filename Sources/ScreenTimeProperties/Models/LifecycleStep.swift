import ScreenTimeReference

/// One observation as a state-machine command (described by its wire name: `notDetermined`, `pick`, …).
public struct LifecycleStep: Sendable, Hashable, CustomStringConvertible {
    public var observation: LifecyclePolicy.Observation
    public init(_ observation: LifecyclePolicy.Observation) { self.observation = observation }
    public var description: String { observation.name }
}
