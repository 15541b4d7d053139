import Foundation
import PropertyTesting
import ScreenTimeReference

// MARK: - Driving the iOS-named API

/// A monitor extension that records every callback with the simulator's clock and how many timeline steps had
/// been applied when it came (so that a callback delivered before a call at the same moment is told apart).
package final class RecordingActivityMonitor: DeviceActivityMonitor, @unchecked Sendable {
    package struct Call: Sendable {
        package var at: Int64
        package var activity: String
        package var kind: DeviceActivityCallback.Kind
        package var event: String?
        /// The number of steps applied before it was delivered.
        package var afterSteps: Int
    }

    var calls: [Call] = []
    var stepsApplied = 0

    private func record(_ kind: DeviceActivityCallback.Kind, _ activity: DeviceActivityName, _ event: String? = nil) {
        let now = Int64(DeviceActivitySimulator.current.now.timeIntervalSince1970)
        calls.append(Call(at: now, activity: activity.rawValue, kind: kind, event: event, afterSteps: stepsApplied))
    }

    package override func intervalDidStart(for activity: DeviceActivityName) { record(.intervalDidStart, activity) }
    package override func intervalDidEnd(for activity: DeviceActivityName) { record(.intervalDidEnd, activity) }
    package override func intervalWillStartWarning(for activity: DeviceActivityName) {
        record(.intervalWillStartWarning, activity)
    }
    package override func intervalWillEndWarning(for activity: DeviceActivityName) {
        record(.intervalWillEndWarning, activity)
    }
    package override func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) {
        record(.eventDidReachThreshold, activity, event.rawValue)
    }
    package override func eventWillReachThresholdWarning(
        _ event: DeviceActivityEvent.Name, activity: DeviceActivityName
    ) {
        record(.eventWillReachThresholdWarning, activity, event.rawValue)
    }
}

/// What a timeline did on the simulator: the monitor's record, the steps that threw, the names monitored at the end.
package struct ActivityRun: Sendable {
    package var calls: [RecordingActivityMonitor.Call]
    package var errors: [Int: DeviceActivityCenter.MonitoringError]
    package var activities: [String]
    /// Set when the simulator's own record of callbacks differs from what the monitor was called with.
    package var problem: String?

    func describe() -> String {
        let lines = calls.map { c in
            "  \(ActivityMoment.format(c.at)) \(c.kind.rawValue)(\(c.activity)\(c.event.map { ", " + $0 } ?? "")) [after step \(c.afterSteps)]"
        }
        let errs = errors.keys.sorted().map { "step \($0): \(errors[$0]!)" }
        return "callbacks:\n" + lines.joined(separator: "\n") + "\nerrors: \(errs)\nactivities: \(activities)"
    }
}

