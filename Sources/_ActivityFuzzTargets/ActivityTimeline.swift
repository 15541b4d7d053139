import Foundation
import ScreenTimeActivity
import ScreenTimeSelection
import _FuzzCore

/// `activity-timeline`: a timeline decoded from the bytes, run through `MonitoringEngine` the way the
/// `activity.monitor` operation runs it (`ActivityWire.run`, which lives in Conformance: this binary links only
/// the reference), with the invariants of SPEC §8.2–§8.5 checked on what it delivers.
public enum ActivityTimelineHarness {
    public enum Step: Hashable, Sendable {
        case startMonitoring(
            DeviceActivityName, DeviceActivitySchedule, [DeviceActivityEvent.Name: DeviceActivityEvent])
        case stopMonitoring([DeviceActivityName])
        case use(until: Int64, Foreground)
        case setTimeZone(TimeZone)
        case revoke
        case authorize
    }

    public struct Timeline: Sendable {
        public var zone: TimeZone
        public var start: Int64
        public var until: Int64
        public var authorized: Bool
        public var steps: [(at: Int64, step: Step)]
    }

    /// Where a callback came from: a step's call (a stop's `intervalDidEnd`), or the clock (delivered while in use).
    public enum Source: Hashable, Sendable { case call, clock }

    public struct Record: Hashable, Sendable {
        public var callback: DeviceActivityCallback
        public var source: Source
        /// The number of steps applied before it was delivered.
        public var afterSteps: Int
    }

    public struct Result: Hashable, Sendable {
        public var records: [Record] = []
        public var errors: [Int: DeviceActivityCenter.MonitoringError] = [:]
        public var activities: [DeviceActivityName] = []
        /// The use periods `[from, until)` as the engine saw them.
        public var uses: [ClosedRange<Int64>] = []
    }

    /// How far past its start a timeline reaches (seconds).
    public static let horizon: Int64 = 2 * 86_400

    static let names: [DeviceActivityName] =
        (0..<24).map { DeviceActivityName(rawValue: "a\($0 < 10 ? "0" : "")\($0)") }
        + ["bedtime", "Bedtime"].map(DeviceActivityName.init(_:)) + ["é", "ζ"]
    static let eventNames: [DeviceActivityEvent.Name] = [.init("limit"), .init(rawValue: "warn"), "Z", "é"]
    static let mail = ApplicationToken(bytes: Array("app:mail".utf8))
    static let game = ApplicationToken(bytes: Array("app:game".utf8))
    static let social = ActivityCategoryToken(bytes: Array("cat:social".utf8))
    static let games = ActivityCategoryToken(bytes: Array("cat:games".utf8))
    static let news = WebDomainToken(bytes: Array("web:news".utf8))
    static let foregrounds: [Foreground] = [
        .device, .application(mail, category: social), .application(game, category: games), .webDomain(news),
        .application(ApplicationToken(bytes: Array("app:other".utf8))), .webDomain(news, category: social),
    ]

    // MARK: Decoding

    /// A delay: 0, seconds, minutes or quarter hours (up to about 64 hours).
    static func delay(_ c: inout ByteCursor) -> Int64 {
        let kind = c.below(4)
        let n = Int64(c.byte())
        switch kind {
        case 0: return 0
        case 1: return n
        case 2: return n * 60
        default: return n * 900
        }
    }

    static func components(_ c: inout ByteCursor) -> DateComponents {
        let flags = c.byte()
        var out = DateComponents()
        func given(_ bit: Int) -> Bool { flags & (1 << bit) != 0 }
        // Date components are rarer (bits 5–7 together), so that most schedules are of times.
        let dates = flags >> 5
        if dates & 1 != 0 && dates != 0b111 { out.day = c.below(33) }  // 0 and 32: out of range
        if dates == 0b011 { out.month = c.below(14) }
        if dates == 0b111 { out.weekday = c.below(9) }
        if dates == 0b110 { out.year = 2025 + c.below(3) }
        if given(0) { out.hour = c.below(26) }  // 24, 25: out of range
        if given(1) { out.minute = [0, 0, 15, 30, 45, 59, 60, 1][c.below(8)] }
        if given(2) {
            // A second only with a minute: `{second: 30}` alone has 1,440 times a day, and on a day with an offset
            // change the reference converts each through Foundation's TimeZone (several lookups apiece), for every
            // interval it computes; a timeline of hourly intervals then took over a minute. The calendar target
            // matches such patterns, one at a time.
            out.second = [0, 30, 59, 1][c.below(4)]
            if out.minute == nil { out.minute = 0 }
        }
        if given(3) { out.timeZone = FuzzZones.zones[c.below(FuzzZones.zones.count)] }
        if given(4), out.hour == nil, out.minute == nil, out.second == nil, dates == 0 {
            out.hour = c.below(24)
            out.minute = c.below(60)
        }
        return out
    }

