import Foundation
import PropertyTesting
import ScreenTimeReference

// MARK: - Descriptions

/// Date components as the `activity.*` wire writes them (`SPEC.md` §5.2): the eight members the reference reads,
/// each optional, the zone by its IANA name (which may be unknown, for the wire's `badInput`).
public struct ActivityComponents: Hashable, Sendable, CustomStringConvertible {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?
    public var weekday: Int?
    public var timeZone: String?

    public init(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil,
        second: Int? = nil, weekday: Int? = nil, timeZone: String? = nil
    ) {
        (self.year, self.month, self.day, self.hour) = (year, month, day, hour)
        (self.minute, self.second, self.weekday, self.timeZone) = (minute, second, weekday, timeZone)
    }

    /// The members that are given, by wire name, in the wire's order.
    public var integers: [(String, Int)] {
        [
            ("year", year), ("month", month), ("day", day), ("hour", hour), ("minute", minute), ("second", second),
            ("weekday", weekday),
        ].compactMap { name, value in value.map { (name, $0) } }
    }

    /// The reference's `DateComponents` (an unknown zone name is left out: only the wire can carry one).
    public var dateComponents: DateComponents {
        var c = DateComponents()
        (c.year, c.month, c.day, c.hour, c.minute, c.second, c.weekday) = (
            year, month, day, hour, minute, second, weekday
        )
        if let timeZone { c.timeZone = TimeZone(identifier: timeZone) }
        return c
    }

    /// Only `hour`, then optionally `minute`, then optionally `second` given (in range), no zone-free units in
    /// between: one wall-clock time a day (`SPEC.md` §8.1, least units). Its second of the day, else `nil`.
    public var singleTimeOfDay: Int64? {
        guard year == nil, month == nil, day == nil, weekday == nil, let hour, (0...23).contains(hour) else {
            return nil
        }
        if second != nil && minute == nil { return nil }
        let m = minute ?? 0
        let s = second ?? 0
        guard (0...59).contains(m), (0...59).contains(s) else { return nil }
        return Int64(hour * 3600 + m * 60 + s)
    }

    public var description: String {
        "{" + (integers.map { "\($0): \($1)" } + (timeZone.map { ["timeZone: \($0)"] } ?? [])).joined(separator: ", ")
            + "}"
    }
}

/// A duration on the wire: `day`, `hour`, `minute`, `second`, each optional (`SPEC.md` §5.2, §8.1).
public struct ActivityDuration: Hashable, Sendable, CustomStringConvertible {
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?

    public init(day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Int? = nil) {
        (self.day, self.hour, self.minute, self.second) = (day, hour, minute, second)
    }

    public var integers: [(String, Int)] {
        [("day", day), ("hour", hour), ("minute", minute), ("second", second)].compactMap { n, v in v.map { (n, $0) } }
    }

    public var dateComponents: DateComponents { DateComponents(day: day, hour: hour, minute: minute, second: second) }

    /// The seconds it sums to, or `nil` when a part is negative (`invalidDateComponents`, Assumption A21).
    public var seconds: Int64? { Self.sum(self) }

    static func sum(_ d: ActivityDuration) -> Int64? {
        var total: Int64 = 0
        for (value, unit) in [(d.day, 86_400), (d.hour, 3600), (d.minute, 60), (d.second, 1)] as [(Int?, Int64)] {
            guard let value else { continue }
            guard value >= 0 else { return nil }
            total += Int64(value) * unit
        }
        return total
    }

    public var description: String { "{" + integers.map { "\($0): \($1)" }.joined(separator: ", ") + "}" }
}

/// A schedule on the wire.
public struct ActivityScheduleDescription: Hashable, Sendable, CustomStringConvertible {
    public var start: ActivityComponents
    public var end: ActivityComponents
    public var repeats: Bool
    public var warningTime: ActivityDuration?

