import Foundation
import ScreenTimeActivity
import _FuzzCore

/// `activity-calendar`: one pattern and one moment, our matcher against Foundation's calendar (SPEC §8.1).
///
/// Input: a zone, a moment (``FuzzZones/moment(_:)``), a byte of flags (year, month, day, weekday, hour, minute,
/// second: which are given) and one byte per component, mapped onto a range a little wider than the component's
/// own, so that values just out of range (`hour: 24`, `day: 0`, `month: 13`, `weekday: 8`) come as often as the
/// edges inside it. Years are 2025–2029, or 0, 10000, -1 (out of range).
public enum CalendarDifferential {
    public struct Case: Sendable, CustomStringConvertible {
        public var zone: TimeZone
        public var at: Int64
        public var year, month, day, weekday, hour, minute, second: Int?

        public var components: DateComponents {
            DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, weekday: weekday)
        }

        public var description: String {
            let parts: [(String, Int?)] = [
                ("year", year), ("month", month), ("day", day), ("weekday", weekday), ("hour", hour),
                ("minute", minute), ("second", second),
            ]
            let given = parts.compactMap { name, value in value.map { "\(name): \($0)" } }
            return "{\(given.joined(separator: ", "))} after \(ActivityMoment.format(at)) in \(zone.identifier)"
        }
    }

    public struct Outcome: Sendable {
        public var failure: HarnessFailure?
        /// The deviation that explained a difference, if there was one.
        public var deviation: CalendarDeviation?
        public var ours: Int64?
        public var foundation: Int64?
    }

    static let years = [2025, 2026, 2027, 2028, 2029, 0, 10_000, -1]

    public static func decode(_ bytes: [UInt8]) -> Case {
        var cursor = ByteCursor(bytes)
        let (zone, at) = FuzzZones.moment(&cursor)
        let flags = cursor.byte()
        func given(_ bit: Int, _ value: Int) -> Int? { flags & (1 << bit) != 0 ? value : nil }
        let year = given(0, years[cursor.below(years.count)])
        let month = given(1, cursor.below(15))
        let day = given(2, cursor.below(34))
        let weekday = given(3, cursor.below(10))
        let hour = given(4, cursor.below(27))
        let minute = given(5, cursor.below(62))
        let second = given(6, cursor.below(62))
        return Case(
            zone: FuzzZones.zones[zone], at: at, year: year, month: month, day: day, weekday: weekday, hour: hour,
            minute: minute, second: second)
    }

    public static func compare(_ bytes: [UInt8]) -> Outcome { compare(decode(bytes)) }

    public static func compare(_ c: Case) -> Outcome {
        let zone = ZoneOffsets(zone: c.zone)
        let pattern = ComponentPattern(
            year: c.year, month: c.month, day: c.day, weekday: c.weekday, hour: c.hour, minute: c.minute,
            second: c.second)
        let ours = pattern?.firstMatch(after: c.at, zone: zone)
        let theirs = foundationNext(c)
        var outcome = Outcome(failure: nil, deviation: nil, ours: ours, foundation: theirs)
        func text(_ v: Int64?) -> String { v.map(ActivityMoment.format) ?? "nil" }

        // What holds of our answer on its own: after the moment, and (unless a gap moved it) a match.
        if let ours {
            guard ours > c.at else {
                outcome.failure = HarnessFailure("firstMatch is after the moment", "\(c): \(text(ours))")
                return outcome
            }
            if let pattern, !LocalMatch.matches(pattern, zone.local(at: ours)),
                CalendarDeviation.gapEnd(containing: ours, zone) == nil
            {
                outcome.failure = HarnessFailure(
                    "firstMatch's wall time matches the components (or a gap moved it)", "\(c): \(text(ours))")
                return outcome
            }
        }
        if ours == theirs { return outcome }
        if let deviation = CalendarDeviation.explain(c, pattern: pattern, ours: ours, foundation: theirs) {
            outcome.deviation = deviation
            return outcome
        }
        outcome.failure = HarnessFailure(
            "ComponentPattern.firstMatch equals Calendar.nextDate(.nextTime, .first)",
            "\(c): ours \(text(ours)), Foundation \(text(theirs))")
        return outcome
    }

    /// Foundation's answer: `nextDate` in a Gregorian calendar of the case's zone. Bounded: Foundation gives up by
    /// itself after a few hundred years of search, and the cases' years stop at 2029 (or are out of range).
    static func foundationNext(_ c: Case) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = c.zone
        let date = calendar.nextDate(
            after: Date(timeIntervalSince1970: TimeInterval(c.at)), matching: c.components, matchingPolicy: .nextTime,
            repeatedTimePolicy: .first, direction: .forward)
        return date.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }
}

/// SPEC §8.1's matching of one wall time, written out naively: every given component equals the time's, and a
/// unit not given is free when a smaller one is given and at its least value otherwise.
enum LocalMatch {
    static func matches(_ p: ComponentPattern, _ local: Int64) -> Bool {
        let days = CivilTime.floorDiv(local, CivilTime.secondsPerDay)
        let (y, mo, d) = CivilTime.date(days: days)
        let s = Int(local - days * CivilTime.secondsPerDay)
        let (h, mi, se) = (s / 3600, s % 3600 / 60, s % 60)
        // The units from largest to smallest; weekday ranks with day.
        let given = [
            p.year != nil, p.month != nil, p.day != nil || p.weekday != nil, p.hour != nil, p.minute != nil,
            p.second != nil,
        ]
        func smallerGiven(_ rank: Int) -> Bool { given[(rank + 1)...].contains(true) }
        func check(_ value: Int?, _ actual: Int, least: Int, rank: Int) -> Bool {
            if let value { return value == actual }
            return smallerGiven(rank) || actual == least
        }
        if let year = p.year, year != y { return false }
        guard check(p.month, mo, least: 1, rank: 1) else { return false }
        if p.day == nil && p.weekday == nil {
            guard smallerGiven(2) || d == 1 else { return false }
        } else {
            if let day = p.day, day != d { return false }
            if let weekday = p.weekday, weekday != CivilTime.weekday(days: days) { return false }
        }
        return check(p.hour, h, least: 0, rank: 3) && check(p.minute, mi, least: 0, rank: 4)
            && check(p.second, se, least: 0, rank: 5)
    }

    /// The pattern with every unit that is not given but lies between two given ones at its least value (month 1,
    /// day 1, hour, minute, second 0): how Foundation reads such units. `nil` when there is no such unit.
    static func unitsBetweenGivenAtLeast(_ p: ComponentPattern) -> ComponentPattern? {
        let given = [
            p.year != nil, p.month != nil, p.day != nil || p.weekday != nil, p.hour != nil, p.minute != nil,
            p.second != nil,
        ]
        guard let first = given.firstIndex(of: true), let last = given.lastIndex(of: true) else { return nil }
        let between = (first..<last).filter { !given[$0] }
        guard !between.isEmpty else { return nil }
        var filled = p
        for unit in between {
            switch unit {
            case 1: filled.month = 1
            case 2: filled.day = 1
            case 3: filled.hour = 0
            default: filled.minute = 0
            }
        }
        return filled
    }
}