extension ReferenceProperties {
    /// Runs `timeline` on a ``DeviceActivitySimulator`` through `DeviceActivityCenter()` (inside
    /// ``DeviceActivitySimulator/run(_:)``) with a recording monitor, the way an app and its extension meet the
    /// framework: the clock advanced to each step, a use begun and ended around the steps inside it. Discards a
    /// timeline with an unknown zone (only the wire can carry one).
    package static func simulate(_ timeline: ActivityTimeline) throws -> ActivityRun {
        guard let zone = TimeZone(identifier: timeline.timeZone) else { throw Discard() }
        let monitor = RecordingActivityMonitor()
        let authorized = timeline.authorized ?? true
        let simulator = DeviceActivitySimulator(
            now: Date(timeIntervalSince1970: TimeInterval(timeline.start)), timeZone: zone, monitor: monitor,
            isAuthorized: { authorized })
        var errors: [Int: DeviceActivityCenter.MonitoringError] = [:]
        var useEnd: Int64?
        func advance(to moment: Int64) {
            if let end = useEnd, end <= moment {
                simulator.advance(to: Date(timeIntervalSince1970: TimeInterval(end)))
                simulator.endUse()
                useEnd = nil
            }
            simulator.advance(to: Date(timeIntervalSince1970: TimeInterval(moment)))
        }
        let activities: [String] = try simulator.run {
            let center = DeviceActivityCenter()
            for (index, timed) in timeline.steps.enumerated() {
                advance(to: timed.at)
                switch timed.step {
                case .startMonitoring(let name, let schedule, let events):
                    var typed: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
                    for (key, event) in events { typed[.init(key)] = event.event }
                    do {
                        try center.startMonitoring(DeviceActivityName(name), during: schedule.schedule, events: typed)
                    } catch let error as DeviceActivityCenter.MonitoringError {
                        errors[index] = error
                    }
                case .stopMonitoring(let names): center.stopMonitoring(names.map { DeviceActivityName($0) })
                case .use(let until, let foreground):
                    simulator.beginUse(foreground.foreground)
                    useEnd = until
                case .setTimeZone(let name):
                    guard let zone = TimeZone(identifier: name) else { throw Discard() }
                    simulator.setTimeZone(zone)
                case .revoke: simulator.revokeAuthorization()
                case .authorize: simulator.setAuthorization { true }
                }
                monitor.stepsApplied = index + 1
            }
            advance(to: timeline.until)
            return center.activities.map(\.rawValue)
        }
        var run = ActivityRun(calls: monitor.calls, errors: errors, activities: activities)
        let recorded = simulator.callbacks
        let same =
            recorded.count == run.calls.count
            && zip(recorded, run.calls).allSatisfy {
                $0.seconds == $1.at && $0.activity.rawValue == $1.activity && $0.kind == $1.kind
                    && $0.event?.rawValue == $1.event
            }
        if !same { run.problem = "the simulator recorded \(recorded) but the monitor was called \(run.describe())" }
        return run
    }

    /// The timelines of the monitoring properties: hostile components and durations, known zones only.
    static let monitoredTimeline = Gen<ActivityTimeline>.activityTimeline(hostile: true, unknownZones: false)

    // MARK: nextInterval

    /// `activity.next-interval-ahead`: the interval `nextInterval` answers is never entirely in the past (its end
    /// is after the moment), its start is after the moment unless it is ongoing (and then at most one week back),
    /// it is not empty, and at its own start it is the interval `nextInterval` answers. Read through the iOS-named
    /// `DeviceActivitySchedule.nextInterval` on a simulator at the moment in the zone. Source: `SPEC.md` §8.1
    /// ("the current interval if one is ongoing"; the one-week look-back is Assumption A19).
    public static func activityNextIntervalAhead() -> Property { activityNextIntervalAhead(nextInterval) }

    /// What the `nextInterval` properties ask: the interval of a schedule on a simulator's clock and in its zone.
    package typealias NextIntervalSubject =
        @Sendable (DeviceActivitySchedule, DeviceActivitySimulator) -> DateInterval?
    /// The monitoring properties' subject: a timeline run to its callbacks.
    package typealias MonitorSubject = @Sendable (ActivityTimeline) throws -> ActivityRun

    /// The iOS-named `DeviceActivitySchedule.nextInterval`, read inside the simulator's ``DeviceActivitySimulator/run(_:)``.
    package static let nextInterval: NextIntervalSubject = { schedule, simulator in
        simulator.run { schedule.nextInterval }
    }

    package static func activityNextIntervalAhead(_ next: @escaping NextIntervalSubject) -> Property {
        Property(
            "activity.next-interval-ahead",
            summary:
                "nextInterval ends after the moment, starts after it unless ongoing (at most a week back), and is itself at its start (§8.1)",
            Gen<ActivityScheduleQuery>.activityScheduleQuery(hostile: true, unknownZones: false),
            describe: { $0.description }
        ) { query in
            guard let zone = TimeZone(identifier: query.timeZone) else { throw Discard() }
            let schedule = query.schedule.schedule
            let simulator = DeviceActivitySimulator(
                now: Date(timeIntervalSince1970: TimeInterval(query.at)), timeZone: zone)
            guard let interval = next(schedule, simulator) else { return nil }
            let s = Int64(interval.start.timeIntervalSince1970)
            let e = Int64(interval.end.timeIntervalSince1970)
            let range = "[\(ActivityMoment.format(s)), \(ActivityMoment.format(e)))"
            if e <= query.at { return "the interval \(range) is entirely in the past" }
            if e <= s { return "the interval \(range) is empty" }
            if s <= query.at && query.at - s > 604_800 {
                return "the ongoing interval \(range) started over a week back"
            }
            let again = next(
                schedule, DeviceActivitySimulator(now: interval.start, timeZone: zone))
            if again != interval {
                return "at its own start, nextInterval of \(range) is \(again.map { "\($0)" } ?? "nil")"
            }
            return nil
        }
    }