    public init(start: ActivityComponents, end: ActivityComponents, repeats: Bool, warningTime: ActivityDuration? = nil)
    {
        (self.start, self.end, self.repeats, self.warningTime) = (start, end, repeats, warningTime)
    }

    public var schedule: DeviceActivitySchedule {
        DeviceActivitySchedule(
            intervalStart: start.dateComponents, intervalEnd: end.dateComponents, repeats: repeats,
            warningTime: warningTime?.dateComponents)
    }

    public var description: String {
        "\(start)→\(end)\(repeats ? " repeats" : "")\(warningTime.map { " warning \($0)" } ?? "")"
    }
}

/// An event on the wire: token ids as in `shield.evaluate` (`app:game`, `cat:games`, `web:news`).
public struct ActivityEventDescription: Hashable, Sendable, CustomStringConvertible {
    public var applications: [String]
    public var categories: [String]
    public var webDomains: [String]
    public var threshold: ActivityDuration
    /// `nil` is absent (`false`).
    public var includesPastActivity: Bool?

    public init(
        applications: [String] = [], categories: [String] = [], webDomains: [String] = [],
        threshold: ActivityDuration, includesPastActivity: Bool? = nil
    ) {
        (self.applications, self.categories, self.webDomains) = (applications, categories, webDomains)
        (self.threshold, self.includesPastActivity) = (threshold, includesPastActivity)
    }

    public var event: DeviceActivityEvent {
        DeviceActivityEvent(
            applications: Set(applications.map(ApplicationToken.init(utf8Of:))),
            categories: Set(categories.map(ActivityCategoryToken.init(utf8Of:))),
            webDomains: Set(webDomains.map(WebDomainToken.init(utf8Of:))), threshold: threshold.dateComponents,
            includesPastActivity: includesPastActivity ?? false)
    }

    /// Whether a second of `use` counts (`SPEC.md` §8.4), computed on the ids (independently of the engine).
    public func counts(_ use: ActivityForeground) -> Bool {
        if applications.isEmpty && categories.isEmpty && webDomains.isEmpty { return true }
        if let a = use.application, applications.contains(a) { return true }
        if let c = use.category, categories.contains(c) { return true }
        if let w = use.webDomain, webDomains.contains(w) { return true }
        return false
    }

    public var description: String {
        let tokens = applications + categories + webDomains
        return "[\(tokens.joined(separator: " "))] ≥ \(threshold)\(includesPastActivity == true ? " past" : "")"
    }
}

/// What is on screen during a use, by id.
public struct ActivityForeground: Hashable, Sendable, CustomStringConvertible {
    public var application: String?
    public var category: String?
    public var webDomain: String?

    public init(application: String? = nil, category: String? = nil, webDomain: String? = nil) {
        (self.application, self.category, self.webDomain) = (application, category, webDomain)
    }

    public var foreground: Foreground {
        Foreground(
            application: application.map(ApplicationToken.init(utf8Of:)),
            category: category.map(ActivityCategoryToken.init(utf8Of:)),
            webDomain: webDomain.map(WebDomainToken.init(utf8Of:)))
    }

    public var description: String {
        [application, category, webDomain].compactMap { $0 }.joined(separator: "/").isEmpty
            ? "device" : [application, category, webDomain].compactMap { $0 }.joined(separator: "/")
    }
}

/// One step of an `activity.monitor` timeline.
public enum ActivityStep: Hashable, Sendable, CustomStringConvertible {
    case startMonitoring(
        name: String, schedule: ActivityScheduleDescription, events: [String: ActivityEventDescription])
    case stopMonitoring([String])
    case use(until: Int64, ActivityForeground)
    case setTimeZone(String)
    case revoke
    case authorize

