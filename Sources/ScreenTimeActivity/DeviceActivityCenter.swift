import Foundation

/// Starts and stops the monitoring of activities (mirrors `DeviceActivity.DeviceActivityCenter`). In the reference
/// it works on ``DeviceActivitySimulator/current``, whose clock, time zone and device use stand in for the system.
///
/// Rules (SPEC.md §8.2): `startMonitoring` checks authorization, the components, the interval's length (15
/// minutes to one week) and the number of activities (20), in that order, and replaces an activity already
/// monitored under the name; `stopMonitoring()` with no argument stops every activity; a stopped activity whose
/// interval is under way gets `intervalDidEnd` at once. Source: Apple: DeviceActivityCenter.
///
/// ```swift
/// let center = DeviceActivityCenter()
/// try center.startMonitoring(.bedtime, during: night, events: [.limit: event])
/// center.stopMonitoring([.bedtime])
/// ```
public struct DeviceActivityCenter: Sendable {
    /// Why `startMonitoring` refused an activity. Source: Apple: DeviceActivityCenter.MonitoringError.
    public enum MonitoringError: Error, Hashable, Sendable, CaseIterable {
        /// 20 other activities are monitored (the most an app and its extensions may have).
        case excessiveActivities
        /// The interval is longer than one week.
        case intervalTooLong
        /// The interval is shorter than 15 minutes.
        case intervalTooShort
        /// The components match no date, or a duration is negative.
        case invalidDateComponents
        /// The app is not authorized (FamilyControls).
        case unauthorized
    }

    /// The simulator this center works on.
    public let simulator: DeviceActivitySimulator

    /// A center over ``DeviceActivitySimulator/current``.
    public init() { self.simulator = DeviceActivitySimulator.current }

    /// A center over `simulator`. (Ours.)
    public init(simulator: DeviceActivitySimulator) { self.simulator = simulator }

    /// The names monitored now, in code point order.
    public var activities: [DeviceActivityName] { simulator.withEngine { ($0.activities(), []) } }

    /// Starts monitoring `activity` on `schedule`, with `events`. See the type's rules.
    ///
    /// - Throws: ``MonitoringError``.
    public func startMonitoring(
        _ activity: DeviceActivityName, during schedule: DeviceActivitySchedule,
        events: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
    ) throws {
        let authorized = simulator.isAuthorized()
        let result = simulator.withEngine { engine -> (Result<Void, MonitoringError>, [DeviceActivityCallback]) in
            do throws(MonitoringError) {
                let stopped = try engine.startMonitoring(
                    activity, during: schedule, events: events, authorized: authorized)
                return (.success(()), stopped)
            } catch {
                return (.failure(error), [])
            }
        }
        try result.get()
    }

    /// Stops monitoring `activities`; the empty list (the default) stops every activity.
    public func stopMonitoring(_ activities: [DeviceActivityName] = []) {
        simulator.withEngine { engine in ((), engine.stopMonitoring(activities)) }
    }

    /// The schedule `activity` is monitored on, or `nil`.
    public func schedule(for activity: DeviceActivityName) -> DeviceActivitySchedule? {
        simulator.withEngine { ($0.schedule(for: activity), []) }
    }

    /// The events `activity` is monitored with (`[:]` when it is not monitored).
    public func events(for activity: DeviceActivityName) -> [DeviceActivityEvent.Name: DeviceActivityEvent] {
        simulator.withEngine { ($0.events(for: activity), []) }
    }
}