    // MARK: Callbacks

    /// `activity.start-end-alternate`: for each activity, `intervalDidStart` and `intervalDidEnd` alternate: an
    /// end only after a start not yet ended, and a second start before an end only after a revocation (which stops
    /// every activity silently); `intervalWillStartWarning` only outside an interval, `intervalWillEndWarning` and
    /// the event callbacks only inside one. Source: `SPEC.md` §8.2 (stopping, revocation), §8.3, §8.5.
    public static func activityStartEndAlternate() -> Property { activityStartEndAlternate(simulate) }

    package static func activityStartEndAlternate(_ simulate: @escaping MonitorSubject) -> Property {
        Property(
            "activity.start-end-alternate",
            summary:
                "per activity, a start is followed by at most one end before the next start, never an end without a start (§8.2, §8.3)",
            monitoredTimeline, describe: { $0.description }
        ) { timeline in
            let run = try simulate(timeline)
            if let problem = run.problem { return problem }
            var openSince: [String: Int64] = [:]
            let revocations = timeline.steps.filter { $0.step == .revoke }.map(\.at)
            for (i, c) in run.calls.enumerated() {
                let open = openSince[c.activity]
                let what = "callback \(i) \(c.kind.rawValue)(\(c.activity)) at \(ActivityMoment.format(c.at))"
                switch c.kind {
                case .intervalDidStart:
                    if let since = open, !revocations.contains(where: { $0 >= since && $0 <= c.at }) {
                        return
                            "\(what): a second start with no end and no revocation since \(ActivityMoment.format(since))\n\(run.describe())"
                    }
                    openSince[c.activity] = c.at
                case .intervalDidEnd:
                    if open == nil { return "\(what): an end without a start\n\(run.describe())" }
                    openSince[c.activity] = nil
                case .intervalWillStartWarning:
                    if let since = open, !revocations.contains(where: { $0 >= since && $0 <= c.at }) {
                        return "\(what): a start warning inside an interval\n\(run.describe())"
                    }
                case .intervalWillEndWarning, .eventDidReachThreshold, .eventWillReachThresholdWarning:
                    if open == nil { return "\(what): outside any interval\n\(run.describe())" }
                }
            }
            return nil
        }
    }

    /// `activity.callbacks-in-time-order`: callbacks come in non-decreasing time order, inside the timeline, and
    /// each while the device is in use (a use `[from, until)`, a threshold reached as it ends delivered at
    /// `until`), except an `intervalDidEnd` delivered by a stop (or a start's implicit stop) at its call.
    /// Source: `SPEC.md` §8.3, §8.4, §8.5.
    public static func activityCallbacksInTimeOrder() -> Property { activityCallbacksInTimeOrder(simulate) }

    package static func activityCallbacksInTimeOrder(_ simulate: @escaping MonitorSubject) -> Property {
        Property(
            "activity.callbacks-in-time-order",
            summary:
                "callbacks are in non-decreasing time order, inside the timeline, and only while in use or at a stop (§8.3, §8.5)",
            monitoredTimeline, describe: { $0.description }
        ) { timeline in
            let run = try simulate(timeline)
            if let problem = run.problem { return problem }
            let uses = timeline.uses
            var previous = timeline.start
            for (i, c) in run.calls.enumerated() {
                let what = "callback \(i) \(c.kind.rawValue)(\(c.activity)) at \(ActivityMoment.format(c.at))"
                if c.at < previous {
                    return "\(what) comes after one at \(ActivityMoment.format(previous))\n\(run.describe())"
                }
                if c.at > timeline.until { return "\(what) is after the timeline's end\n\(run.describe())" }
                previous = c.at
                if uses.contains(where: { $0.from <= c.at && c.at <= $0.until }) { continue }
                let stopsIt = timeline.steps.contains { s in
                    guard s.at == c.at else { return false }
                    switch s.step {
                    case .stopMonitoring(let names): return names.isEmpty || names.contains(c.activity)
                    case .startMonitoring(let name, _, _): return name == c.activity
                    default: return false
                    }
                }
                if !(c.kind == .intervalDidEnd && stopsIt) {
                    return "\(what) was delivered while the device was not in use\n\(run.describe())"
                }
            }
            return nil
        }
    }

