import Foundation

/// The date components of a schedule's start or end as the reference matches them (SPEC.md §8.1): the eight it
/// reads, validated, with the rule of free and least units.
///
/// ```swift
/// let nine = ComponentPattern(DateComponents(hour: 9))!          // 09:00:00 every day
/// nine.firstMatch(after: now, zone: ZoneOffsets(zone: .current))
/// ```
package struct ComponentPattern: Hashable, Sendable {
    package var year: Int?
    package var month: Int?
    package var day: Int?
    package var weekday: Int?
    package var hour: Int?
    package var minute: Int?
    package var second: Int?
    /// The zone the components are read in; `nil` for the device's.
    package var timeZone: TimeZone?

    /// A pattern from its parts, or `nil` when they match no date: no component at all, or one out of its range
    /// (`hour: 24` included). Source: SPEC.md §8.1, Assumption A17.
    package init?(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil, hour: Int? = nil,
        minute: Int? = nil, second: Int? = nil, timeZone: TimeZone? = nil
    ) {
        func inRange(_ value: Int?, _ range: ClosedRange<Int>) -> Bool { value.map(range.contains) ?? true }
        guard [year, month, day, weekday, hour, minute, second].contains(where: { $0 != nil }),
            inRange(year, 1...9999), inRange(month, 1...12), inRange(day, 1...31), inRange(weekday, 1...7),
            inRange(hour, 0...23), inRange(minute, 0...59), inRange(second, 0...59)
        else { return nil }
        (self.year, self.month, self.day, self.weekday) = (year, month, day, weekday)
        (self.hour, self.minute, self.second, self.timeZone) = (hour, minute, second, timeZone)
    }

    /// The pattern of `DateComponents`, or `nil` when they match no date: besides the rules of the memberwise
    /// initializer, any component the reference does not read (era, quarter, week of year, nanosecond, …) or a
    /// calendar other than the Gregorian one. Source: SPEC.md §8.1, Assumption A17.
    package init?(_ components: DateComponents) {
        if let calendar = components.calendar, calendar.identifier != .gregorian { return nil }
        let unread: [Int?] = [
            components.era, components.quarter, components.weekOfMonth, components.weekOfYear,
            components.yearForWeekOfYear, components.weekdayOrdinal, components.nanosecond,
        ]
        guard !unread.contains(where: { $0 != nil }), components.isLeapMonth != true else { return nil }
        self.init(
            year: components.year, month: components.month, day: components.day, weekday: components.weekday,
            hour: components.hour, minute: components.minute, second: components.second,
            timeZone: components.timeZone)
    }

    /// Whether the pattern names a date (`year`, `month` or `day`): a schedule whose start and end differ in this
    /// is of mixed kinds (SPEC.md §8.1, Assumption A20).
    package var namesDate: Bool { year != nil || month != nil || day != nil }

    // MARK: Candidates

    private var timeGiven: Bool { hour != nil || minute != nil || second != nil }

    /// The seconds of the day that match, in increasing order: a unit not given is free when a smaller unit is
    /// given and 0 otherwise.
    var secondsOfDay: [Int64] {
        let seconds = second.map { [$0] } ?? [0]
        let minutes = minute.map { [$0] } ?? (second != nil ? Array(0...59) : [0])
        let hours = hour.map { [$0] } ?? (minute != nil || second != nil ? Array(0...23) : [0])
        var out: [Int64] = []
        out.reserveCapacity(hours.count * minutes.count * seconds.count)
        for h in hours { for m in minutes { for s in seconds { out.append(Int64(h * 3600 + m * 60 + s)) } } }
        return out
    }

    /// Whether a day (a count from 1970-01-01) matches the date-level components.
    func dayMatches(_ dayCount: Int64) -> Bool {
        let (y, m, d) = CivilTime.date(days: dayCount)
        if let year, year != y { return false }
        if let month {
            if month != m { return false }
        } else if day == nil && weekday == nil && !timeGiven && m != 1 {
            return false  // month at its least value: nothing smaller is given
        }
        if let day {
            if day != d { return false }
        } else if weekday == nil && !timeGiven && d != 1 {
            return false  // day at its least value
        }
        if let weekday, weekday != CivilTime.weekday(days: dayCount) { return false }
        return true
    }

    /// The days to try from `first`, forward, skipping whole years and months that cannot match, up to the end
    /// of year 9999.
    func days(from first: Int64) -> some Sequence<Int64> {
        let lastDay = CivilTime.days(year: 9999, month: 12, day: 31)
        var next = first
        return AnySequence {
            AnyIterator { () -> Int64? in
                while next <= lastDay {
                    let (y, m, d) = CivilTime.date(days: next)
                    if let year, y != year {
                        if y > year { return nil }
                        next = CivilTime.days(year: year, month: 1, day: 1)
                        continue
                    }
                    if let month, m != month {
                        if m < month {
                            next = CivilTime.days(year: y, month: month, day: 1)
                        } else {
                            if y >= 9999 { return nil }
                            next = CivilTime.days(year: y + 1, month: month, day: 1)
                        }
                        continue
                    }
                    if let day, d != day {
                        if d < day && day <= CivilTime.daysIn(month: m, year: y) {
                            next = CivilTime.days(year: y, month: m, day: day)
                        } else {
                            next =
                                CivilTime.days(year: y, month: m, day: 1) + Int64(CivilTime.daysIn(month: m, year: y))
                        }
                        continue
                    }
                    let candidate = next
                    next += 1
                    if dayMatches(candidate) { return candidate }
                }
                return nil
            }
        }
    }

    // MARK: Matches

    /// The first instant after `instant` (UTC seconds) whose wall time in `zone` matches, or `nil`.
    package func firstMatch(after instant: Int64, zone: ZoneOffsets) -> Int64? {
        let times = secondsOfDay
        let startDay = CivilTime.floorDiv(zone.local(at: instant), CivilTime.secondsPerDay) - 1
        var best: Int64?
        var bestDay: Int64?
        for day in days(from: startDay) {
            // A gap can move a late time of one day past the first time of the next: look one day further.
            if let bestDay, day > bestDay + 1 { break }
            if let found = earliest(in: day, times: times, after: instant, zone: zone) {
                best = min(best ?? found, found)
                if bestDay == nil { bestDay = day }
            }
        }
        return best
    }

    /// The latest instant at or before `instant` and not before `notBefore` whose wall time matches, or `nil`.
    package func latestMatch(atOrBefore instant: Int64, notBefore: Int64, zone: ZoneOffsets) -> Int64? {
        let times = secondsOfDay
        let lastDay = CivilTime.floorDiv(zone.local(at: instant), CivilTime.secondsPerDay) + 1
        let firstDay = max(
            CivilTime.floorDiv(zone.local(at: notBefore), CivilTime.secondsPerDay) - 1,
            CivilTime.days(year: 1, month: 1, day: 1))
        var best: Int64?
        var foundDay: Int64?
        var day = lastDay
        while day >= firstDay {
            // A gap can move a late time of the day before past the times of this one: look one day further.
            if let foundDay, day < foundDay - 1 { break }
            if dayMatches(day),
                let found = latest(in: day, times: times, atOrBefore: instant, notBefore: notBefore, zone: zone)
            {
                best = max(best ?? found, found)
                if foundDay == nil { foundDay = day }
            }
            day -= 1
        }
        return best
    }

    private func latest(
        in day: Int64, times: [Int64], atOrBefore instant: Int64, notBefore: Int64, zone: ZoneOffsets
    ) -> Int64? {
        let base = day * CivilTime.secondsPerDay
        let startOffset = zone.offset(at: base - CivilTime.secondsPerDay)
        let endOffset = zone.offset(at: base + 2 * CivilTime.secondsPerDay)
        if startOffset == endOffset {
            for t in times.reversed() where base + t - startOffset <= instant {
                let candidate = base + t - startOffset
                return candidate >= notBefore ? candidate : nil
            }
            return nil
        }
        let mapping = zone.oneChange(from: base - CivilTime.secondsPerDay, to: base + 2 * CivilTime.secondsPerDay)
        var best: Int64?
        for t in times {
            let candidate = mapping.instant(ofLocal: base + t)
            if candidate <= instant && candidate >= notBefore { best = max(best ?? candidate, candidate) }
        }
        return best
    }

    private func earliest(in day: Int64, times: [Int64], after instant: Int64, zone: ZoneOffsets) -> Int64? {
        let base = day * CivilTime.secondsPerDay
        let startOffset = zone.offset(at: base - CivilTime.secondsPerDay)
        let endOffset = zone.offset(at: base + 2 * CivilTime.secondsPerDay)
        if startOffset == endOffset {
            // No change of offset near this day: times map in order, so the first one after `instant` is it.
            for t in times where base + t - startOffset > instant { return base + t - startOffset }
            return nil
        }
        let mapping = zone.oneChange(from: base - CivilTime.secondsPerDay, to: base + 2 * CivilTime.secondsPerDay)
        var best: Int64?
        for t in times {
            let candidate = mapping.instant(ofLocal: base + t)
            if candidate > instant { best = min(best ?? candidate, candidate) }
        }
        return best
    }
}
