import Foundation
import ScreenTimeActivity
import _FuzzCore

/// A documented way in which SPEC §8.1's matching differs from Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)`
/// in a Gregorian calendar (measured on swift-corelibs-foundation 6.3 by `activity-calendar`). Each is detected on
/// the case's structure (the components, the zone's offsets around the answers), never on the difference alone.
/// `.nextTime` is the policy iOS's scheduler is documented to resemble; the spec's rules are deliberate
/// (Assumption A17, A18), so where Foundation answers otherwise the spec wins and the difference is named here.
public enum CalendarDeviation: String, CaseIterable, Sendable {
    /// §8.1 "A day that a month lacks (`day: 31` in April, `month: 2, day: 30`) is no match in that month"
    /// (Assumption A18). Foundation's `.nextTime` answers the first moment after the missing day instead: local
    /// midnight of the 1st of the next month, whatever the time components say (`{day: 31, hour: 9}` after 1 April
    /// is 1 May 00:00 for Foundation, 31 May 09:00 for us). Also when `weekday` is given with `day`:
    /// `{day: 31, weekday: 1, hour: 3}` after 15 January 2026 is 1 March 00:00 for Foundation (February has no
    /// 31st), 31 May 03:00 for us. The answer may even break a given year: `{year: 2025, month: 4, day: 31,
    /// minute: 0}` after February 2026 is 1 May 2026 00:00 for Foundation, `nil` for us.
    case missingDay
    /// §8.1 "A local time that a daylight-saving gap skips is moved forward by the gap's length (02:30 on a
    /// spring-forward night with a one-hour gap is 03:30: the smaller components are preserved)" (Assumption
    /// A18). Foundation's `.nextTime` answers the first moment after the gap (03:00); or, where the gap ends inside
    /// an hour (Pacific/Chatham's 02:45 → 03:45), the first hour that begins after it (`{hour: 3, minute: 3}` and
    /// `{hour: 2, minute: 50}` on Chatham's spring-forward night are 04:00 CHADT for Foundation, 04:03 and 03:50
    /// for us); or, in zones whose gap is not one hour (Australia/Lord_Howe's 30 minutes), skips to the next day's
    /// match.
    case gapMovesForward
    /// §8.1 "A local date and time matches the components when every given component equals it", `weekday` at the
    /// day's rank (Assumption A18). Given `weekday` with a date component (`year`, `month` or `day`), Foundation's
    /// `.nextTime` answers a later match, a date where one of them does not hold, or `nil`:
    /// `{day: 6, weekday: 6, hour: 12}` after 4 April 2026 in America/Santiago is Friday 1 May 00:00 for Foundation,
    /// Friday 6 November 12:00 for us; `{month: 1, weekday: 1, hour: 0, minute: 7, second: 0}` after 1 January 2026 08:23 in Europe/London is
    /// 3 January 2027 for Foundation, Sunday 4 January 2026 00:07 for us; `{year: 2029, month: 10, day: 16,
    /// weekday: 5}` (a Tuesday, so no date) is 1 November 2029 00:00 for Foundation, `nil` for us.
    case weekdayWithDate
    /// §8.1 "A unit that is not given is free when a smaller unit is given" (Assumption A18). Foundation holds a
    /// unit that lies between two given ones at its least value instead: `{hour: 0, second: 0}` after 00:43:10 is
    /// 00:44:00 for us (every minute of hour 0) and 00:00:00 the next day for Foundation. Detected when a unit
    /// not given lies between two given ones and Foundation's answer is our first match of the components with every such
    /// unit at its least value (or `nil`, when that finds nothing: `{year: 2025, second: 0}` late in 2025, and
    /// `{year: 2029, day: 6, weekday: 6, hour: 12}`, read as 6 January 2029, a Saturday, where we answer Friday 6
    /// April 2029 12:00). Foundation may answer the second occurrence of that reading in an overlap (as in
    /// ``overlapFirstOccurrence``): `{hour: 1, second: 0}` after 01:50:40 EDT on 1 November 2026 in New York is
    /// 01:00:00 EST for Foundation, 01:51:00 EDT for us. Or another deviation of that reading:
    /// `{day: 31, second: 48}` after 06:36:20 on 31 October 2026 is 1 December 00:00 for Foundation (its 31st
    /// at 00:00:48 has passed, and November has no 31st: ``missingDay``), 06:36:48 for us.
    case freeUnitBetweenGiven
    /// §8.1 "a local time that an overlap repeats is its first occurrence" (Assumption A18). When the moment lies
    /// between the two occurrences, Foundation (even with `repeatedTimePolicy: .first`) answers the second one:
    /// `{hour: 1, minute: 30}` after 01:50:40 EDT on 1 November 2026 in America/New_York is 01:30 EST that night
    /// for Foundation, 01:30 EST on 2 November for us (the first 01:30 of 1 November has passed). Detected when
    /// Foundation's answer is a wall time that an overlap repeats, at its second occurrence, and a match.
    case overlapFirstOccurrence
    /// §8.1 "A local date and time matches the components when every given component equals it" (and
    /// `nextInterval` is `nil` "when either does not exist"). When the given year and month have no match left
    /// after the moment, Foundation's `.nextTime` answers the first moment of the following month, which the
    /// components do not match: `{year: 2026, month: 4, day: 2, hour: 0}` after 3 April 2026 08:23 in
    /// Australia/Sydney is 1 May 2026 00:00 for Foundation, `nil` for us. Detected when Foundation's answer is the
    /// first moment of a 1st, no match, and before ours (or ours is `nil`).
    case firstOfNextMonthIsNoMatch
    /// §8.1's gap rule again ("A local time that a daylight-saving gap skips is moved forward by the gap's
    /// length"), where the components match no skipped time: Foundation's `.nextTime` may answer the gap's end
    /// anyway. `{weekday: 7, hour: 0}` after Saturday 7 March 2026 06:44 in America/Havana (whose gap skips
    /// Sunday's midnight) is Sunday 8 March 01:00 for Foundation, Saturday 14 March 00:00 for us. Detected when
    /// Foundation's answer is a gap's end, no match, and before ours.
    case gapEndIsNoMatch
    /// §8.1 "a component outside its range … or no component at all … makes the components match no date"
    /// (Assumption A17): ours answers `nil`. Foundation answers a date for some of these.
    case outOfRangeMatchesNothing