    public var description: String {
        switch self {
        case .startMonitoring(let name, let schedule, let events):
            let list = events.keys.sorted().map { "\($0): \(events[$0]!)" }.joined(separator: ", ")
            return "startMonitoring \(name) \(schedule)\(events.isEmpty ? "" : " events {\(list)}")"
        case .stopMonitoring(let names): return "stopMonitoring \(names)"
        case .use(let until, let foreground): return "use \(foreground) until \(ActivityMoment.format(until))"
        case .setTimeZone(let zone): return "setTimeZone \(zone)"
        case .revoke: return "revoke"
        case .authorize: return "authorize"
        }
    }
}

/// A step with its moment (UTC seconds).
public struct ActivityTimedStep: Hashable, Sendable {
    public var at: Int64
    public var step: ActivityStep
    public init(at: Int64, step: ActivityStep) { (self.at, self.step) = (at, step) }
}

/// A whole `activity.monitor` input (`SPEC.md` §5.2): steps in order of `at`, inside `[start, until]`, uses not
/// overlapping.
public struct ActivityTimeline: Hashable, Sendable, CustomStringConvertible {
    public var timeZone: String
    public var start: Int64
    public var until: Int64
    /// `nil` is absent (`true`).
    public var authorized: Bool?
    public var steps: [ActivityTimedStep]

    public init(timeZone: String, start: Int64, until: Int64, authorized: Bool? = nil, steps: [ActivityTimedStep]) {
        (self.timeZone, self.start, self.until, self.authorized, self.steps) = (
            timeZone, start, until, authorized, steps
        )
    }

    /// The device's time zone in force at `moment` (after the changes made at or before it).
    public func zone(at moment: Int64) -> String {
        var zone = timeZone
        for s in steps where s.at <= moment { if case .setTimeZone(let z) = s.step { zone = z } }
        return zone
    }

    /// The uses, as `[from, until)` with their foreground.
    public var uses: [(from: Int64, until: Int64, foreground: ActivityForeground)] {
        steps.compactMap { s in
            if case .use(let until, let fg) = s.step { return (s.at, until, fg) }
            return nil
        }
    }

    public var description: String {
        var lines = [
            "zone \(timeZone), \(ActivityMoment.format(start)) … \(ActivityMoment.format(until))"
                + (authorized == false ? ", unauthorized" : "")
        ]
        for s in steps { lines.append("  \(ActivityMoment.format(s.at)) \(s.step)") }
        return lines.joined(separator: "\n")
    }
}

/// An `activity.schedule` input.
public struct ActivityScheduleQuery: Hashable, Sendable, CustomStringConvertible {
    public var timeZone: String
    public var at: Int64
    public var schedule: ActivityScheduleDescription

    public init(timeZone: String, at: Int64, schedule: ActivityScheduleDescription) {
        (self.timeZone, self.at, self.schedule) = (timeZone, at, schedule)
    }

    public var description: String { "\(schedule) at \(ActivityMoment.format(at)) in \(timeZone)" }
}

// MARK: - Generators

/// The values the activity generators draw from: device zones, moments near the 2026 daylight-saving changes and
/// midnights, blocker-app schedule shapes, tokens and foregrounds.
public enum ActivityUniverse {
    /// The device zones; the first is the simplest.
    public static let zones = [
        "America/New_York", "UTC", "America/Los_Angeles", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe",
        "Asia/Kolkata",
    ]
    /// A name no time zone has (the wire's `badInput`).
    public static let unknownZone = "Mars/Olympus_Mons"

