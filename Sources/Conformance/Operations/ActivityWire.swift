import Foundation
import ScreenTimeReference
import StrictJSON

/// The wire shapes of `activity.schedule` and `activity.monitor` (`SPEC.md` §5.2, §8): moments, components,
/// schedules, events and timelines read from an input, and outputs written from reference values. The reference's
/// operations and the testing kit's typed closures read and write through these functions.
///
/// Choices the spec leaves open: an optional member that is `null` is absent; a number is an integer when it has
/// no fraction (`1.0` is `1`, as JSON equality has it, `SPEC.md` §5.3).
///
/// ```swift
/// let (schedule, at, zone) = try ActivityWire.scheduleQuery(input)
/// ActivityWire.scheduleOutput(schedule.nextInterval(at: at, in: zone)!, at: at)
/// ```
public enum ActivityWire {
    /// A timeline step of `activity.monitor`.
    public enum Step: Hashable, Sendable {
        case startMonitoring(
            DeviceActivityName, DeviceActivitySchedule, [DeviceActivityEvent.Name: DeviceActivityEvent])
        case stopMonitoring([DeviceActivityName])
        case use(until: Int64, Foreground)
        case setTimeZone(TimeZone)
        case revoke
        case authorize
    }

    /// A step and the moment it is taken.
    public struct TimedStep: Hashable, Sendable {
        public var at: Int64
        public var step: Step
        /// A step at a moment (UTC seconds).
        ///
        /// - Parameters:
        ///   - at: The moment.
        ///   - step: The step.
        public init(at: Int64, step: Step) {
            self.at = at
            self.step = step
        }
    }

    /// A whole `activity.monitor` input.
    public struct Timeline: Hashable, Sendable {
        public var timeZone: TimeZone
        public var start: Int64
        public var until: Int64
        public var authorized: Bool
        /// The steps, in order of their moments.
        public var steps: [TimedStep]

        /// A timeline from `start` to `until` (UTC seconds) on a device in `timeZone`.
        ///
        /// - Parameters:
        ///   - timeZone: The device's time zone at `start`.
        ///   - start: The first moment.
        ///   - until: The last moment.
        ///   - authorized: Whether the app is authorized at `start`.
        ///   - steps: The steps, in order.
        public init(timeZone: TimeZone, start: Int64, until: Int64, authorized: Bool = true, steps: [TimedStep]) {
            self.timeZone = timeZone
            self.start = start
            self.until = until
            self.authorized = authorized
            self.steps = steps
        }
    }

    /// A step that threw, by its index in the timeline.
    public struct StepError: Hashable, Sendable {
        public var step: Int
        public var error: DeviceActivityCenter.MonitoringError
        /// The error of step `step`.
        ///
        /// - Parameters:
        ///   - step: The step's index, from 0.
        ///   - error: What `startMonitoring` threw.
        public init(step: Int, error: DeviceActivityCenter.MonitoringError) {
            self.step = step
            self.error = error
        }
    }

    /// What `activity.monitor` answers: the callbacks in delivery order, the steps that threw, and the names
    /// monitored at the end.
    public struct MonitorResult: Hashable, Sendable {
        public var callbacks: [DeviceActivityCallback]
        public var errors: [StepError]
        public var activities: [DeviceActivityName]

        /// A result.
        ///
        /// - Parameters:
        ///   - callbacks: The callbacks in delivery order.
        ///   - errors: The steps that threw.
        ///   - activities: The names monitored at the end, in code point order.
        public init(
            callbacks: [DeviceActivityCallback] = [], errors: [StepError] = [], activities: [DeviceActivityName] = []
        ) {
            self.callbacks = callbacks
            self.errors = errors
            self.activities = activities
        }
    }

    // MARK: Reading

    /// The input of `activity.schedule`: `timeZone`, `at`, `schedule`, read in that order.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The schedule, the moment (UTC seconds) and the device's zone.
    /// - Throws: ``BadInput`` for a missing, mistyped or malformed member.
    public static func scheduleQuery(_ input: InputReader) throws -> (DeviceActivitySchedule, Int64, TimeZone) {
        let zone = try timeZone(input.string("timeZone"), at: "timeZone")
        let at = try moment(input.string("at"), at: "at")
        let schedule = try schedule(input.reader("schedule"), at: "schedule")
        return (schedule, at, zone)
    }

