import Foundation
import ScreenTimeActivity
import _FuzzCore

/// The iOS-named API against the engine run: the same timeline through `DeviceActivitySimulator`,
/// `DeviceActivityCenter` and a recording `DeviceActivityMonitor` delivers the same callbacks, throws the same
/// errors and ends with the same activities. Also: `DeviceActivitySchedule.nextInterval` agrees with what
/// `startMonitoring` threw (SPEC §8.1 limits), and the callbacks' moments survive the wire's moment format.
/// Every call made at a moment applies before the callbacks due then, in both (SPEC §8.5).
enum ActivitySimulatorCheck {
    /// Records each call, after the base class's (empty) method, as `DeviceActivityMonitor` subclasses do.
    final class Recorder: DeviceActivityMonitor, @unchecked Sendable {
        var calls: [String] = []
        override func intervalDidStart(for activity: DeviceActivityName) {
            super.intervalDidStart(for: activity)
            calls.append("intervalDidStart \(activity)")
        }
        override func intervalDidEnd(for activity: DeviceActivityName) {
            super.intervalDidEnd(for: activity)
            calls.append("intervalDidEnd \(activity)")
        }
        override func intervalWillStartWarning(for activity: DeviceActivityName) {
            super.intervalWillStartWarning(for: activity)
            calls.append("intervalWillStartWarning \(activity)")
        }
        override func intervalWillEndWarning(for activity: DeviceActivityName) {
            super.intervalWillEndWarning(for: activity)
            calls.append("intervalWillEndWarning \(activity)")
        }
        override func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {
            super.eventDidReachThreshold(event, activity: activity)
            calls.append("eventDidReachThreshold \(activity) \(event)")
        }
        override func eventWillReachThresholdWarning(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {
            super.eventWillReachThresholdWarning(event, activity: activity)
            calls.append("eventWillReachThresholdWarning \(activity) \(event)")
        }
    }

    static func name(_ callback: DeviceActivityCallback) -> String {
        "\(callback.kind.rawValue) \(callback.activity)" + (callback.event.map { " \($0)" } ?? "")
    }

