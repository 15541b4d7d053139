import Foundation
import ScreenTimeActivity
import Testing
import _ActivityFuzzTargets

/// `activity-calendar`'s allow-list is exact, each deviation with a seed `deviation-<name>` on which ours and
/// Foundation differ for that reason alone; the other calendar seeds agree with Foundation outright; and the
/// timeline seeds still decode to the cases they are named for (scripts/make-activity-seeds.py writes both).
@Suite struct ActivityFuzzTests {
    static let calendar = CorpusReplayTests.corpus.appendingPathComponent("activity-calendar")
    static let timeline = CorpusReplayTests.corpus.appendingPathComponent("activity-timeline")

    /// `missingDay` → `deviation-missing-day`.
    static func seedName(_ deviation: CalendarDeviation) -> String {
        var name = "deviation-"
        for c in deviation.rawValue {
            if c.isUppercase { name += "-" }
            name += c.lowercased()
        }
        return name
    }

    static func bytes(_ directory: URL, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test(arguments: CalendarDeviation.allCases)
    func eachDeviationHasASeedShowingIt(deviation: CalendarDeviation) throws {
        let outcome = CalendarDifferential.compare(try Self.bytes(Self.calendar, Self.seedName(deviation)))
        #expect(outcome.failure == nil, "\(outcome.failure.map(String.init(describing:)) ?? "")")
        #expect(outcome.deviation == deviation, "\(String(describing: outcome.deviation))")
        #expect(outcome.ours != outcome.foundation, "Foundation now answers as we do: the deviation may be gone")
    }

    /// Every named seed shows the deviation its name starts with (`deviation-missing-day-feb-30`: `missingDay`),
    /// or none: the others agree with Foundation outright.
    @Test func theNamedCalendarSeedsShowTheirDeviationOrNone() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.calendar.path).filter {
            $0.contains("-") && !$0.hasPrefix(".")
        }
        #expect(names.count >= 25)
        for name in names.sorted() {
            let outcome = CalendarDifferential.compare(try Self.bytes(Self.calendar, name))
            let expected = CalendarDeviation.allCases.filter { name.hasPrefix(Self.seedName($0)) }
                .max { Self.seedName($0).count < Self.seedName($1).count }
            #expect(outcome.failure == nil, "\(name): \(outcome.failure.map(String.init(describing:)) ?? "")")
            #expect(
                outcome.deviation == expected,
                "\(name): \(String(describing: outcome.deviation)), ours \(outcome.ours.map(ActivityMoment.format) ?? "nil"), Foundation \(outcome.foundation.map(ActivityMoment.format) ?? "nil")"
            )
        }
    }

    /// Examples of SPEC §8.1 on the decoded cases, so that the harness's reading of the bytes is what the seed
    /// names say.
    @Test func calendarSeedsDecodeToTheirCases() throws {
        let gap = CalendarDifferential.decode(try Self.bytes(Self.calendar, "deviation-gap-moves-forward"))
        #expect(gap.zone.identifier == "America/New_York" && gap.hour == 2 && gap.minute == 30)
        let outcome = CalendarDifferential.compare(gap)
        // 02:30 on 8 March 2026 is 03:30 EDT (07:30Z); Foundation's .nextTime answers 03:00 EDT.
        #expect(outcome.ours.map(ActivityMoment.format) == "2026-03-08T07:30:00Z")
        #expect(outcome.foundation.map(ActivityMoment.format) == "2026-03-08T07:00:00Z")
        // Chatham's gap ends inside an hour (02:45 CHAST → 03:45 CHADT at 14:00Z on 26 September 2026): 03:03 and
        // 02:50 move forward by the hour the gap skipped; Foundation answers 04:00, the first hour after the gap.
        for (seed, ours) in [
            ("deviation-gap-moves-forward-chatham", "2026-09-26T14:18:00Z"),
            ("deviation-gap-moves-forward-chatham-0250", "2026-09-26T14:05:00Z"),
        ] {
            let chatham = CalendarDifferential.compare(try Self.bytes(Self.calendar, seed))
            #expect(chatham.ours.map(ActivityMoment.format) == ours, "\(seed)")
            #expect(chatham.foundation.map(ActivityMoment.format) == "2026-09-26T14:15:00Z", "\(seed)")
        }
        let day = CalendarDifferential.compare(try Self.bytes(Self.calendar, "deviation-missing-day"))
        #expect(day.ours.map(ActivityMoment.format) == "2026-05-31T13:00:00Z")
        #expect(day.foundation.map(ActivityMoment.format) == "2026-05-01T04:00:00Z")
    }

    @Test func timelineSeedsDecodeToTheirCases() throws {
        func run(_ name: String) throws -> ActivityTimelineHarness.Result {
            ActivityTimelineHarness.run(ActivityTimelineHarness.decode(try Self.bytes(Self.timeline, name)))
        }
        let excessive = try run("excessive-activities")
        #expect(
            excessive.errors.sorted { $0.key < $1.key }.map(\.value) == [.excessiveActivities, .excessiveActivities])
        #expect(excessive.activities.count == 20)
        let errors = try run("errors")
        #expect(
            errors.errors.sorted { $0.key < $1.key }.map(\.value)
                == [
                    .intervalTooShort, .intervalTooLong, .invalidDateComponents, .invalidDateComponents,
                    .invalidDateComponents, .invalidDateComponents,
                ])
        let events = try run("events-and-thresholds")
        #expect(events.records.contains { $0.callback.kind == .eventDidReachThreshold })
        #expect(events.records.contains { $0.callback.kind == .intervalWillEndWarning })
        let unauthorized = try run("unauthorized-start")
        #expect(unauthorized.errors.map(\.value) == [.unauthorized])
        let mixed = try run("mixed-kinds")
        #expect(mixed.records.isEmpty && mixed.activities == ["a12"])
        let stop = try run("stop-all-and-restart")
        #expect(stop.records.contains { $0.source == .call })
        let night = try run("night-with-use")
        #expect(night.records.map(\.callback.kind) == [.intervalDidStart, .intervalDidEnd])
    }
}