    /// The input of `activity.monitor`, checked whole: steps in order, inside the timeline, uses not overlapping.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The timeline.
    /// - Throws: ``BadInput`` for a missing, mistyped or malformed member, or steps out of order.
    public static func timeline(_ input: InputReader) throws -> Timeline {
        let zone = try timeZone(input.string("timeZone"), at: "timeZone")
        let start = try moment(input.string("start"), at: "start")
        let until = try moment(input.string("until"), at: "until")
        guard until >= start else { throw BadInput("\"until\" is before \"start\"") }
        let authorized = try optionalBool(input, "authorized") ?? true
        var steps: [TimedStep] = []
        var previous = start
        var useEnd = start
        for (index, element) in try input.array("steps").enumerated() {
            let path = "steps[\(index)]"
            guard case .object = element else { throw BadInput("\(path) is \(element.typeName), not an object") }
            let reader = InputReader(element)
            let at = try moment(reader.string("at"), at: path + ".at")
            guard at >= previous, at <= until else {
                throw BadInput("\(path).at is \(at < previous ? "before the step before it" : "after until")")
            }
            previous = at
            let step = try self.step(reader, at: path)
            if case .use(let end, _) = step {
                guard at >= useEnd else { throw BadInput("\(path) overlaps the use before it") }
                guard end > at, end <= until else { throw BadInput("\(path).until is not after at and at most until") }
                useEnd = end
            }
            steps.append(TimedStep(at: at, step: step))
        }
        return Timeline(timeZone: zone, start: start, until: until, authorized: authorized, steps: steps)
    }