    static func compare(_ timeline: ActivityTimelineHarness.Timeline, _ result: ActivityTimelineHarness.Result)
        -> HarnessFailure?
    {
        for record in result.records {
            let text = ActivityMoment.format(record.callback.seconds)
            let east = String(text.dropLast()) + "+05:30"
            guard ActivityMoment.parse(text) == record.callback.seconds,
                ActivityMoment.parse(east) == record.callback.seconds - 19_800
            else {
                return HarnessFailure("a callback's moment reads back from the wire's format", text)
            }
        }
        let recorder = Recorder()
        let authorized = Authorization(timeline.authorized)
        let device = DeviceActivitySimulator(
            now: Date(timeIntervalSince1970: TimeInterval(timeline.start)), timeZone: timeline.zone,
            isAuthorized: { authorized.value })
        device.monitor = recorder
        guard device.monitor === recorder else { return HarnessFailure("the simulator keeps its monitor") }
        // The center of the task's simulator, as an app makes it.
        let center = device.run { DeviceActivityCenter() }
        var errors: [Int: DeviceActivityCenter.MonitoringError] = [:]
        var useEnd: Int64?
        func advance(to target: Int64) {
            if let end = useEnd, end <= target {
                device.advance(to: Date(timeIntervalSince1970: TimeInterval(end)))
                device.endUse()
                useEnd = nil
            }
            device.advance(to: Date(timeIntervalSince1970: TimeInterval(target)))
        }
        for (index, (at, step)) in timeline.steps.enumerated() {
            advance(to: at)
            switch step {
            case .startMonitoring(let name, let schedule, var events):
                // The same events through the initializer without `includesPastActivity` where it is false.
                for (key, event) in events where !event.includesPastActivity {
                    events[key] = DeviceActivityEvent(
                        applications: event.applications, categories: event.categories, webDomains: event.webDomains,
                        threshold: event.threshold)
                    guard events[key] == event,
                        event.includesAllActivity
                            == (event.applications.isEmpty && event.categories.isEmpty && event.webDomains.isEmpty)
                    else { return HarnessFailure("DeviceActivityEvent's initializers agree", "\(key)") }
                }
                let zone = device.timeZone
                let interval = device.run { schedule.nextInterval }
                guard interval == schedule.nextInterval(at: device.now, in: zone) else {
                    return HarnessFailure(
                        "nextInterval is nextInterval(at: now, in: the device's zone)", "step \(index)")
                }
                do {
                    try center.startMonitoring(name, during: schedule, events: events)
                } catch let error as DeviceActivityCenter.MonitoringError {
                    errors[index] = error
                } catch {
                    return HarnessFailure("startMonitoring throws only MonitoringError", "\(error)")
                }
                if let failure = limits(interval, at: at, authorized: authorized.value, error: errors[index], index) {
                    return failure
                }
                if errors[index] == nil {
                    guard center.schedule(for: name) == schedule, center.events(for: name) == events else {
                        return HarnessFailure("schedule(for:) and events(for:) answer what startMonitoring was given")
                    }
                }
            case .stopMonitoring(let names): center.stopMonitoring(names)
            case .use(let until, let foreground):
                let next = index + 1 < timeline.steps.count ? timeline.steps[index + 1].at : timeline.until
                if until <= next, index % 2 == 0 {
                    // No call during the use: the one-call form.
                    device.use(foreground, for: TimeInterval(until - at))
                    guard !device.isInUse else { return HarnessFailure("use(_:for:) leaves the device idle") }
                } else {
                    device.beginUse(foreground)
                    guard device.isInUse else { return HarnessFailure("beginUse puts the device in use") }
                    useEnd = until
                }
            case .setTimeZone(let zone): device.setTimeZone(zone)
            case .revoke:
                authorized.value = false
                device.revokeAuthorization()
            case .authorize:
                authorized.value = true
                device.setAuthorization { true }
            }
        }
        advance(to: timeline.until)
        let engine = result.records.map(\.callback)
        guard device.callbacks == engine else {
            return HarnessFailure(
                "the simulator and DeviceActivityCenter deliver what the engine run delivers",
                "simulator \(device.callbacks), engine \(engine)")
        }
        for callback in engine where !callback.description.hasPrefix(ActivityMoment.format(callback.seconds) + " ") {
            return HarnessFailure("a callback's description starts with its moment", callback.description)
        }
        guard recorder.calls == engine.map(name) else {
            return HarnessFailure("the monitor is called once per recorded callback", "\(recorder.calls)")
        }
        guard errors == result.errors else {
            return HarnessFailure(
                "the center throws what the engine threw", "center \(errors), engine \(result.errors)")
        }
        device.clearCallbacks()
        guard device.callbacks.isEmpty else { return HarnessFailure("clearCallbacks forgets the callbacks") }
        guard center.activities == result.activities else {
            return HarnessFailure("the center's activities are the engine's", "\(center.activities)")
        }
        for name in result.activities where center.schedule(for: name) == nil {
            return HarnessFailure("a monitored activity has its schedule", "\(name)")
        }
        return nil
    }

    /// SPEC §8.1's limits, read from `nextInterval` at the call: `nil` is `invalidDateComponents`, under 900 s
    /// `intervalTooShort`, over a week `intervalTooLong` (authorization first; components and durations may fail
    /// even with an interval).
    static func limits(
        _ interval: DateInterval?, at: Int64, authorized: Bool, error: DeviceActivityCenter.MonitoringError?,
        _ index: Int
    ) -> HarnessFailure? {
        if !authorized { return error == .unauthorized ? nil : HarnessFailure("unauthorized first", "step \(index)") }
        guard let interval else {
            return error == .invalidDateComponents
                ? nil
                : HarnessFailure("no interval is invalidDateComponents", "step \(index): \(String(describing: error))")
        }
        let start = Int64(interval.start.timeIntervalSince1970)
        let end = Int64(interval.end.timeIntervalSince1970)
        guard end > at, end > start else {
            return HarnessFailure(
                "nextInterval ends after the moment and after its start", "step \(index): \(interval)")
        }
        if error == .invalidDateComponents { return nil }  // a negative warning or threshold
        let seconds = end - start
        let expected: DeviceActivityCenter.MonitoringError? =
            seconds < 900 ? .intervalTooShort : seconds > 604_800 ? .intervalTooLong : nil
        if let expected {
            return error == expected
                ? nil : HarnessFailure("\(expected) for \(seconds) s", "step \(index): \(String(describing: error))")
        }
        guard error == nil || error == .excessiveActivities else {
            return HarnessFailure(
                "a valid interval throws only excessiveActivities", "step \(index): \(String(describing: error))")
        }
        return nil
    }

    final class Authorization: @unchecked Sendable {
        var value: Bool
        init(_ value: Bool) { self.value = value }
    }
}