    /// UTC instants near which moments are drawn: daylight-saving changes of 2026 in the zones above, and local
    /// midnights.
    public static let anchors: [Int64] = [
        "2026-03-08T07:00:00Z",  // New York springs forward (02:00 EST)
        "2026-11-01T06:00:00Z",  // New York falls back (02:00 EDT)
        "2026-03-08T10:00:00Z",  // Los Angeles springs forward
        "2026-11-01T09:00:00Z",  // Los Angeles falls back
        "2026-03-29T01:00:00Z",  // London springs forward
        "2026-10-25T01:00:00Z",  // London falls back
        "2026-04-04T16:00:00Z",  // Sydney falls back (03:00 AEDT)
        "2026-10-03T16:00:00Z",  // Sydney springs forward (02:00 AEST)
        "2026-04-04T15:00:00Z",  // Lord Howe falls back half an hour (02:00 +11)
        "2026-10-03T15:30:00Z",  // Lord Howe springs forward half an hour (02:00 +10:30)
        "2026-03-08T05:00:00Z",  // midnight in New York
        "2026-06-15T00:00:00Z",  // midnight UTC and London-ish summer
        "2026-06-14T18:30:00Z",  // midnight in Kolkata
        "2026-01-31T13:00:00Z",  // midnight in Sydney, end of January
    ].map { ActivityMoment.parse($0)! }

    public static let applications = ["app:game", "app:mail"]
    public static let categories = ["cat:games", "cat:social"]
    public static let webDomains = ["web:news"]
    public static let foregrounds = [
        ActivityForeground(application: "app:game", category: "cat:games"),
        ActivityForeground(),
        ActivityForeground(application: "app:mail"),
        ActivityForeground(category: "cat:social", webDomain: "web:news"),
        ActivityForeground(application: "app:chat", category: "cat:social"),
    ]
    public static let activityNames = ["bedtime", "focus", "timer"]
    public static let eventNames = ["limit", "warn", "games"]
}

extension Gen where Value == String {
    /// A device zone; with `unknown`, rarely a name no zone has.
    public static func activityZone(unknown: Bool = false) -> Gen<String> {
        let known = Gen<String>.element(of: ActivityUniverse.zones)
        guard unknown else { return known }
        return .frequency([(40, known), (1, .constant(ActivityUniverse.unknownZone))])
    }
}

extension Gen where Value == Int64 {
    /// A moment within two days of an anchor (a daylight-saving change or a midnight), in minutes mostly.
    public static var activityMoment: Gen<Int64> {
        Gen<Int64>.element(of: ActivityUniverse.anchors).zip(
            Gen<Int64>.frequency([
                (6, Gen<Int64>.int(in: -2880...2880).map { $0 * 60 }),
                (1, Gen<Int64>.int(in: -172_800...172_800)),
            ])
        ).map { $0 + $1 }
    }
}

/// Hours and minutes as schedules use them: the evening, midnight and the morning first; whole and half hours.
enum ActivityClock {
    static let hours: Gen<Int> = .frequency([
        (4, .element(of: [21, 22, 0, 9, 7, 23, 2, 1, 3, 12, 17])), (1, .int(in: 0...23)),
    ])
    static let minutes: Gen<Int> = .frequency([(4, .element(of: [0, 30, 15, 45, 59, 5])), (1, .int(in: 0...59))])
}

extension Gen where Value == ActivityComponents {
    /// A time of day: `{hour}`, `{hour, minute}`, sometimes with `second`.
    static let timeOfDay: Gen<ActivityComponents> = Gen<ActivityComponents> { source in
        let hour = ActivityClock.hours.generate(using: source)
        let minute = ActivityClock.minutes.optional(probability: 0.7).generate(using: source)
        let second =
            minute == nil ? nil : Gen<Int>.element(of: [0, 30, 59]).optional(probability: 0.1).generate(using: source)
        return ActivityComponents(hour: hour, minute: minute, second: second)
    }