    /// The seconds of `uses` in `[from, to]` whose foreground `event` counts, computed from the timeline alone.
    static func usage(
        _ uses: [(from: Int64, until: Int64, foreground: ActivityForeground)], _ event: ActivityEventDescription,
        from: Int64, to: Int64
    ) -> Int64 {
        uses.reduce(0) { total, use in
            let a = max(use.from, from)
            let b = min(use.until, to)
            return total + (b > a && event.counts(use.foreground) ? b - a : 0)
        }
    }

    /// `activity.threshold-after-usage`: `eventDidReachThreshold` never comes before the counted usage reaches the
    /// threshold (nor the threshold warning before `threshold - warningTime`), and each comes at most once per
    /// interval. The usage is recomputed from the timeline's uses, independently of the engine: from the
    /// `startMonitoring` call (`m`, since the count runs from `max(s, m)`), or, with `includesPastActivity`, from
    /// as far back as the round hour before a start two weeks earlier (a bound: the start itself is not
    /// observable). Source: `SPEC.md` §8.4 (Assumption A25: once per interval).
    public static func activityThresholdAfterUsage() -> Property { activityThresholdAfterUsage(simulate) }

    /// `activity.threshold-count-restarts`: as ``activityThresholdAfterUsage()``, with the usage counted from no
    /// earlier than the activity's previous `intervalDidEnd` either: counts start again with each interval, so no
    /// use is counted toward two intervals' thresholds. Source: `SPEC.md` §8.4 ("Counts start again with each
    /// interval"; Assumption A25: once per interval).
    ///
    /// Finding (the reference; a known issue of the property tests, its case saved in `corpus/`): after a change
    /// of zone, the interval a repeating activity rolls into at an end `e` can be one that started before `e` in
    /// the new zone; its count then runs from `max(s, m) = m`, the use of the interval that just ended is counted
    /// again, and its threshold is reported at `e` with no use since. Zone UTC on 2026-03-08: at 19:00Z
    /// `startMonitoring` bedtime {hour: 21}→{hour: 21} with an event of all activity ≥ 1 hour, `setTimeZone`
    /// America/New_York, in use 19:00Z–21:01Z → `eventDidReachThreshold` at 20:00Z and again at 21:00Z, right
    /// after `intervalDidEnd` and `intervalDidStart`.
    public static func activityThresholdCountRestarts() -> Property {
        activityThresholdAfterUsage(simulate, restartsAtPreviousEnd: true)
    }