    /// A duration (a warning time, a threshold): seconds or minutes up to 31, five-minute steps up to 155
    /// minutes, hours and a half, or a negative minute (`invalidDateComponents`).
    static func duration(_ c: inout ByteCursor) -> DateComponents {
        let b = c.byte()
        switch b % 8 {
        case 0: return DateComponents(second: Int(b >> 3))
        case 7: return DateComponents(minute: -1)
        case 6: return DateComponents(hour: Int(b >> 3) % 3, minute: 30)
        case 5: return DateComponents(minute: Int(b >> 3) * 5)
        default: return DateComponents(minute: Int(b >> 3))
        }
    }

    static func event(_ c: inout ByteCursor) -> DeviceActivityEvent {
        let tokens = c.byte()
        var applications: Set<ApplicationToken> = []
        var categories: Set<ActivityCategoryToken> = []
        var webDomains: Set<WebDomainToken> = []
        if tokens & 1 != 0 { applications.insert(mail) }
        if tokens & 2 != 0 { applications.insert(game) }
        if tokens & 4 != 0 { categories.insert(social) }
        if tokens & 8 != 0 { categories.insert(games) }
        if tokens & 16 != 0 { webDomains.insert(news) }
        return DeviceActivityEvent(
            applications: applications, categories: categories, webDomains: webDomains, threshold: duration(&c),
            includesPastActivity: tokens & 32 != 0)
    }

    public static func decode(_ bytes: [UInt8]) -> Timeline {
        var c = ByteCursor(bytes)
        let (zone, start) = FuzzZones.moment(&c)
        let header = c.byte()
        let authorized = header & 0x80 == 0
        let count = Int(header & 0x7F) % 17
        // Every moment within two days of the start: enough for a daylight-saving change near it and for a week's
        // schedule to start, and a bound on the intervals the engine computes. Without it, 16 activities whose
        // intervals repeat hourly over a month of steps made one execution take over a minute.
        let horizon = start + ActivityTimelineHarness.horizon
        var now = start
        var useEnd = start
        var steps: [(at: Int64, step: Step)] = []
        for _ in 0..<count where !c.isAtEnd {
            now = min(now + delay(&c), max(horizon, now))  // never back: a use may end a second past the horizon
            let op = c.below(9)
            switch op {
            case 0, 1, 2:
                // A name byte of 0xF0 or more starts eight consecutive names on the one schedule, so that 16
                // steps can reach the limit of 20 activities.
                let nameByte = Int(c.byte())
                let batch = nameByte >= 0xF0 ? 8 : 1
                let start = components(&c)
                let end = components(&c)
                let flags = c.byte()
                let warning: DateComponents? = flags & 2 != 0 ? duration(&c) : nil
                var events: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
                for _ in 0..<Int(flags >> 2) % 4 { events[eventNames[c.below(eventNames.count)]] = event(&c) }
                let schedule = DeviceActivitySchedule(
                    intervalStart: start, intervalEnd: end, repeats: flags & 1 == 0, warningTime: warning)
                for k in 0..<batch {
                    steps.append((now, .startMonitoring(names[(nameByte + k) % names.count], schedule, events)))
                }
            case 3:
                let n = c.below(3)
                steps.append((now, .stopMonitoring((0..<n).map { _ in names[c.below(names.count)] })))
            case 4, 5:
                now = max(now, useEnd)
                let length = max(1, delay(&c))
                let foreground = foregrounds[c.below(foregrounds.count)]
                useEnd = max(now + 1, min(now + length, horizon))
                steps.append((now, .use(until: useEnd, foreground)))
            case 6: steps.append((now, .setTimeZone(FuzzZones.zones[c.below(FuzzZones.zones.count)])))
            case 7: steps.append((now, .revoke))
            default: steps.append((now, .authorize))
            }
        }
        let until = max(min(max(now, useEnd) + delay(&c), horizon), useEnd)
        return Timeline(zone: FuzzZones.zones[zone], start: start, until: until, authorized: authorized, steps: steps)
    }

