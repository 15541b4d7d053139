import Foundation
import PropertyTesting
import Testing
import _TestSupport

@testable import ScreenTimeProperties
@testable import ScreenTimeReference

/// The `activity.*` properties: their generators reach every rule of `SPEC.md` §8, and each property catches a
/// deliberately broken model of DeviceActivity (its field bug where there is one).
@Suite struct ActivityPropertyTests {
    static let config = RunConfiguration(seed: 7, iterations: 2_000, saveFailures: false)

    func expectCaught(_ property: Property, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyFailure? {
        let result = property.check(Self.config)
        #expect(
            result.status == .failed, "the broken variant was not caught: \(result.report)",
            sourceLocation: sourceLocation)
        return result.failure
    }

    /// Over a few thousand generated timelines, every error of `startMonitoring` and every callback comes up.
    @Test func timelinesReachEveryErrorAndCallback() throws {
        var errors: Set<String> = []
        var kinds: Set<DeviceActivityCallback.Kind> = []
        var withCallbacks = 0
        let source = ChoiceSource(seed: 0)
        for n in 0..<3_000 {
            source.reset(seed: UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
            let timeline = ReferenceProperties.monitoredTimeline.generate(using: source)
            guard let run = try? ReferenceProperties.simulate(timeline) else { continue }
            errors.formUnion(run.errors.values.map { "\($0)" })
            kinds.formUnion(run.calls.map(\.kind))
            if !run.calls.isEmpty { withCallbacks += 1 }
        }
        #expect(errors == Set(DeviceActivityCenter.MonitoringError.allCases.map { "\($0)" }), "\(errors)")
        #expect(kinds == Set(DeviceActivityCallback.Kind.allCases), "\(kinds)")
        #expect(withCallbacks > 300, "only \(withCallbacks) of 3000 timelines had a callback")
    }

    /// A regression of `activity.threshold-count-restarts`: zone UTC on 2026-03-08, at 10:00Z `startMonitoring`
    /// bedtime {hour: 21}→{hour: 21} repeating with an event of all activity ≥ 5 minutes, `setTimeZone`
    /// America/New_York at 10:00Z, in use 16:00Z–22:00Z. At the first interval's end (21:00Z) the activity rolls,
    /// in New York, into the interval that started at 21:00 EST the evening before (02:00Z); counting from
    /// `max(s, m)` counted the use of the ended interval again and reported the threshold at 21:00Z. The count now
    /// runs from when the interval became current (SPEC §8.4: `max(s, k)`), so the next threshold is at 21:05Z.
    @Test func aZoneChangeNeverCountsTheEndedIntervalsUseAgain() throws {
        let replay = try #require(
            Hex.decode("0100000000000100080005000000000000000000000000010001000000000000010000000b00000100090000000008")
        )
        let result = ReferenceProperties.activityThresholdCountRestarts().check(
            RunConfiguration(seed: 1, iterations: 1, replay: replay, saveFailures: false))
        expectPasses(result)
    }

    /// Field bug 13/14: an end placed on the start's day (overnight schedules computed backwards) lies in the past.
    @Test func anEndOnTheStartsDayIsCaught() throws {
        let broken: ReferenceProperties.NextIntervalSubject = { schedule, simulator in
            guard let interval = ReferenceProperties.nextInterval(schedule, simulator) else { return nil }
            let zone = simulator.timeZone
            let startDay = Calendar.gregorian(zone).startOfDay(for: interval.start)
            let endDay = Calendar.gregorian(zone).startOfDay(for: interval.end)
            guard endDay > startDay else { return interval }
            return DateInterval(start: interval.start, end: max(interval.start, interval.end - 86_400))
        }
        let failure = try #require(expectCaught(ReferenceProperties.activityNextIntervalAhead(broken)))
        #expect(failure.message.contains("past") || failure.message.contains("empty"), "\(failure.message)")
    }

    @Test func aRepeatedEndIsCaught() throws {
        let broken: ReferenceProperties.MonitorSubject = { timeline in
            var run = try ReferenceProperties.simulate(timeline)
            run.calls = run.calls.flatMap { $0.kind == .intervalDidEnd ? [$0, $0] : [$0] }
            return run
        }
        let failure = try #require(expectCaught(ReferenceProperties.activityStartEndAlternate(broken)))
        #expect(failure.message.contains("an end without a start"), "\(failure.message)")
    }

    @Test func callbacksOutOfOrderAreCaught() throws {
        let broken: ReferenceProperties.MonitorSubject = { timeline in
            var run = try ReferenceProperties.simulate(timeline)
            run.calls.reverse()
            return run
        }
        _ = try #require(expectCaught(ReferenceProperties.activityCallbacksInTimeOrder(broken)))
    }

    /// Field bug 16: a threshold reported the moment the interval starts.
    @Test func aThresholdReportedAtTheStartIsCaught() throws {
        let broken: ReferenceProperties.MonitorSubject = { timeline in
            var run = try ReferenceProperties.simulate(timeline)
            var starts: [String: Int64] = [:]
            for i in run.calls.indices {
                if run.calls[i].kind == .intervalDidStart { starts[run.calls[i].activity] = run.calls[i].at }
                if run.calls[i].kind == .eventDidReachThreshold, let s = starts[run.calls[i].activity] {
                    run.calls[i].at = s
                }
            }
            return run
        }
        let failure = try #require(expectCaught(ReferenceProperties.activityThresholdAfterUsage(broken)))
        #expect(failure.message.contains("counted usage"), "\(failure.message)")
    }

    /// An interval sized in elapsed seconds from the wall-clock length (ignoring daylight saving).
    @Test func anIntervalSizedInElapsedSecondsIsCaught() throws {
        let broken: ReferenceProperties.NextIntervalSubject = { schedule, simulator in
            guard let interval = ReferenceProperties.nextInterval(schedule, simulator) else { return nil }
            let zone = schedule.intervalStart.timeZone ?? simulator.timeZone
            let local = interval.start.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: interval.start))
            let ts = Int64(local) % 86_400
            let te = Int64(
                (schedule.intervalEnd.hour ?? 0) * 3600 + (schedule.intervalEnd.minute ?? 0) * 60
                    + (schedule.intervalEnd.second ?? 0))
            let wall = (te - ts + 86_400) % 86_400 == 0 ? 86_400 : (te - ts + 86_400) % 86_400
            return DateInterval(start: interval.start, duration: TimeInterval(wall))
        }
        let failure = try #require(expectCaught(ReferenceProperties.activityWallClockLength(broken)))
        #expect(failure.message.contains("on the wall clock"), "\(failure.message)")
    }
}

extension Calendar {
    static func gregorian(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