    /// One side of a schedule, in a shape blocker apps use, sometimes out of range (with `hostile`).
    public static func activityComponents(hostile: Bool = true) -> Gen<ActivityComponents> {
        var shapes: [(Int, Gen<ActivityComponents>)] = [
            (10, timeOfDay),
            (2, .constant(ActivityComponents(hour: 0, minute: 0))),
            (
                2,
                timeOfDay.zip(Gen<Int>.int(in: 1...7)).map { c, w in
                    var c = c
                    c.weekday = w
                    return c
                }
            ),
            (
                1,
                timeOfDay.zip(Gen<Int>.element(of: [29, 30, 31, 1, 15, 28])).map { c, d in
                    var c = c
                    c.day = d
                    return c
                }
            ),
            (
                1,
                Gen<(ActivityComponents, Int, Int)>.zip(
                    timeOfDay, Gen<Int>.int(in: 1...12), Gen<Int>.element(of: [1, 8, 29, 30, 31])
                )
                .map { c, m, d in
                    var c = c
                    (c.year, c.month, c.day) = (2026, m, d)
                    return c
                }
            ),
            (1, ActivityClock.minutes.map { ActivityComponents(minute: $0) }),
            (1, Gen<Int>.element(of: [1, 15, 31]).map { ActivityComponents(day: $0) }),
        ]
        if hostile {
            shapes += [
                (1, .constant(ActivityComponents(hour: 24))),
                (1, .constant(ActivityComponents(hour: 24, minute: 0))),
                (1, .constant(ActivityComponents())),
                (
                    1,
                    .element(of: [
                        ActivityComponents(month: 13, day: 1), ActivityComponents(hour: 9, minute: 60),
                        ActivityComponents(hour: 9, weekday: 0), ActivityComponents(hour: 9, weekday: 8),
                        ActivityComponents(day: 32, hour: 9), ActivityComponents(year: 0, month: 1, day: 1),
                        ActivityComponents(month: 2, day: 30, hour: 9), ActivityComponents(hour: -1),
                        ActivityComponents(hour: 9, second: 60),
                    ])
                ),
            ]
        }
        let shape = Gen<ActivityComponents>.frequency(shapes)
        return Gen<ActivityComponents> { source in
            var c = shape.generate(using: source)
            c.timeZone = Gen<String>.activityZone().optional(probability: 0.08).generate(using: source)
            return c
        }
    }
}

extension Gen where Value == ActivityDuration {
    /// A warning time or a threshold: minutes mostly, sometimes zero, rarely negative (with `hostile`).
    public static func activityDuration(hostile: Bool = true) -> Gen<ActivityDuration> {
        var shapes: [(Int, Gen<ActivityDuration>)] = [
            (6, Gen<Int>.element(of: [5, 15, 1, 30, 10, 60]).map { ActivityDuration(minute: $0) }),
            (1, .constant(ActivityDuration(hour: 1))),
            (1, Gen<Int>.element(of: [0, 1, 90]).map { ActivityDuration(second: $0) }),
            (1, .constant(ActivityDuration(minute: 1, second: 30))),
        ]
        if hostile { shapes.append((1, .element(of: [ActivityDuration(minute: -5), ActivityDuration(second: -1)]))) }
        return .frequency(shapes)
    }
}

extension Gen where Value == ActivityScheduleDescription {
    /// A schedule: a start and an end of blocker shapes (overnight, midnight ends, timers of a few minutes,
    /// weekly), repeating mostly, a warning sometimes.
    public static func activitySchedule(hostile: Bool = true) -> Gen<ActivityScheduleDescription> {
        let side = Gen<ActivityComponents>.activityComponents(hostile: hostile)
        // A timer: an end a few minutes after a start (too short under 15), like `now + 15 min`.
        let timer = Gen<ActivityComponents>.timeOfDay.zip(Gen<Int>.element(of: [15, 5, 20, 60, 14])).map {
            start, minutes -> (ActivityComponents, ActivityComponents) in
            let total = ((start.hour ?? 0) * 60 + (start.minute ?? 0) + minutes) % 1440
            var end = ActivityComponents(hour: total / 60, minute: total % 60)
            end.second = start.second
            return (start, end)
        }
        let pair = Gen<(ActivityComponents, ActivityComponents)>.frequency([
            (8, side.zip(side)),
            (2, timer),
            (1, Gen<ActivityComponents>.timeOfDay.map { ($0, $0) }),  // a whole day (or week with a weekday)
        ])
        return Gen<ActivityScheduleDescription> { source in
            let (start, end) = pair.generate(using: source)
            let repeats = Gen<Bool>.bool(probability: 0.8).generate(using: source)
            let warning = Gen<ActivityDuration>.activityDuration(hostile: hostile).optional(probability: 0.3)
                .generate(using: source)
            return ActivityScheduleDescription(start: start, end: end, repeats: repeats, warningTime: warning)
        }
    }
}

