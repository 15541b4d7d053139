import BlockerApp
import Foundation
import ScreenTimeReference
import Testing

/// The app's scheduling code and its monitor, driven through the reference's DeviceActivity simulator: the bedtime
/// schedule across midnight and the night the clocks go back, the daily limit, and a break (with field bug 15).
@Suite struct SchedulingTests {
    let newYork = TimeZone(identifier: "America/New_York")!
    let game = ApplicationToken(bytes: Array("app:game".utf8))

    func moment(_ text: String) -> Date { Date(timeIntervalSince1970: TimeInterval(ActivityMoment.parse(text)!)) }

    func device(at text: String) -> (DeviceActivitySimulator, BlockerMonitor) {
        let store = ManagedSettingsStore(environment: ScreenTimeEnvironment())
        let monitor = BlockerMonitor(store: store, selection: FamilyActivitySelection(applicationTokens: [game]))
        return (DeviceActivitySimulator(now: moment(text), timeZone: newYork, monitor: monitor), monitor)
    }

    /// 21:00 to 07:00 on the night of 1 November 2026, when New York's clocks go back an hour at 02:00: the
    /// interval is 11 hours, starts at the first use after 21:00, ends at the first use after 07:00.
    @Test func bedtimeAcrossMidnightAndTheClocksGoingBack() throws {
        let (device, monitor) = device(at: "2026-10-31T20:00:00-04:00")
        try device.run {
            try Scheduling.startBedtime(
                from: DateComponents(hour: 21), to: DateComponents(hour: 7), limit: DateComponents(minute: 30),
                on: FamilyActivitySelection(applicationTokens: [game]))
        }
        let schedule = try #require(device.run { DeviceActivityCenter().schedule(for: .bedtime) })
        let interval = try #require(device.run { schedule.nextInterval })
        #expect(interval.start == moment("2026-10-31T21:00:00-04:00"))
        #expect(interval.end == moment("2026-11-01T07:00:00-05:00"))
        #expect(interval.duration == 11 * 3600)

        device.advance(to: moment("2026-10-31T20:57:00-04:00"))
        device.use(.device, for: 60)  // the phone picked up at 20:57: five minutes before, the warning
        device.advance(to: moment("2026-10-31T21:10:00-04:00"))
        device.use(.device, for: 60)  // first use inside the interval: it starts
        #expect(monitor.store.shield.applications == [game])
        device.advance(to: moment("2026-10-31T23:59:30-04:00"))
        device.use(.application(game), for: 60)  // across midnight: a minute of the game counts
        device.advance(to: moment("2026-11-01T01:30:00-04:00"))
        device.use(.application(game), for: 40 * 60)  // 01:30 EDT to 01:10 EST: 29 more minutes reach the limit
        device.advance(to: moment("2026-11-01T07:30:00-05:00"))
        device.use(.device, for: 60)  // first use after 07:00: it ends
        #expect(monitor.store.shield.applications == nil)

        #expect(device.callbacks.map(\.description) == [
            "2026-11-01T00:57:00Z intervalWillStartWarning(bedtime)",
            "2026-11-01T01:10:00Z intervalDidStart(bedtime)",
            "2026-11-01T05:54:00Z eventWillReachThresholdWarning(bedtime, dailyLimit)",
            "2026-11-01T05:59:00Z eventDidReachThreshold(bedtime, dailyLimit)",
            "2026-11-01T12:30:00Z intervalDidEnd(bedtime)",
        ])
    }

    /// A 30-minute break at 22:00 lifts the shields at once (the device is in use) and puts them back at the first
    /// use after 22:30.
    @Test func breakInTheEvening() throws {
        let (device, monitor) = device(at: "2026-03-10T22:00:00-04:00")
        monitor.store.shield.applications = [game]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        device.beginUse(.device)
        device.run { Scheduling.startBreak(minutes: 30, now: device.now, calendar: calendar) }
        device.advance(by: 60)
        #expect(monitor.store.shield.applications == nil)
        device.advance(by: 30 * 60)
        device.endUse()
        #expect(monitor.store.shield.applications == [game])
        #expect(device.callbacks.map(\.kind) == [.intervalDidStart, .intervalDidEnd])
        #expect(device.run { DeviceActivityCenter().activities }.isEmpty)
    }

    /// A 30-minute break at 23:50 should run to 00:20. The app clamps its end to 23:59:59 (field bug 15): the
    /// interval is under 15 minutes, `startMonitoring` throws `intervalTooShort`, the app prints it, and the shields
    /// never come down.
    @Test func breakAcrossMidnight() throws {
        let (device, monitor) = device(at: "2026-03-10T23:50:00-04:00")
        monitor.store.shield.applications = [game]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        device.beginUse(.device)
        device.run { Scheduling.startBreak(minutes: 30, now: device.now, calendar: calendar) }
        device.advance(by: 60)
        withKnownIssue("field bug 15: the break is clamped to 23:59:59 and refused as too short") {
            #expect(device.run { DeviceActivityCenter().activities } == [.breakTime])
            #expect(monitor.store.shield.applications == nil)
        }
    }
}
