import Foundation

/// When to monitor: a calendar-based interval from `intervalStart` to `intervalEnd`, repeating or once, with an
/// optional warning time (mirrors `DeviceActivity.DeviceActivitySchedule`).
///
/// The interval is found by matching the components on the wall clock (SPEC.md §8.1): the latest start at most a
/// week ago whose end is still ahead (the ongoing interval), or else the next start, each with the first end after
/// its start. So an end earlier in the day than the start is on the next day, and 00:00 is the midnight after the
/// start. Source: Apple: DeviceActivitySchedule, Apple: DeviceActivitySchedule.nextInterval.
///
/// ```swift
/// let night = DeviceActivitySchedule(
///     intervalStart: DateComponents(hour: 21), intervalEnd: DateComponents(hour: 7), repeats: true)
/// night.nextInterval   // 21:00 today (or the one under way) to 07:00 the morning after
/// ```
public struct DeviceActivitySchedule: Hashable, Codable, Sendable {
    public let intervalStart: DateComponents
    public let intervalEnd: DateComponents
    /// Whether the schedule recurs; with `false`, callbacks stop after the first interval ends.
    public let repeats: Bool
    /// How long before the start, the end and each threshold the warnings come.
    public let warningTime: DateComponents?

    /// A schedule. Source: Apple: DeviceActivitySchedule.init(intervalStart:intervalEnd:repeats:warningTime:).
    public init(
        intervalStart: DateComponents, intervalEnd: DateComponents, repeats: Bool, warningTime: DateComponents? = nil
    ) {
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.repeats = repeats
        self.warningTime = warningTime
    }

    /// The interval under way or the next one, at the clock of ``DeviceActivitySimulator/current`` and in its
    /// time zone; `nil` when the components match no future date. Source: Apple: DeviceActivitySchedule.nextInterval.
    public var nextInterval: DateInterval? {
        let simulator = DeviceActivitySimulator.current
        return nextInterval(at: simulator.now, in: simulator.timeZone)
    }

    /// The interval under way at `moment` or the next one, reading components without a zone in `zone`. (Ours:
    /// iOS asks the system clock.)
    ///
    /// - Parameters:
    ///   - moment: The moment to look from.
    ///   - zone: The device's time zone.
    /// - Returns: The interval, or `nil` when the components match no date (SPEC.md §8.1).
    public func nextInterval(at moment: Date, in zone: TimeZone) -> DateInterval? {
        guard let (start, end) = intervalSeconds(at: Int64(moment.timeIntervalSince1970.rounded(.down)), in: zone)
        else { return nil }
        return DateInterval(
            start: Date(timeIntervalSince1970: TimeInterval(start)), end: Date(timeIntervalSince1970: TimeInterval(end))
        )
    }

    /// ``nextInterval(at:in:)`` in whole UTC seconds, or `nil` when the components or the warning time are invalid
    /// or match no date (the wire's `activity.schedule` answers from it).
    package func intervalSeconds(at moment: Int64, in zone: TimeZone) -> (start: Int64, end: Int64)? {
        guard let plan = SchedulePlan(self), let interval = plan.interval(at: moment, deviceZone: zone) else {
            return nil
        }
        return (interval.start, interval.end)
    }
}

/// A schedule as the engine uses it: validated patterns and durations in seconds (SPEC.md §8.1).
struct SchedulePlan: Hashable, Sendable {
    let start: ComponentPattern
    let end: ComponentPattern
    let repeats: Bool
    /// 0 when there is no warning.
    let warningSeconds: Int64

    /// The plan of a schedule, or `nil` when its components or warning time are invalid
    /// (`invalidDateComponents`).
    init?(_ schedule: DeviceActivitySchedule) {
        guard let start = ComponentPattern(schedule.intervalStart), let end = ComponentPattern(schedule.intervalEnd)
        else { return nil }
        var warning: Int64 = 0
        if let warningTime = schedule.warningTime {
            guard let seconds = DurationComponents.seconds(warningTime) else { return nil }
            warning = seconds
        }
        self.init(start: start, end: end, repeats: schedule.repeats, warningSeconds: warning)
    }

    init(start: ComponentPattern, end: ComponentPattern, repeats: Bool, warningSeconds: Int64) {
        self.start = start
        self.end = end
        self.repeats = repeats
        self.warningSeconds = warningSeconds
    }

    /// One side names a date and the other does not (SPEC.md §8.1, Assumption A20).
    var isMixed: Bool { start.namesDate != end.namesDate }

    /// The interval under way at `now` (a start at most a week back whose end is after `now`), else the next.
    func interval(at now: Int64, deviceZone: TimeZone) -> ActivityInterval? {
        let startZone = ZoneOffsets(zone: start.timeZone ?? deviceZone)
        let endZone = ZoneOffsets(zone: end.timeZone ?? deviceZone)
        if let s = start.latestMatch(atOrBefore: now, notBefore: now - ActivityLimits.longest, zone: startZone),
            let e = end.firstMatch(after: s, zone: endZone), e > now
        {
            return ActivityInterval(start: s, end: e, startZone: startZone)
        }
        guard let s = start.firstMatch(after: now, zone: startZone), let e = end.firstMatch(after: s, zone: endZone)
        else { return nil }
        return ActivityInterval(start: s, end: e, startZone: startZone)
    }
}

/// One interval `[start, end)` in UTC seconds, and the zone its start was read in (for the round hour of
/// `includesPastActivity`).
struct ActivityInterval: Hashable, Sendable {
    let start: Int64
    let end: Int64
    let startZone: ZoneOffsets

    var seconds: Int64 { end - start }

    /// The start of the local hour holding `start` (SPEC.md §8.4).
    var roundHourBeforeStart: Int64 {
        let local = startZone.local(at: start)
        return start - (local - CivilTime.floorDiv(local, 3600) * 3600)
    }
}

extension ZoneOffsets: Hashable {
    package static func == (a: ZoneOffsets, b: ZoneOffsets) -> Bool { a.zone == b.zone }
    package func hash(into hasher: inout Hasher) { hasher.combine(zone.identifier) }
}

/// The limits `startMonitoring` checks. Source: Apple: DeviceActivityCenter.MonitoringError.
enum ActivityLimits {
    static let shortest: Int64 = 15 * 60
    static let longest: Int64 = 7 * 86_400
    static let activities = 20
}

/// Durations given as date components (SPEC.md §8.1, Assumption A21).
enum DurationComponents {
    /// `day`, `hour`, `minute` and `second` summed in seconds; `nil` when one is negative.
    static func seconds(_ components: DateComponents) -> Int64? {
        seconds(day: components.day, hour: components.hour, minute: components.minute, second: components.second)
    }

    static func seconds(day: Int?, hour: Int?, minute: Int?, second: Int?) -> Int64? {
        let parts = [(day, 86_400), (hour, 3600), (minute, 60), (second, 1)]
        var total: Int64 = 0
        for (value, unit) in parts {
            guard let value else { continue }
            guard value >= 0 else { return nil }
            let (product, overflow) = Int64(value).multipliedReportingOverflow(by: Int64(unit))
            guard !overflow else { return nil }
            let (sum, overflow2) = total.addingReportingOverflow(product)
            guard !overflow2 else { return nil }
            total = sum
        }
        return total
    }
}