extension Gen where Value == ActivityScheduleQuery {
    /// An `activity.schedule` input: a zone, a moment near a daylight-saving change or a midnight, a schedule.
    public static func activityScheduleQuery(hostile: Bool = true, unknownZones: Bool = true) -> Gen<
        ActivityScheduleQuery
    > {
        Gen<(String, Int64, ActivityScheduleDescription)>.zip(
            Gen<String>.activityZone(unknown: unknownZones), Gen<Int64>.activityMoment,
            Gen<ActivityScheduleDescription>.activitySchedule(hostile: hostile)
        ).map { ActivityScheduleQuery(timeZone: $0, at: $1, schedule: $2) }
    }
}

extension Gen where Value == ActivityEventDescription {
    /// An event: no token (all activity) or one or two of the universe's, a threshold, sometimes past activity.
    public static func activityEvent(hostile: Bool = true) -> Gen<ActivityEventDescription> {
        Gen<ActivityEventDescription> { source in
            let pick = Gen<Int>.int(in: 0...4).generate(using: source)
            var e = ActivityEventDescription(threshold: .init())
            switch pick {
            case 0: break
            case 1: e.applications = [ActivityUniverse.applications[0]]
            case 2: e.categories = [Gen<String>.element(of: ActivityUniverse.categories).generate(using: source)]
            case 3: e.webDomains = ActivityUniverse.webDomains
            default: (e.applications, e.categories) = (["app:mail"], ["cat:social"])
            }
            e.threshold = Gen<ActivityDuration>.activityDuration(hostile: hostile).generate(using: source)
            e.includesPastActivity = Gen<Bool>.bool.optional(probability: 0.3).generate(using: source)
            return e
        }
    }
}

/// A step as drawn: its kind, and the gap before it (so that deleting one keeps the others in order).
struct RawActivityStep: Sendable {
    var gap: Int64
    var step: ActivityStep
    /// Set for a burst of 21 starts at one moment (`excessiveActivities`).
    var burst = false
}