    package static func activityThresholdAfterUsage(
        _ simulate: @escaping MonitorSubject, restartsAtPreviousEnd: Bool = false
    ) -> Property {
        Property(
            restartsAtPreviousEnd ? "activity.threshold-count-restarts" : "activity.threshold-after-usage",
            summary: restartsAtPreviousEnd
                ? "no use counts toward two intervals' thresholds: counting starts no earlier than the previous end (§8.4)"
                : "a threshold (or its warning) is never reported before the recomputed usage reaches it, and at most once per interval (§8.4)",
            monitoredTimeline, describe: { $0.description }
        ) { timeline in
            let run = try simulate(timeline)
            if let problem = run.problem { return problem }
            let uses = timeline.uses
            var lastStart: [String: Int64] = [:]
            var lastEnd: [String: Int64] = [:]
            var reported: Set<String> = []
            for (i, c) in run.calls.enumerated() {
                if c.kind == .intervalDidEnd { lastEnd[c.activity] = c.at }
                if c.kind == .intervalDidStart {
                    lastStart[c.activity] = c.at
                    reported = reported.filter { !$0.hasPrefix(c.activity + "\u{0}") }
                    continue
                }
                guard c.kind == .eventDidReachThreshold || c.kind == .eventWillReachThresholdWarning,
                    let eventName = c.event
                else { continue }
                let what =
                    "callback \(i) \(c.kind.rawValue)(\(eventName), \(c.activity)) at \(ActivityMoment.format(c.at))"
                let key = c.activity + "\u{0}" + eventName + "\u{0}" + c.kind.rawValue
                if reported.contains(key) { return "\(what): reported twice in one interval\n\(run.describe())" }
                reported.insert(key)
                // The start that set the events: the last successful one of this name before the callback.
                let governing = timeline.steps.prefix(c.afterSteps).enumerated().last { index, s in
                    if case .startMonitoring(let name, _, _) = s.step {
                        return name == c.activity && run.errors[index] == nil
                    }
                    return false
                }
                guard let (_, step) = governing, case .startMonitoring(_, let schedule, let events) = step.step,
                    let event = events[eventName]
                else { return "\(what): no start of this activity has this event\n\(run.describe())" }
                guard let started = lastStart[c.activity], started >= step.at else {
                    return "\(what): no intervalDidStart since the activity was started\n\(run.describe())"
                }
                guard let threshold = event.threshold.seconds else { return "\(what): for a negative threshold" }
                let warning = schedule.warningTime?.seconds ?? 0
                let target = c.kind == .eventDidReachThreshold ? threshold : max(threshold - warning, 0)
                // Without past activity the count runs from c = max(s, m) (§8.4): never before the call (m); with
                // `restartsAtPreviousEnd`, nor before the end of the activity's interval before.
                let previousEnd = restartsAtPreviousEnd ? lastEnd[c.activity] ?? step.at : step.at
                let from =
                    event.includesPastActivity == true ? started - 2 * 604_800 - 3600 : max(step.at, previousEnd)
                let used = usage(uses, event, from: from, to: c.at)
                if used < target {
                    return
                        "\(what): counted usage since \(ActivityMoment.format(from)) is \(used) s, under \(target) s\n\(run.describe())"
                }
            }
            return nil
        }
    }

    // MARK: Wall clock

    /// A time-only schedule (one wall-clock time a day each side, one zone for both), with moments and zone
    /// changes for the wall-clock property.
    struct WallClockCase: Sendable, CustomStringConvertible {
        var schedule: ActivityScheduleDescription
        var zone: String
        var start: Int64
        /// Each later look: how long after the one before, and the device's zone from then.
        var looks: [(after: Int64, zone: String)]

        var description: String {
            "\(schedule) from \(ActivityMoment.format(start)) in \(zone); then "
                + looks.map { "+\($0.after) s in \($0.zone)" }.joined(separator: ", ")
        }
    }

    static let wallClockCase: Gen<WallClockCase> = Gen<WallClockCase> { source in
        let time = Gen<ActivityComponents>.timeOfDay
        var start = time.generate(using: source)
        var end = time.generate(using: source)
        if Gen<Bool>.bool(probability: 0.2).generate(using: source) { end = ActivityComponents(hour: 0, minute: 0) }
        let own = Gen<String>.activityZone().optional(probability: 0.15).generate(using: source)
        (start.timeZone, end.timeZone) = (own, own)
        let repeats = Gen<Bool>.bool(probability: 0.8).generate(using: source)
        let zone = Gen<String>.activityZone().generate(using: source)
        let at = Gen<Int64>.activityMoment.generate(using: source)
        let looks = Gen<Int64>.element(of: [3600, 1800, 21_600, 86_400, 600, 43_200]).zip(Gen<String>.activityZone())
            .map { (after: $0, zone: $1) }.array(count: 0...6).generate(using: source)
        return WallClockCase(
            schedule: ActivityScheduleDescription(start: start, end: end, repeats: repeats), zone: zone, start: at,
            looks: looks)
    }