    // MARK: Running

    /// The timeline through the engine, as `ActivityWire.run` does it: before each step the clock runs to its
    /// moment (ending a use whose end comes first), delivering what is due before the moment; the step's call
    /// applies; at the end the clock runs to `until` and `activities` is read.
    public static func run(_ timeline: Timeline) -> Result {
        var engine = MonitoringEngine(now: timeline.start, zone: timeline.zone)
        var authorized = timeline.authorized
        var result = Result()
        var useEnd: Int64?
        var useStart: Int64 = 0
        var applied = 0

        func record(_ callbacks: [DeviceActivityCallback], _ source: Source) {
            result.records += callbacks.map { Record(callback: $0, source: source, afterSteps: applied) }
        }
        func run(to target: Int64) {
            while engine.now < target {
                while case let due = engine.deliverDue(), !due.isEmpty { record(due, .clock) }
                engine.advance(toward: target)
            }
        }
        func advance(to target: Int64) {
            if let end = useEnd, end <= target {
                run(to: end)
                record(engine.deliverThresholds(), .clock)  // a use that ends there ends first (SPEC §8.5)
                engine.endUse()
                result.uses.append(useStart...end)
                useEnd = nil
            }
            run(to: target)
        }

        for (index, (at, step)) in timeline.steps.enumerated() {
            advance(to: at)
            switch step {
            case .startMonitoring(let name, let schedule, let events):
                do throws(DeviceActivityCenter.MonitoringError) {
                    record(
                        try engine.startMonitoring(name, during: schedule, events: events, authorized: authorized),
                        .call)
                } catch {
                    result.errors[index] = error
                }
            case .stopMonitoring(let names): record(engine.stopMonitoring(names), .call)
            case .use(let until, let foreground):
                engine.beginUse(foreground)
                useStart = at
                useEnd = until
            case .setTimeZone(let zone): engine.setTimeZone(zone)
            case .revoke:
                authorized = false
                engine.stopAllSilently()
            case .authorize: authorized = true
            }
            applied = index + 1
        }
        advance(to: timeline.until)
        if let end = useEnd { result.uses.append(useStart...end) }
        result.activities = engine.activities()
        return result
    }

    // MARK: Invariants

    public static func check(_ bytes: [UInt8]) -> HarnessFailure? {
        let timeline = decode(bytes)
        let result = run(timeline)
        if let failure = invariants(timeline, result) { return failure }
        // Determinism: the same timeline again, from nothing, gives the same answer.
        let again = run(timeline)
        if again != result {
            return HarnessFailure(
                "running a timeline twice gives the same result",
                "first \(result.records.map(\.callback)), then \(again.records.map(\.callback))")
        }
        if let failure = ActivitySimulatorCheck.compare(timeline, result) { return failure }
        return nil
    }

