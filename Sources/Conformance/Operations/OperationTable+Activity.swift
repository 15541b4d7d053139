import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `activity.schedule` and `activity.monitor` (`SPEC.md` §8, §5.2), read and written through ``ActivityWire``.
    static var activityOperations: [Operation] {
        [
            Operation(
                name: "activity.schedule",
                summary: "A schedule's next interval at a moment, or the error startMonitoring throws (SPEC §8.1)"
            ) { input in
                let (schedule, at, zone) = try ActivityWire.scheduleQuery(input)
                return try ActivityWire.scheduleAnswer(schedule, at: at, zone: zone)
            },
            Operation(
                name: "activity.monitor",
                summary: "The monitor's callbacks for a timeline of calls, uses and clock events (SPEC §8.2–§8.5)"
            ) { input in
                ActivityWire.monitorOutput(ActivityWire.run(try ActivityWire.timeline(input)))
            },
        ]
    }
}