    /// The deviation that explains why ours and Foundation's answers differ for this case, or `nil`.
    static func explain(
        _ c: CalendarDifferential.Case, pattern: ComponentPattern?, ours: Int64?, foundation: Int64?
    ) -> CalendarDeviation? {
        let zone = ZoneOffsets(zone: c.zone)
        guard let pattern else { return foundation != nil ? .outOfRangeMatchesNothing : nil }
        if ours != nil, let filled = LocalMatch.unitsBetweenGivenAtLeast(pattern) {
            let filledFirst = filled.firstMatch(after: c.at, zone: zone)
            // That reading, or another deviation of it (the filled pattern has no unit between given ones left).
            if foundation == filledFirst
                || explain(c, pattern: filled, ours: filledFirst, foundation: foundation) != nil
            {
                return .freeUnitBetweenGiven
            }
        }
        let weekdayWithDate = pattern.weekday != nil && pattern.namesDate
        guard let foundation else { return weekdayWithDate && ours != nil ? .weekdayWithDate : nil }
        if foundation > c.at, ours.map({ foundation < $0 }) ?? true,
            isFirstOfMonthAfterMissingDay(foundation, pattern, zone)
        {
            return .missingDay
        }
        if weekdayWithDate,
            ours.map({ foundation > $0 }) ?? false || !LocalMatch.matches(pattern, zone.local(at: foundation))
        {
            return .weekdayWithDate
        }
        if ours.map({ foundation < $0 }) ?? true, isSecondOccurrence(foundation, zone),
            LocalMatch.matches(pattern, zone.local(at: foundation))
        {
            return .overlapFirstOccurrence
        }
        if let ours, let gapEnd = gapEnd(containing: ours, zone) {
            // Foundation answers the gap's end, the first hour that begins after it, or the match after ours (it
            // skipped the day of the gap).
            if foundation == gapEnd || foundation == firstHourStart(atOrAfter: gapEnd, zone)
                || foundation == pattern.firstMatch(after: ours, zone: zone)
            {
                return .gapMovesForward
            }
        }
        if ours.map({ foundation < $0 }) ?? true, foundation > c.at, gapEnd(containing: foundation, zone) == foundation,
            !LocalMatch.matches(pattern, zone.local(at: foundation))
        {
            return .gapEndIsNoMatch
        }
        if ours.map({ foundation < $0 }) ?? true, foundation > c.at,
            !LocalMatch.matches(pattern, zone.local(at: foundation)), isFirstMomentOfMonth(foundation, zone)
        {
            return .firstOfNextMonthIsNoMatch
        }
        return nil
    }