extension Gen where Value == ActivityTimeline {
    /// An `activity.monitor` input: 0–12 steps in order over up to about three days from a moment near a
    /// daylight-saving change or a midnight: starts with 0–3 events, stops (`[]` and unknown names too), uses
    /// with application, category and web-domain foregrounds, zone changes, revocations; rarely 21 starts at
    /// once. With `hostile`, out-of-range components and negative durations; with `unknownZones`, rarely a zone
    /// name no zone has.
    public static func activityTimeline(hostile: Bool = true, unknownZones: Bool = true) -> Gen<ActivityTimeline> {
        let schedule = Gen<ActivityScheduleDescription>.activitySchedule(hostile: hostile)
        let event = Gen<ActivityEventDescription>.activityEvent(hostile: hostile)
        let name = Gen<String>.element(of: ActivityUniverse.activityNames)
        let gap = Gen<Int64>.frequency([
            (5, Gen<Int64>.element(of: [0, 5, 15, 30, 60, 1, 10, 120, 180, 360, 720]).map { $0 * 60 }),
            (1, Gen<Int64>.int(in: 0...86_400)),
        ])
        let start = Gen<RawActivityStep> { source in
            let n = name.generate(using: source)
            let s = schedule.generate(using: source)
            let names = Gen<String>.element(of: ActivityUniverse.eventNames).array(count: 0...3).generate(using: source)
            var events: [String: ActivityEventDescription] = [:]
            for e in names { events[e] = event.generate(using: source) }
            return RawActivityStep(gap: 0, step: .startMonitoring(name: n, schedule: s, events: events))
        }
        let stop = Gen<[String]>.frequency([
            (2, .constant([])), (3, name.array(count: 1...2)), (1, .constant(["nobody"])),
        ]).map { RawActivityStep(gap: 0, step: .stopMonitoring($0)) }
        let use = Gen<ActivityForeground>.element(of: ActivityUniverse.foregrounds).zip(
            Gen<Int64>.frequency([
                (5, Gen<Int64>.element(of: [1, 5, 15, 30, 60, 2, 10, 120, 360]).map { $0 * 60 }),
                (1, Gen<Int64>.int(in: 1...20_000)),
            ])
        ).map { fg, length in RawActivityStep(gap: 0, step: .use(until: length, fg)) }  // `until` holds the length
        let other = Gen<RawActivityStep>.frequency([
            (
                3,
                Gen<String>.activityZone(unknown: unknownZones).map { RawActivityStep(gap: 0, step: .setTimeZone($0)) }
            ),
            (2, .constant(RawActivityStep(gap: 0, step: .revoke))),
            (2, .constant(RawActivityStep(gap: 0, step: .authorize))),
        ])
        let burst = Gen<ActivityScheduleDescription>.activitySchedule(hostile: false).map {
            RawActivityStep(gap: 0, step: .startMonitoring(name: "", schedule: $0, events: [:]), burst: true)
        }
        let raw = Gen<RawActivityStep>.frequency([(5, use), (4, start), (2, stop), (2, other)])
        let rawWithBurst = Gen<RawActivityStep>.frequency([(60, raw), (1, burst)])
        return Gen<ActivityTimeline> { source in
            let zone = Gen<String>.activityZone(unknown: unknownZones).generate(using: source)
            let begin = Gen<Int64>.activityMoment.generate(using: source)
            let authorized = Gen<Bool>.bool(probability: 0.9).optional(probability: 0.2).generate(using: source)
            let drawn = Gen<(Int64, RawActivityStep)>.zip(gap, rawWithBurst).map { g, r -> RawActivityStep in
                var r = r
                r.gap = g
                return r
            }.array(count: 0...12).generate(using: source)
            let tail = Gen<Int64>.element(of: [0, 3600, 60, 21_600, 86_400]).generate(using: source)
            return Self.assemble(zone: zone, start: begin, authorized: authorized, drawn, tail: tail)
        }
    }

    /// The timeline of drawn steps: moments accumulated from the gaps (at most three days in), a use moved to the
    /// end of the use before it, `until` after the last step and use.
    static func assemble(
        zone: String, start: Int64, authorized: Bool?, _ drawn: [RawActivityStep], tail: Int64
    ) -> ActivityTimeline {
        let horizon = start + 3 * 86_400
        var now = start
        var useEnd = start
        var steps: [ActivityTimedStep] = []
        for raw in drawn {
            now = min(now + raw.gap, max(now, horizon))  // never back: a use may have run past the horizon
            switch raw.step {
            case .use(let length, let foreground):
                now = max(now, useEnd)
                useEnd = now + length
                steps.append(ActivityTimedStep(at: now, step: .use(until: useEnd, foreground)))
            case .startMonitoring(_, let schedule, _) where raw.burst:
                for i in 0...20 {
                    let name = "a" + (i < 10 ? "0" : "") + String(i)
                    steps.append(
                        ActivityTimedStep(at: now, step: .startMonitoring(name: name, schedule: schedule, events: [:])))
                }
            default: steps.append(ActivityTimedStep(at: now, step: raw.step))
            }
        }
        return ActivityTimeline(
            timeZone: zone, start: start, until: max(now, useEnd) + tail, authorized: authorized, steps: steps)
    }
}
