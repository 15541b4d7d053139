import ScreenTimeReference

/// What the lifecycle properties drive: `LifecyclePolicy` or a broken stand-in.
public protocol LifecycleSubject: Sendable {
    mutating func observe(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action]
    var shieldsActive: Bool { get }
}

extension LifecyclePolicy: LifecycleSubject {}
