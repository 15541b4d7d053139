import ScreenTimeReference

/// Several stores and one activity.
public struct ShieldScenario: Sendable, CustomStringConvertible {
    public init(stores: [ShieldSettings], activity: ShieldActivity) {
        self.stores = stores
        self.activity = activity
    }
    public var stores: [ShieldSettings]
    public var activity: ShieldActivity
    public var description: String {
        let stores =
            stores.isEmpty
            ? "  (no stores)"
            : stores.enumerated().map { "  store \($0.offset): \(ShieldDescription.settings($0.element))" }.joined(
                separator: "\n")
        return "activity \(ShieldDescription.activity(activity))\n\(stores)"
    }
}
