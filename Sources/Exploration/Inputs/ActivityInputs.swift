import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of `activity.schedule` and `activity.monitor` (`SPEC.md` §8, §5.2): the properties' generators of
/// blocker-app schedules (overnight, 00:00 ends, `hour: 24`, weekdays, days 29–31, mixed kinds, timers under 15
/// minutes, out-of-range members), moments near the 2026 daylight-saving changes and midnights, and timelines of
/// up to twelve steps over about three days; sometimes a member of the wrong type, an unknown zone, a malformed
/// moment or steps out of order, for the wire's `badInput`.
enum ActivityInputs {
    static let operations = [schedule, monitor]

    /// The order of `startMonitoring`'s checks that `activity.schedule` answers (`SPEC.md` §8.1, §8.2).
    static let scheduleErrors = ["badInput", "invalidDateComponents", "intervalTooShort", "intervalTooLong"]

    static let schedule = ExploredOperation(
        name: "activity.schedule",
        input: Gen<JSONValue>.frequency([
            (30, Gen<ActivityScheduleQuery>.activityScheduleQuery().map(json)),
            (1, Gen<ActivityScheduleQuery>.activityScheduleQuery().zip(corruption).map { corrupt(json($0), $1) }),
        ]),
        errorOrder: scheduleErrors)

    static let monitor = ExploredOperation(
        name: "activity.monitor",
        input: Gen<JSONValue>.frequency([
            (30, Gen<ActivityTimeline>.activityTimeline().map(json)),
            (1, Gen<ActivityTimeline>.activityTimeline().zip(corruption).map { corrupt(json($0), $1) }),
            (1, Gen<ActivityTimeline>.activityTimeline().filter { $0.steps.count >= 2 }.map(outOfOrder)),
        ]))

    // MARK: Wire forms

    static func moment(_ seconds: Int64) -> JSONValue { .string(ActivityMoment.format(seconds)) }

    static func json(_ c: ActivityComponents) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, value) in c.integers { members[name] = .number(Double(value)) }
        if let zone = c.timeZone { members["timeZone"] = .string(zone) }
        return .object(members)
    }

    static func json(_ d: ActivityDuration) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, value) in d.integers { members[name] = .number(Double(value)) }
        return .object(members)
    }

    static func json(_ s: ActivityScheduleDescription) -> JSONValue {
        var members: [String: JSONValue] = [
            "intervalStart": json(s.start), "intervalEnd": json(s.end), "repeats": .bool(s.repeats),
        ]
        if let warning = s.warningTime { members["warningTime"] = json(warning) }
        return .object(members)
    }

    static func json(_ e: ActivityEventDescription) -> JSONValue {
        var members: [String: JSONValue] = ["threshold": json(e.threshold)]
        if !e.applications.isEmpty { members["applications"] = .array(e.applications.map(JSONValue.string)) }
        if !e.categories.isEmpty { members["categories"] = .array(e.categories.map(JSONValue.string)) }
        if !e.webDomains.isEmpty { members["webDomains"] = .array(e.webDomains.map(JSONValue.string)) }
        if let past = e.includesPastActivity { members["includesPastActivity"] = .bool(past) }
        return .object(members)
    }

    static func json(_ q: ActivityScheduleQuery) -> JSONValue {
        ["timeZone": .string(q.timeZone), "at": moment(q.at), "schedule": json(q.schedule)]
    }

    static func json(_ t: ActivityTimedStep) -> JSONValue {
        var members: [String: JSONValue] = ["at": moment(t.at)]
        switch t.step {
        case .startMonitoring(let name, let schedule, let events):
            members["do"] = "startMonitoring"
            members["name"] = .string(name)
            members["schedule"] = json(schedule)
            if !events.isEmpty { members["events"] = .object(events.mapValues(json)) }
        case .stopMonitoring(let names):
            members["do"] = "stopMonitoring"
            members["names"] = .array(names.map(JSONValue.string))
        case .use(let until, let foreground):
            members["do"] = "use"
            members["until"] = moment(until)
            if let a = foreground.application { members["application"] = .string(a) }
            if let c = foreground.category { members["category"] = .string(c) }
            if let w = foreground.webDomain { members["webDomain"] = .string(w) }
        case .setTimeZone(let zone):
            members["do"] = "setTimeZone"
            members["timeZone"] = .string(zone)
        case .revoke: members["do"] = "revoke"
        case .authorize: members["do"] = "authorize"
        }
        return .object(members)
    }

    static func json(_ t: ActivityTimeline) -> JSONValue {
        var members: [String: JSONValue] = [
            "timeZone": .string(t.timeZone), "start": moment(t.start), "until": moment(t.until),
            "steps": .array(t.steps.map(json)),
        ]
        if let authorized = t.authorized { members["authorized"] = .bool(authorized) }
        return .object(members)
    }

    // MARK: Malformed inputs

    /// What to spoil in an input: which member (found depth first, by the index of a member that is a number,
    /// a string or a boolean), and with what.
    static let corruption = Gen<Int>.int(in: 0...40).zip(
        Gen<JSONValue>.element(of: [
            "9", 9.5, .null, .bool(true), "Mars/Olympus_Mons", "2026-03-08T02:30:00", "2026-02-30T00:00:00Z",
            "2026-03-08 07:00:00Z", [], [:],
        ]))

    /// `value` with its `n`-th scalar member (depth first, modulo their count) replaced by `replacement`.
    static func corrupt(_ value: JSONValue, _ spoil: (Int, JSONValue)) -> JSONValue {
        var count = 0
        func countScalars(_ v: JSONValue) {
            switch v {
            case .object(let members):
                for (_, member) in members.sorted(by: { $0.key < $1.key }) { countScalars(member) }
            case .array(let elements): elements.forEach(countScalars)
            default: count += 1
            }
        }
        countScalars(value)
        guard count > 0 else { return value }
        var target = spoil.0 % count
        func replace(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let members):
                var out = members
                for (key, member) in members.sorted(by: { $0.key < $1.key }) { out[key] = replace(member) }
                return .object(out)
            case .array(let elements): return .array(elements.map(replace))
            default:
                defer { target -= 1 }
                return target == 0 ? spoil.1 : v
            }
        }
        return replace(value)
    }

    /// A timeline whose last two steps are swapped when their moments differ (steps out of order: `badInput`),
    /// or whose last use is moved to overlap the one before.
    static func outOfOrder(_ t: ActivityTimeline) -> JSONValue {
        var t = t
        let n = t.steps.count
        // Shrinking can leave fewer than two steps: nothing to put out of order then.
        guard n >= 2 else { return json(t) }
        if t.steps[n - 1].at != t.steps[n - 2].at {
            t.steps.swapAt(n - 1, n - 2)
        } else if case .use(let until, let fg) = t.steps[n - 1].step {
            t.steps[n - 1].step = .use(until: until + 1, fg)
            t.steps.append(ActivityTimedStep(at: t.steps[n - 1].at, step: .use(until: until + 1, fg)))
            t.until = max(t.until, until + 1)
        }
        return json(t)
    }
}