    private static func step(_ reader: InputReader, at path: String) throws -> Step {
        switch try reader.string("do") {
        case "startMonitoring":
            let name = DeviceActivityName(try reader.string("name"))
            let schedule = try schedule(reader.reader("schedule"), at: path + ".schedule")
            var events: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
            if let value = present(reader.optional("events")) {
                guard case .object(let members) = value else { throw BadInput("\(path).events is not an object") }
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    guard case .object = member else { throw BadInput("\(path).events.\(key) is not an object") }
                    events[.init(key)] = try event(InputReader(member), at: "\(path).events.\(key)")
                }
            }
            return .startMonitoring(name, schedule, events)
        case "stopMonitoring":
            return .stopMonitoring(try reader.stringArray("names").map(DeviceActivityName.init(_:)))
        case "use":
            let until = try moment(reader.string("until"), at: path + ".until")
            let foreground = Foreground(
                application: try optionalString(reader, "application").map(ApplicationToken.init(utf8Of:)),
                category: try optionalString(reader, "category").map(ActivityCategoryToken.init(utf8Of:)),
                webDomain: try optionalString(reader, "webDomain").map(WebDomainToken.init(utf8Of:)))
            return .use(until: until, foreground)
        case "setTimeZone": return .setTimeZone(try timeZone(reader.string("timeZone"), at: path + ".timeZone"))
        case "revoke": return .revoke
        case "authorize": return .authorize
        case let other: throw BadInput("\(path).do is \"\(other)\", not a step")
        }
    }

    /// A schedule object: `intervalStart`, `intervalEnd`, `repeats`, `warningTime` (optional).
    ///
    /// - Parameters:
    ///   - reader: The object.
    ///   - path: Where it is, for messages.
    /// - Returns: The schedule.
    /// - Throws: ``BadInput``.
    public static func schedule(_ reader: InputReader, at path: String) throws -> DeviceActivitySchedule {
        let start = try components(reader.reader("intervalStart"), at: path + ".intervalStart")
        let end = try components(reader.reader("intervalEnd"), at: path + ".intervalEnd")
        let repeats = try reader.bool("repeats")
        var warning: DateComponents?
        if let value = present(reader.optional("warningTime")) {
            guard case .object = value else { throw BadInput("\(path).warningTime is not an object") }
            warning = try duration(InputReader(value), at: path + ".warningTime")
        }
        return DeviceActivitySchedule(intervalStart: start, intervalEnd: end, repeats: repeats, warningTime: warning)
    }

    /// Components: the optional integers `year` … `weekday` and the optional zone `timeZone`.
    ///
    /// - Parameters:
    ///   - reader: The object.
    ///   - path: Where it is, for messages.
    /// - Returns: The components (validity is the reference's business: `invalidDateComponents`).
    /// - Throws: ``BadInput`` for a member that is not an integer, or an unknown zone.
    public static func components(_ reader: InputReader, at path: String) throws -> DateComponents {
        var c = DateComponents()
        c.year = try optionalInt(reader, "year", path)
        c.month = try optionalInt(reader, "month", path)
        c.day = try optionalInt(reader, "day", path)
        c.hour = try optionalInt(reader, "hour", path)
        c.minute = try optionalInt(reader, "minute", path)
        c.second = try optionalInt(reader, "second", path)
        c.weekday = try optionalInt(reader, "weekday", path)
        if let name = try optionalString(reader, "timeZone") { c.timeZone = try timeZone(name, at: path + ".timeZone") }
        return c
    }

    /// A duration: the optional integers `day`, `hour`, `minute`, `second`.
    ///
    /// - Parameters:
    ///   - reader: The object.
    ///   - path: Where it is, for messages.
    /// - Returns: The duration as date components.
    /// - Throws: ``BadInput`` for a member that is not an integer.
    public static func duration(_ reader: InputReader, at path: String) throws -> DateComponents {
        var c = DateComponents()
        c.day = try optionalInt(reader, "day", path)
        c.hour = try optionalInt(reader, "hour", path)
        c.minute = try optionalInt(reader, "minute", path)
        c.second = try optionalInt(reader, "second", path)
        return c
    }

    /// An event: token arrays (absent is empty), `threshold`, `includesPastActivity` (absent is `false`).
    ///
    /// - Parameters:
    ///   - reader: The object.
    ///   - path: Where it is, for messages.
    /// - Returns: The event; token ids are the tokens whose bytes are their UTF-8, as in `shield.evaluate`.
    /// - Throws: ``BadInput``.
    public static func event(_ reader: InputReader, at path: String) throws -> DeviceActivityEvent {
        func ids(_ key: String) throws -> [String] {
            present(reader.optional(key)) == nil ? [] : try reader.stringArray(key)
        }
        let applications = Set(try ids("applications").map(ApplicationToken.init(utf8Of:)))
        let categories = Set(try ids("categories").map(ActivityCategoryToken.init(utf8Of:)))
        let webDomains = Set(try ids("webDomains").map(WebDomainToken.init(utf8Of:)))
        let threshold = try duration(reader.reader("threshold"), at: path + ".threshold")
        let past = try optionalBool(reader, "includesPastActivity") ?? false
        return DeviceActivityEvent(
            applications: applications, categories: categories, webDomains: webDomains, threshold: threshold,
            includesPastActivity: past)
    }

    /// A moment of the wire (`SPEC.md` §5.2), in UTC seconds.
    ///
    /// - Parameters:
    ///   - text: `YYYY-MM-DDTHH:MM:SS` with `Z` or `±HH:MM`.
    ///   - path: Where it is, for messages.
    /// - Returns: The moment.
    /// - Throws: ``BadInput`` for any other text.
    public static func moment(_ text: String, at path: String) throws -> Int64 {
        guard let seconds = ActivityMoment.parse(text) else {
            throw BadInput("\(path) is not a moment YYYY-MM-DDTHH:MM:SS with Z or ±HH:MM")
        }
        return seconds
    }

    /// An IANA time zone name.
    ///
    /// - Parameters:
    ///   - name: The name (`America/New_York`).
    ///   - path: Where it is, for messages.
    /// - Returns: The zone.
    /// - Throws: ``BadInput`` for a name the system does not know.
    public static func timeZone(_ name: String, at path: String) throws -> TimeZone {
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { throw BadInput("\(path) is not a time zone") }
        return zone
    }

    private static func present(_ value: JSONValue?) -> JSONValue? {
        if let value, value != .null { return value }
        return nil
    }

    private static func optionalInt(_ reader: InputReader, _ key: String, _ path: String) throws -> Int? {
        guard let value = present(reader.optional(key)) else { return nil }
        guard let int = value.intValue else { throw BadInput("\(path).\(key) is not an integer") }
        return int
    }

    private static func optionalString(_ reader: InputReader, _ key: String) throws -> String? {
        guard let value = present(reader.optional(key)) else { return nil }
        guard let string = value.stringValue else { throw BadInput("\"\(key)\" is \(value.typeName), not a string") }
        return string
    }

    private static func optionalBool(_ reader: InputReader, _ key: String) throws -> Bool? {
        guard let value = present(reader.optional(key)) else { return nil }
        guard let bool = value.boolValue else { throw BadInput("\"\(key)\" is \(value.typeName), not a boolean") }
        return bool
    }

    // MARK: Running

    /// The answer of `activity.schedule`: the interval `nextInterval` gives at `at`, or the error
    /// `startMonitoring` would throw for it (`SPEC.md` §8.1).
    ///
    /// - Parameters:
    ///   - schedule: The schedule.
    ///   - at: The moment (UTC seconds).
    ///   - zone: The device's zone.
    /// - Returns: `start`, `end`, `seconds`, `ongoing`.
    /// - Throws: ``WireErrorCode`` `invalidDateComponents`, `intervalTooShort` or `intervalTooLong`.
    public static func scheduleAnswer(_ schedule: DeviceActivitySchedule, at: Int64, zone: TimeZone) throws -> JSONValue
    {
        guard let (start, end) = schedule.intervalSeconds(at: at, in: zone) else {
            throw WireErrorCode("invalidDateComponents")
        }
        if end - start < 900 { throw WireErrorCode("intervalTooShort") }
        if end - start > 604_800 { throw WireErrorCode("intervalTooLong") }
        return [
            "start": .string(ActivityMoment.format(start)), "end": .string(ActivityMoment.format(end)),
            "seconds": .number(Double(end - start)), "ongoing": .bool(start <= at),
        ]
    }

    /// Runs a timeline through the reference's monitoring engine (`SPEC.md` §8.2–§8.5).
    ///
    /// - Parameter timeline: The timeline.
    /// - Returns: The callbacks, the errors and the names monitored at the end.
    public static func run(_ timeline: Timeline) -> MonitorResult {
        var engine = MonitoringEngine(now: timeline.start, zone: timeline.timeZone)
        var authorized = timeline.authorized
        var result = MonitorResult()
        var useEnd: Int64?

        // Up to `target`: what is due before it, not what is due at it (the calls made there come first).
        func run(to target: Int64) {
            while engine.now < target {
                while case let due = engine.deliverDue(), !due.isEmpty { result.callbacks += due }
                engine.advance(toward: target)
            }
        }
        func advance(to target: Int64) {
            if let end = useEnd, end <= target {
                run(to: end)
                result.callbacks += engine.deliverThresholds()  // a use that ends there ends first
                engine.endUse()
                useEnd = nil
            }
            run(to: target)
        }

        for (index, timed) in timeline.steps.enumerated() {
            advance(to: timed.at)
            switch timed.step {
            case .startMonitoring(let name, let schedule, let events):
                do throws(DeviceActivityCenter.MonitoringError) {
                    result.callbacks += try engine.startMonitoring(
                        name, during: schedule, events: events, authorized: authorized)
                } catch {
                    result.errors.append(StepError(step: index, error: error))
                }
            case .stopMonitoring(let names): result.callbacks += engine.stopMonitoring(names)
            case .use(let until, let foreground):
                engine.beginUse(foreground)
                useEnd = until
            case .setTimeZone(let zone): engine.setTimeZone(zone)
            case .revoke:
                authorized = false
                engine.stopAllSilently()
            case .authorize: authorized = true
            }
        }
        advance(to: timeline.until)
        result.activities = engine.activities()
        return result
    }

    // MARK: Writing

    /// The output of `activity.monitor`.
    ///
    /// - Parameter result: What the timeline gave.
    /// - Returns: `{"callbacks": […], "errors": […], "activities": […]}`.
    public static func monitorOutput(_ result: MonitorResult) -> JSONValue {
        let callbacks: [JSONValue] = result.callbacks.map { callback in
            var object: [String: JSONValue] = [
                "at": .string(ActivityMoment.format(callback.seconds)), "activity": .string(callback.activity.rawValue),
                "callback": .string(callback.kind.rawValue),
            ]
            if let event = callback.event { object["event"] = .string(event.rawValue) }
            return .object(object)
        }
        let errors: [JSONValue] = result.errors.map {
            ["step": .number(Double($0.step)), "error": .string(String(describing: $0.error))]
        }
        return [
            "callbacks": .array(callbacks), "errors": .array(errors),
            "activities": .array(result.activities.map { .string($0.rawValue) }),
        ]
    }
}
