import Foundation
import ScreenTimeReference
import Testing

@testable import ScreenTimeActivity

/// SPEC §8: date components, `nextInterval`, `startMonitoring`'s checks, and the simulator's callbacks.
@Suite struct DeviceActivityTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let kolkata = TimeZone(identifier: "Asia/Kolkata")!

    static func at(_ text: String) -> Date { Date(timeIntervalSince1970: TimeInterval(ActivityMoment.parse(text)!)) }
    static func utc(_ date: Date) -> String { ActivityMoment.format(Int64(date.timeIntervalSince1970)) }

    static func interval(_ start: DateComponents, _ end: DateComponents, at moment: String, zone: TimeZone = newYork)
        -> String?
    {
        let schedule = DeviceActivitySchedule(intervalStart: start, intervalEnd: end, repeats: true)
        return schedule.nextInterval(at: at(moment), in: zone).map { utc($0.start) + " " + utc($0.end) }
    }

    // MARK: Civil time and moments

    @Test func civilDaysRoundTripAndWeekdays() {
        for days in stride(from: Int64(-800_000), through: 2_900_000, by: 997) {
            let (y, m, d) = CivilTime.date(days: days)
            #expect(CivilTime.days(year: y, month: m, day: d) == days)
        }
        #expect(CivilTime.weekday(days: 0) == 5)  // 1970-01-01, a Thursday
        #expect(CivilTime.weekday(days: CivilTime.days(year: 2026, month: 12, day: 4)) == 6)  // a Friday
    }

    @Test func momentsParseStrictlyAndFormatInUTC() {
        #expect(ActivityMoment.parse("2026-03-08T02:30:00-05:00") == ActivityMoment.parse("2026-03-08T07:30:00Z"))
        #expect(ActivityMoment.format(ActivityMoment.parse("2026-03-08T02:30:00+05:30")!) == "2026-03-07T21:00:00Z")
        for bad in [
            "2026-02-30T00:00:00Z", "2026-03-08T24:00:00Z", "2026-03-08 02:30:00Z", "2026-03-08T02:30Z",
            "2026-03-08T02:30:00", "2026-03-08T02:30:00+5:30", "0000-01-01T00:00:00Z", "２026-03-08T02:30:00Z",
        ] {
            #expect(ActivityMoment.parse(bad) == nil, "\(bad)")
        }
        #expect(ActivityMoment.format(ActivityMoment.parse("0001-01-01T00:00:00Z")!) == "0001-01-01T00:00:00Z")
    }

    // MARK: Components (§8.1)

    @Test func componentsOutOfRangeOrUnreadMatchNothing() {
        #expect(ComponentPattern(DateComponents(hour: 24)) == nil)
        #expect(ComponentPattern(DateComponents()) == nil)
        #expect(ComponentPattern(DateComponents(minute: 60)) == nil)
        #expect(ComponentPattern(DateComponents(weekday: 0)) == nil)
        #expect(ComponentPattern(DateComponents(hour: 9, weekOfYear: 3)) == nil)
        #expect(ComponentPattern(DateComponents(calendar: Calendar(identifier: .hebrew), hour: 9)) == nil)
        #expect(ComponentPattern(DateComponents(calendar: Calendar(identifier: .gregorian), hour: 9)) != nil)
    }

    @Test func freeAndLeastUnits() throws {
        let zone = ZoneOffsets(zone: TimeZone(identifier: "UTC")!)
        let from = ActivityMoment.parse("2026-12-04T10:15:00Z")!
        func next(_ c: DateComponents) -> String? {
            ComponentPattern(c)!.firstMatch(after: from, zone: zone).map(ActivityMoment.format)
        }
        #expect(next(DateComponents(hour: 9)) == "2026-12-05T09:00:00Z")
        #expect(next(DateComponents(minute: 30)) == "2026-12-04T10:30:00Z")
        #expect(next(DateComponents(second: 5)) == "2026-12-04T10:15:05Z")
        #expect(next(DateComponents(day: 1)) == "2027-01-01T00:00:00Z")
        #expect(next(DateComponents(hour: 21, weekday: 2)) == "2026-12-07T21:00:00Z")  // Monday
        #expect(next(DateComponents(month: 2, day: 29)) == "2028-02-29T00:00:00Z")
        #expect(next(DateComponents(day: 31, hour: 8)) == "2026-12-31T08:00:00Z")
        #expect(next(DateComponents(month: 4, day: 31)) == nil)
        #expect(next(DateComponents(year: 2025, hour: 1)) == nil)
        #expect(next(DateComponents(year: 2027)) == "2027-01-01T00:00:00Z")
    }

    @Test func gapsMoveForwardAndOverlapsTakeTheFirst() {
        let zone = ZoneOffsets(zone: Self.newYork)
        // 2026-03-08: 02:00 EST becomes 03:00 EDT. 02:30 does not exist: it is read as 03:30.
        #expect(
            zone.instant(ofLocal: CivilTime.localSeconds(year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0))
                == ActivityMoment.parse("2026-03-08T03:30:00-04:00"))
        // 2026-11-01: 01:30 happens twice; the first is EDT.
        #expect(
            zone.instant(ofLocal: CivilTime.localSeconds(year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0))
                == ActivityMoment.parse("2026-11-01T01:30:00-04:00"))
    }

    // MARK: nextInterval (§8.1)

    @Test func overnightMidnightAndWholeDayIntervals() {
        #expect(
            Self.interval(DateComponents(hour: 21), DateComponents(hour: 7), at: "2026-06-10T12:00:00-04:00")
                == "2026-06-11T01:00:00Z 2026-06-11T11:00:00Z")
        #expect(
            Self.interval(DateComponents(hour: 22), DateComponents(hour: 0, minute: 0), at: "2026-06-10T12:00:00-04:00")
                == "2026-06-11T02:00:00Z 2026-06-11T04:00:00Z")
        #expect(
            Self.interval(DateComponents(hour: 9), DateComponents(hour: 9), at: "2026-06-10T10:00:00-04:00")
                == "2026-06-10T13:00:00Z 2026-06-11T13:00:00Z")
        // At 08:00 the interval that started yesterday at 09:00 is still under way.
        #expect(
            Self.interval(DateComponents(hour: 9), DateComponents(hour: 9), at: "2026-06-10T08:00:00-04:00")
                == "2026-06-09T13:00:00Z 2026-06-10T13:00:00Z")
        // Ongoing: the start matched last night, the end is still ahead.
        #expect(
            Self.interval(DateComponents(hour: 21), DateComponents(hour: 7), at: "2026-06-11T03:00:00-04:00")
                == "2026-06-11T01:00:00Z 2026-06-11T11:00:00Z")
        #expect(
            Self.interval(DateComponents(hour: 24), DateComponents(hour: 7), at: "2026-06-11T03:00:00-04:00") == nil)
    }

    @Test func daylightSavingChangesTheLengthInSeconds() {
        let spring = Self.interval(DateComponents(hour: 1), DateComponents(hour: 3), at: "2026-03-07T12:00:00-05:00")
        #expect(spring == "2026-03-08T06:00:00Z 2026-03-08T07:00:00Z")  // one hour
        let fall = Self.interval(DateComponents(hour: 1), DateComponents(hour: 3), at: "2026-10-31T12:00:00-04:00")
        #expect(fall == "2026-11-01T05:00:00Z 2026-11-01T08:00:00Z")  // three hours
    }

    @Test func componentsWithTheirOwnZone() {
        var start = DateComponents(hour: 9)
        start.timeZone = Self.kolkata
        // 09:00 in Kolkata is 03:30 UTC; 23:00 in New York (the device's zone) is 03:00 UTC the day after.
        #expect(
            Self.interval(start, DateComponents(hour: 23), at: "2026-06-10T04:00:00Z")
                == "2026-06-10T03:30:00Z 2026-06-11T03:00:00Z")
    }

    // MARK: The center (§8.2)

    func center(at moment: String, monitor: DeviceActivityMonitor? = nil, authorized: Bool = true)
        -> (DeviceActivitySimulator, DeviceActivityCenter)
    {
        let device = DeviceActivitySimulator(
            now: Self.at(moment), timeZone: Self.newYork, monitor: monitor, isAuthorized: { authorized })
        return (device, DeviceActivityCenter(simulator: device))
    }

    static let night = DeviceActivitySchedule(
        intervalStart: DateComponents(hour: 21), intervalEnd: DateComponents(hour: 7), repeats: true)

    @Test func checksComeInOrder() {
        let (_, denied) = center(at: "2026-06-10T12:00:00-04:00", authorized: false)
        let bad = DeviceActivitySchedule(
            intervalStart: DateComponents(hour: 24), intervalEnd: DateComponents(hour: 7), repeats: true)
        #expect(throws: DeviceActivityCenter.MonitoringError.unauthorized) {
            try denied.startMonitoring("a", during: bad)
        }
        let (_, center) = center(at: "2026-06-10T12:00:00-04:00")
        #expect(throws: DeviceActivityCenter.MonitoringError.invalidDateComponents) {
            try center.startMonitoring("a", during: bad)
        }
        let short = DeviceActivitySchedule(
            intervalStart: DateComponents(hour: 23, minute: 50), intervalEnd: DateComponents(hour: 0), repeats: true)
        #expect(throws: DeviceActivityCenter.MonitoringError.intervalTooShort) {
            try center.startMonitoring("a", during: short)
        }
        let long = DeviceActivitySchedule(
            intervalStart: DateComponents(day: 1), intervalEnd: DateComponents(day: 20), repeats: true)
        #expect(throws: DeviceActivityCenter.MonitoringError.intervalTooLong) {
            try center.startMonitoring("a", during: long)
        }
        let negative = DeviceActivitySchedule(
            intervalStart: DateComponents(hour: 9), intervalEnd: DateComponents(hour: 10), repeats: true,
            warningTime: DateComponents(minute: -5))
        #expect(throws: DeviceActivityCenter.MonitoringError.invalidDateComponents) {
            try center.startMonitoring("a", during: negative)
        }
        #expect(center.activities.isEmpty)
    }

    @Test func twentyActivitiesAndTheTwentyFirst() throws {
        let (_, center) = center(at: "2026-06-10T12:00:00-04:00")
        for i in 0..<20 { try center.startMonitoring(DeviceActivityName("a\(i)"), during: Self.night) }
        #expect(throws: DeviceActivityCenter.MonitoringError.excessiveActivities) {
            try center.startMonitoring("a20", during: Self.night)
        }
        try center.startMonitoring("a7", during: Self.night)  // replacing one is not a 21st
        #expect(center.activities.count == 20)
        center.stopMonitoring(["a3", "nobody"])
        #expect(center.activities.count == 19 && !center.activities.contains("a3"))
        center.stopMonitoring()
        #expect(center.activities.isEmpty)
    }

    @Test func scheduleAndEventsAreWhatWasGiven() throws {
        let (_, center) = center(at: "2026-06-10T12:00:00-04:00")
        let event = DeviceActivityEvent(threshold: DateComponents(minute: 30))
        try center.startMonitoring("a", during: Self.night, events: ["limit": event])
        #expect(center.schedule(for: "a") == Self.night)
        #expect(center.events(for: "a") == ["limit": event])
        #expect(center.schedule(for: "b") == nil && center.events(for: "b").isEmpty)
    }

    // MARK: Callbacks (§8.3–§8.5)

    final class Recorder: DeviceActivityMonitor {
        var log: [String] = []
        var stopOnEnd = false
        override func intervalDidStart(for activity: DeviceActivityName) { log.append("start \(activity)") }
        override func intervalDidEnd(for activity: DeviceActivityName) {
            log.append("end \(activity)")
            if stopOnEnd { DeviceActivityCenter().stopMonitoring([activity]) }
        }
        override func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {
            log.append("threshold \(event)")
        }
    }

    @Test func callbacksWaitForUseAndSkippedIntervalsGetNone() throws {
        let recorder = Recorder()
        let (device, center) = center(at: "2026-06-10T20:00:00-04:00", monitor: recorder)
        try center.startMonitoring("night", during: Self.night)
        device.advance(to: Self.at("2026-06-11T08:00:00-04:00"))  // never used in the night
        device.use(for: 60)
        #expect(recorder.log.isEmpty)
        device.advance(to: Self.at("2026-06-11T22:00:00-04:00"))
        device.use(for: 60)
        device.advance(to: Self.at("2026-06-12T09:00:00-04:00"))
        device.use(for: 60)
        #expect(recorder.log == ["start night", "end night"])
        #expect(device.callbacks.map { Self.utc($0.moment) } == ["2026-06-12T02:00:00Z", "2026-06-12T13:00:00Z"])
    }

    @Test func startingInsideAnOngoingIntervalInUseStartsAtOnce() throws {
        let recorder = Recorder()
        let (device, center) = center(at: "2026-06-10T22:00:00-04:00", monitor: recorder)
        device.beginUse()
        try center.startMonitoring("night", during: Self.night)
        device.advance(by: 1)
        #expect(recorder.log == ["start night"])
        center.stopMonitoring(["night"])  // ongoing: its end at once
        #expect(recorder.log == ["start night", "end night"])
    }

    @Test func aMonitorMayStopItsOwnActivityFromACallback() throws {
        let recorder = Recorder()
        recorder.stopOnEnd = true
        let (device, center) = center(at: "2026-06-10T20:00:00-04:00", monitor: recorder)
        try center.startMonitoring("night", during: Self.night)
        device.advance(to: Self.at("2026-06-10T21:30:00-04:00"))
        device.use(for: 60)
        device.advance(to: Self.at("2026-06-11T07:30:00-04:00"))
        device.use(for: 60)
        #expect(recorder.log == ["start night", "end night"])
        #expect(center.activities.isEmpty)
    }

    @Test func mixedKindsGetNoCallback() throws {
        let recorder = Recorder()
        let (device, center) = center(at: "2026-06-10T20:00:00-04:00", monitor: recorder)
        let mixed = DeviceActivitySchedule(
            intervalStart: DateComponents(hour: 21),
            intervalEnd: DateComponents(year: 2026, month: 6, day: 11, hour: 7),
            repeats: false)
        try center.startMonitoring("mixed", during: mixed)
        #expect(center.activities == ["mixed"])
        device.advance(to: Self.at("2026-06-10T22:00:00-04:00"))
        device.use(for: 3600)
        #expect(recorder.log.isEmpty)
    }

    @Test func pastActivityCountsFromTheRoundHourOnlyWhenAsked() throws {
        let app = ApplicationToken(bytes: Array("app:game".utf8))
        for past in [false, true] {
            let recorder = Recorder()
            let (device, center) = center(at: "2026-06-10T13:05:00-04:00", monitor: recorder)
            device.use(.application(app), for: 20 * 60)  // 13:05–13:25, before monitoring
            let schedule = DeviceActivitySchedule(
                intervalStart: DateComponents(hour: 13, minute: 15), intervalEnd: DateComponents(hour: 15),
                repeats: true)
            let event = DeviceActivityEvent(
                applications: [app], threshold: DateComponents(minute: 15), includesPastActivity: past)
            try device.run {
                try DeviceActivityCenter().startMonitoring("lunch", during: schedule, events: ["limit": event])
            }
            device.use(.application(app), for: 60)
            #expect(recorder.log == (past ? ["start lunch", "threshold limit"] : ["start lunch"]), "past: \(past)")
            #expect(center.activities == ["lunch"])
        }
    }

    @Test func nonRepeatingLeavesAtItsEnd() throws {
        let (device, center) = center(at: "2026-06-10T12:00:00-04:00")
        let once = DeviceActivitySchedule(
            intervalStart: DateComponents(hour: 13), intervalEnd: DateComponents(hour: 14), repeats: false)
        try center.startMonitoring("once", during: once)
        device.advance(to: Self.at("2026-06-10T13:59:59-04:00"))
        #expect(center.activities == ["once"])
        device.advance(by: 1)
        #expect(center.activities.isEmpty)
    }

    @Test func nextIntervalReadsTheCurrentSimulator() {
        let device = DeviceActivitySimulator(now: Self.at("2026-06-10T12:00:00-04:00"), timeZone: Self.newYork)
        let interval = device.run { Self.night.nextInterval }
        #expect(interval.map { Self.utc($0.start) } == "2026-06-11T01:00:00Z")
    }
}