    /// Foundation's `.nextTime` answer for a missing day: the first moment of the 1st of a month whose previous
    /// month lacks the pattern's day, that month allowed by the pattern's year and month.
    static func isFirstOfMonthAfterMissingDay(_ t: Int64, _ p: ComponentPattern, _ zone: ZoneOffsets) -> Bool {
        guard let day = p.day else { return false }
        let local = zone.local(at: t)
        let days = CivilTime.floorDiv(local, CivilTime.secondsPerDay)
        let (y, m, d) = CivilTime.date(days: days)
        guard d == 1 else { return false }
        // The first moment of the day: midnight, or the end of a gap that skips midnight.
        let firstMoment = local - days * CivilTime.secondsPerDay == 0 || gapEnd(containing: t, zone) == t
        guard firstMoment else { return false }
        let (py, pm) = m == 1 ? (y - 1, 12) : (y, m - 1)
        // Not the year: Foundation's answer may be in another year than a given one.
        if let month = p.month, month != pm { return false }
        return day > CivilTime.daysIn(month: pm, year: py)
    }

    /// Whether `t` is the first moment of the 1st of a month: local midnight, or the end of a gap that skips it.
    static func isFirstMomentOfMonth(_ t: Int64, _ zone: ZoneOffsets) -> Bool {
        let local = zone.local(at: t)
        let days = CivilTime.floorDiv(local, CivilTime.secondsPerDay)
        guard CivilTime.date(days: days).day == 1 else { return false }
        return local - days * CivilTime.secondsPerDay == 0 || gapEnd(containing: t, zone) == t
    }

    /// Whether the wall time at `t` occurred before, `L` seconds earlier, for an overlap of `L` seconds.
    static func isSecondOccurrence(_ t: Int64, _ zone: ZoneOffsets) -> Bool {
        let length = zone.offset(at: t - 3 * 3600) - zone.offset(at: t)
        return length > 0 && zone.local(at: t - length) == zone.local(at: t)
    }

    /// The first moment at or after `t` whose local time is a whole hour, read with the offset at `t` (the moment
    /// after a gap's end, before any other change of offset).
    static func firstHourStart(atOrAfter t: Int64, _ zone: ZoneOffsets) -> Int64 {
        let local = zone.local(at: t)
        let intoHour = local - CivilTime.floorDiv(local, 3600) * 3600
        return intoHour == 0 ? t : t + 3600 - intoHour
    }

    /// When `t` lies in `[g, g + L)` for a gap that ends at `g` and skipped `L` seconds of wall time: `g`.
    static func gapEnd(containing t: Int64, _ zone: ZoneOffsets) -> Int64? {
        let after = zone.offset(at: t)
        let before = zone.offset(at: t - 3 * 3600)
        guard after > before else { return nil }
        let length = after - before
        guard zone.offset(at: t - length) == before else { return nil }
        // The first instant with the later offset, in (t - length, t].
        var lo = t - length  // offset before
        var hi = t  // offset after
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if zone.offset(at: mid) == after { hi = mid } else { lo = mid }
        }
        return hi
    }
}
