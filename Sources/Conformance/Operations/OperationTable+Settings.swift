import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `settings.evaluate` (`SPEC.md` §5.2, §9): steps on the stores, then one query, read and written through
    /// ``SettingsWire``.
    static var settingsOperations: [Operation] {
        [
            Operation(
                name: "settings.evaluate",
                summary: "Launch, removal, install, URL or restriction verdict over several stores (SPEC §9)"
            ) { input in
                SettingsWire.json(try SettingsWire.run(try SettingsWire.request(input)))
            }
        ]
    }
}