    static func invariants(_ timeline: Timeline, _ result: Result) -> HarnessFailure? {
        func fail(_ invariant: String, _ record: Record) -> HarnessFailure {
            HarnessFailure(invariant, "\(record.callback) (\(record.source), after step \(record.afterSteps))")
        }
        var open: Set<DeviceActivityName> = []  // an interval started and its end not delivered
        var reached: Set<String> = []  // activity, event, kind: delivered in the open interval
        var last = timeline.start
        var applied = 0
        var mixed: Set<DeviceActivityName> = []  // monitored now with a schedule of mixed kinds
        var everStarted: Set<DeviceActivityName> = []

        // Applies the steps before the record's position: what the invariants need to know of them.
        func apply(upTo count: Int) {
            while applied < count {
                let (_, step) = timeline.steps[applied]
                switch step {
                case .startMonitoring(let name, let schedule, _) where result.errors[applied] == nil:
                    everStarted.insert(name)
                    let isMixed =
                        (ComponentPattern(schedule.intervalStart)?.namesDate ?? false)
                        != (ComponentPattern(schedule.intervalEnd)?.namesDate ?? false)
                    if isMixed { mixed.insert(name) } else { mixed.remove(name) }
                case .revoke:
                    open.removeAll()  // stopped with no callback (SPEC §8.2)
                    reached.removeAll()
                    mixed.removeAll()
                default: break
                }
                applied += 1
            }
        }

        for record in result.records {
            apply(upTo: record.afterSteps)
            let cb = record.callback
            let t = cb.seconds
            guard t >= last else { return fail("callbacks come in non-decreasing time", record) }
            last = t
            guard t >= timeline.start && t <= timeline.until else {
                return fail("callbacks lie in the timeline", record)
            }
            guard everStarted.contains(cb.activity) else {
                return fail("callbacks only for an activity whose startMonitoring succeeded", record)
            }
            guard !mixed.contains(cb.activity) else {
                return fail("an activity of mixed kinds gets no callback (SPEC §8.1, A20)", record)
            }
            guard
                (cb.event != nil) == (cb.kind == .eventDidReachThreshold || cb.kind == .eventWillReachThresholdWarning)
            else { return fail("an event name exactly on the two event callbacks", record) }
            switch record.source {
            case .call:
                guard cb.kind == .intervalDidEnd else {
                    return fail("a call delivers only a stop's intervalDidEnd", record)
                }
                guard record.afterSteps < timeline.steps.count, t == timeline.steps[record.afterSteps].at else {
                    return fail("a stop's intervalDidEnd comes at the stop's moment", record)
                }
            case .clock:
                let inUse: Bool
                if cb.kind == .eventDidReachThreshold || cb.kind == .eventWillReachThresholdWarning {
                    inUse = result.uses.contains { $0.contains(t) }  // a threshold at a use's end counts
                } else {
                    inUse = result.uses.contains { t >= $0.lowerBound && t < $0.upperBound }
                }
                guard inUse else { return fail("no callback while the device is not in use (SPEC §8.3)", record) }
            }
            let name = cb.activity
            switch cb.kind {
            case .intervalDidStart:
                guard !open.contains(name) else {
                    return fail("a start is followed by its end before the next start", record)
                }
                open.insert(name)
                reached = reached.filter { !$0.hasPrefix(name.rawValue + "\u{0}") }
            case .intervalDidEnd:
                guard open.contains(name) else { return fail("no intervalDidEnd without an earlier start", record) }
                open.remove(name)
            case .intervalWillStartWarning:
                guard !open.contains(name) else {
                    return fail("intervalWillStartWarning only between intervals", record)
                }
            case .intervalWillEndWarning, .eventDidReachThreshold, .eventWillReachThresholdWarning:
                guard open.contains(name) else { return fail("\(cb.kind) only inside a started interval", record) }
                let key = name.rawValue + "\u{0}" + (cb.event?.rawValue ?? "") + "\u{0}" + cb.kind.rawValue
                guard !reached.contains(key) else {
                    return fail("each warning and threshold at most once per interval (SPEC §8.4)", record)
                }
                reached.insert(key)
            }
        }
        apply(upTo: timeline.steps.count)
        let names = result.activities
        guard names.count <= 20 else {
            return HarnessFailure("at most 20 activities (SPEC §8.2)", "\(names.count): \(names)")
        }
        for (a, b) in zip(names, names.dropFirst())
        where !a.rawValue.unicodeScalars.lexicographicallyPrecedes(b.rawValue.unicodeScalars) {
            return HarnessFailure("activities are distinct and in code point order", "\(names)")
        }
        for name in names where !everStarted.contains(name) {
            return HarnessFailure("activities are names whose startMonitoring succeeded", "\(name) in \(names)")
        }
        for (index, error) in result.errors.sorted(by: { $0.key < $1.key }) {
            guard case .startMonitoring = timeline.steps[index].step else {
                return HarnessFailure("only startMonitoring throws", "step \(index): \(error)")
            }
        }
        return nil
    }
}
