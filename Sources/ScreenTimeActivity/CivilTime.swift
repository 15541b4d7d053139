import Foundation

/// Proleptic Gregorian civil arithmetic on whole seconds, without `Calendar`: the reference's own, so that the
/// `activity-calendar` fuzz target can check it against Foundation's `Calendar` (SPEC.md §8.1).
///
/// A *local* second count is a wall-clock time read as if it were UTC: `localSeconds(2026, 3, 8, 2, 30, 0)` is
/// the seconds from 1970-01-01 00:00:00 to 2026-03-08 02:30:00 on any wall clock.
package enum CivilTime {
    package static let secondsPerDay: Int64 = 86_400

    /// Days from 1970-01-01 to the given date (the days-from-civil algorithm; valid for every year ≥ 1).
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day count from 1970-01-01 (inverse of ``days(year:month:day:)``).
    package static func date(days z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    /// 1 = Sunday … 7 = Saturday, as `DateComponents.weekday` (1970-01-01 was a Thursday).
    package static func weekday(days: Int64) -> Int {
        Int(((days % 7) + 7 + 4) % 7) + 1
    }

    package static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Floor division for the negative local times of years before 1970.
    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    package static func localSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        days(year: year, month: month, day: day) * secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
    }
}

/// A time zone's offsets, read from Foundation's `TimeZone` one instant at a time, and the conversion of a wall
/// time to an instant by SPEC.md §8.1's rule: a time a gap skips moves forward by the gap (it is read with the
/// offset in force before the gap), a time an overlap repeats is its first occurrence.
package struct ZoneOffsets {
    package let zone: TimeZone
    package init(zone: TimeZone) { self.zone = zone }

    /// Seconds east of UTC at a UTC instant.
    package func offset(at instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
    }

    /// The wall time at a UTC instant, as a local second count.
    package func local(at instant: Int64) -> Int64 { instant + offset(at: instant) }

    /// The instant of a wall time (a local second count). Looks at the offsets a day either side, so it assumes
    /// no two offset changes within a day, which holds for every zone in use.
    package func instant(ofLocal local: Int64) -> Int64 {
        let before = offset(at: local - CivilTime.secondsPerDay)
        let after = offset(at: local + CivilTime.secondsPerDay)
        if before == after { return local - before }
        let beforeHolds = offset(at: local - before) == before
        let afterHolds = offset(at: local - after) == after
        switch (beforeHolds, afterHolds) {
        case (true, true): return min(local - before, local - after)  // an overlap: its first occurrence
        case (true, false): return local - before
        case (false, true): return local - after
        case (false, false): return local - before  // a gap: the offset before it, so the time moves forward
        }
    }

    /// The offsets either side of the one change of offset between two instants, and the instant it happens, found
    /// by bisection: so that the wall times of a day with a change map to instants without a lookup each (the same
    /// answers as ``instant(ofLocal:)`` when the window holds one change).
    package func oneChange(from start: Int64, to end: Int64) -> OneOffsetChange {
        let before = offset(at: start)
        let after = offset(at: end)
        var low = start  // offset `before`
        var high = end  // offset `after`
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(at: middle) == before { low = middle } else { high = middle }
        }
        return OneOffsetChange(before: before, after: after, change: high)
    }
}

/// Two offsets and the instant the second takes over (``ZoneOffsets/oneChange(from:to:)``).
package struct OneOffsetChange: Sendable {
    let before: Int64
    let after: Int64
    let change: Int64

    /// The instant of a wall time by SPEC.md §8.1's rule (a gap moves forward, an overlap is its first occurrence).
    func instant(ofLocal local: Int64) -> Int64 {
        let early = local - before
        let late = local - after
        switch (early < change, late >= change) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early
        }
    }
}
