import ScreenTimeReference

/// A scenario with a change to one store.
struct EditedScenario: Sendable, CustomStringConvertible {
    var scenario: ShieldScenario
    var store: Int
    var edit: ShieldEdit
    var edited: [ShieldSettings] {
        var stores = scenario.stores
        if stores.isEmpty { stores = [ShieldSettings()] }
        let i = store % stores.count
        edit.apply(to: &stores[i])
        return stores
    }
    var description: String { "\(scenario)\n  edit store \(store % Swift.max(1, scenario.stores.count)): \(edit)" }
}