    /// `activity.wall-clock-length`: across daylight-saving changes and changes of the device's zone, an
    /// interval of a time-only schedule is as long on the wall clock as the schedule says (end's local time minus
    /// start's, in the zone it was computed in: 21:00 to 07:00 is ten hours, 00:00 the midnight after, an end equal
    /// to the start a whole day), whatever it lasts in seconds; intervals whose start a gap moved, or whose end
    /// falls in a gap, are left out. Read through `nextInterval` on a simulator whose clock and zone move. Source: `SPEC.md` §8.1 ("the
    /// end is wall-clock time").
    /// Whether a wall-clock time (local seconds) occurs in `zone`: some instant reads it (Foundation's offsets,
    /// tried from a day either side), so that no daylight-saving gap skips it.
    static func exists(_ local: Int64, in zone: TimeZone) -> Bool {
        [local - 86_400, local + 86_400].contains { guess in
            let instant = local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
            return instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
                == local
        }
    }

    public static func activityWallClockLength() -> Property { activityWallClockLength(nextInterval) }

    package static func activityWallClockLength(_ next: @escaping NextIntervalSubject) -> Property {
        Property(
            "activity.wall-clock-length",
            summary:
                "a time-only schedule's interval is as long on the wall clock as the schedule, across DST and zone changes (§8.1)",
            wallClockCase, describe: { $0.description }
        ) { c in
            guard let ts = c.schedule.start.singleTimeOfDay, let te = c.schedule.end.singleTimeOfDay else {
                throw Discard()
            }
            let wall = (te - ts + 86_400) % 86_400 == 0 ? 86_400 : (te - ts + 86_400) % 86_400
            guard let zone = TimeZone(identifier: c.zone) else { throw Discard() }
            let simulator = DeviceActivitySimulator(
                now: Date(timeIntervalSince1970: TimeInterval(c.start)), timeZone: zone)
            let schedule = c.schedule.schedule
            var looks = [(after: Int64(0), zone: c.zone)] + c.looks
            looks[0].after = 0
            for look in looks {
                simulator.advance(by: TimeInterval(look.after))
                guard let lookZone = TimeZone(identifier: look.zone) else { throw Discard() }
                simulator.setTimeZone(lookZone)
                guard let interval = next(schedule, simulator) else {
                    return "no interval at \(ActivityMoment.format(Int64(simulator.now.timeIntervalSince1970)))"
                }
                let zone = schedule.intervalStart.timeZone ?? simulator.timeZone
                let s = Int64(interval.start.timeIntervalSince1970)
                let e = Int64(interval.end.timeIntervalSince1970)
                let ls = s + Int64(zone.secondsFromGMT(for: interval.start))
                let le = e + Int64(zone.secondsFromGMT(for: interval.end))
                func timeOfDay(_ local: Int64) -> Int64 { ((local % 86_400) + 86_400) % 86_400 }
                // Left out: a start a gap moved, or an end time a gap skips on any day the interval spans (a
                // skipped end moves forward and can come before the wall-clock end: 01:30 on London's
                // spring-forward night is 02:30 BST, after a 02:00 start).
                let firstDay = CivilDays.floor(ls)
                let skipped = (firstDay...CivilDays.floor(ls + wall)).contains { !exists($0 * 86_400 + te, in: zone) }
                guard timeOfDay(ls) == ts, !skipped else { continue }
                if le - ls != wall {
                    return
                        "at \(ActivityMoment.format(Int64(simulator.now.timeIntervalSince1970))) in \(zone.identifier): [\(ActivityMoment.format(s)), \(ActivityMoment.format(e))) is \(le - ls) s on the wall clock, the schedule \(wall) s"
                }
            }
            return nil
        }
    }

    static var activityProperties: [Property] {
        [
            activityNextIntervalAhead(), activityStartEndAlternate(), activityCallbacksInTimeOrder(),
            activityThresholdAfterUsage(), activityThresholdCountRestarts(), activityWallClockLength(),
        ]
    }
}

/// Day counts of local second counts, rounded down (for times before 1970 too).
enum CivilDays {
    static func floor(_ local: Int64) -> Int64 { local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400) }
}
