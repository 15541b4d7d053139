import Conformance
import Exploration
import Foundation
import StrictJSON
import Testing

@testable import ScreenTimeTesting

/// The closures of `activity.schedule` and `activity.monitor` (`SPEC.md` §8, §5.2): the reference's pass the
/// `activity-*` vectors when they ship and a handful of cases worked out by hand from the spec, and the
/// scheduling field bugs planted in one are found by exploration.
@Suite struct ActivityClosureTests {
    /// A case worked out from `SPEC.md` §8: the input, and the output members (or the error) the spec gives.
    struct HandCase: Sendable, CustomStringConvertible {
        var name: String
        var op: ScreenTimeOperation
        var input: JSONValue
        var expect: Expectation
        var description: String { name }
    }

    static func components(_ members: [String: JSONValue]) -> JSONValue { .object(members) }

    static func schedule(_ start: [String: JSONValue], _ end: [String: JSONValue], repeats: Bool = true) -> JSONValue {
        ["intervalStart": .object(start), "intervalEnd": .object(end), "repeats": .bool(repeats)]
    }

    static let night = schedule(["hour": 21], ["hour": 7])

    static let handCases: [HandCase] = [
        // §8.1: an end earlier in the day is the next day; across spring-forward, nine hours in seconds.
        HandCase(
            name: "overnight across spring-forward", op: .activitySchedule,
            input: ["timeZone": "America/New_York", "at": "2026-03-07T20:00:00-05:00", "schedule": night],
            expect: .output([
                "start": "2026-03-08T02:00:00Z", "end": "2026-03-08T11:00:00Z", "seconds": 32_400, "ongoing": false,
            ])),
        // §8.1: the interval under way is the answer.
        HandCase(
            name: "ongoing overnight", op: .activitySchedule,
            input: ["timeZone": "UTC", "at": "2026-06-15T23:00:00Z", "schedule": night],
            expect: .output([
                "start": "2026-06-15T21:00:00Z", "end": "2026-06-16T07:00:00Z", "seconds": 36_000, "ongoing": true,
            ])),
        // §7.13, §8.1: an end of 00:00 is the midnight after the start.
        HandCase(
            name: "midnight end", op: .activitySchedule,
            input: [
                "timeZone": "Europe/London", "at": "2026-06-15T12:00:00Z",
                "schedule": schedule(["hour": 22], ["hour": 0, "minute": 0]),
            ],
            expect: .output(["start": "2026-06-15T21:00:00Z", "end": "2026-06-15T23:00:00Z", "seconds": 7_200])),
        // §8.1 (A17): hour 24 matches nothing.
        HandCase(
            name: "hour 24", op: .activitySchedule,
            input: ["timeZone": "UTC", "at": "2026-06-15T12:00:00Z", "schedule": schedule(["hour": 22], ["hour": 24])],
            expect: .error("invalidDateComponents")),
        // §7.15, §8.1: a five-minute timer is too short.
        HandCase(
            name: "five-minute timer", op: .activitySchedule,
            input: [
                "timeZone": "UTC", "at": "2026-06-15T12:00:00Z",
                "schedule": schedule(["hour": 13, "minute": 0], ["hour": 13, "minute": 5]),
            ],
            expect: .error("intervalTooShort")),
        // §8.1: a week from Monday 09:00 across fall-back is an hour over a week in seconds.
        HandCase(
            name: "week across fall-back", op: .activitySchedule,
            input: [
                "timeZone": "America/New_York", "at": "2026-10-26T13:30:00Z",
                "schedule": schedule(["weekday": 2, "hour": 9], ["weekday": 2, "hour": 9]),
            ],
            expect: .error("intervalTooLong")),
        // §8.1 (A21): a negative warning time.
        HandCase(
            name: "negative warning", op: .activitySchedule,
            input: [
                "timeZone": "UTC", "at": "2026-06-15T12:00:00Z",
                "schedule": [
                    "intervalStart": ["hour": 21], "intervalEnd": ["hour": 7], "repeats": true,
                    "warningTime": ["minute": -5],
                ],
            ],
            expect: .error("invalidDateComponents")),
        // §8.3: the interval starts at the first use inside it and ends at the first use after it.
        HandCase(
            name: "bedtime started and ended by use", op: .activityMonitor,
            input: [
                "timeZone": "America/New_York", "start": "2026-06-15T20:00:00-04:00", "until": "2026-06-16T12:00:00Z",
                "steps": [
                    ["at": "2026-06-16T00:00:00Z", "do": "startMonitoring", "name": "bedtime", "schedule": night],
                    ["at": "2026-06-16T01:10:00Z", "do": "use", "until": "2026-06-16T01:20:00Z"],
                    ["at": "2026-06-16T11:30:00Z", "do": "use", "until": "2026-06-16T11:40:00Z"],
                ],
            ],
            expect: .output([
                "callbacks": [
                    ["at": "2026-06-16T01:10:00Z", "activity": "bedtime", "callback": "intervalDidStart"],
                    ["at": "2026-06-16T11:30:00Z", "activity": "bedtime", "callback": "intervalDidEnd"],
                ],
                "errors": [], "activities": ["bedtime"],
            ])),
        // §8.2: unauthorized, nothing monitored.
        HandCase(
            name: "unauthorized start", op: .activityMonitor,
            input: [
                "timeZone": "UTC", "start": "2026-06-15T12:00:00Z", "until": "2026-06-15T13:00:00Z",
                "authorized": false,
                "steps": [["at": "2026-06-15T12:00:00Z", "do": "startMonitoring", "name": "x", "schedule": night]],
            ],
            expect: .output(["callbacks": [], "errors": [["step": 0, "error": "unauthorized"]], "activities": []])),
        // §7.18, §8.2: the 21st activity is refused with excessiveActivities.
        HandCase(
            name: "twenty-one activities", op: .activityMonitor,
            input: [
                "timeZone": "UTC", "start": "2026-06-15T12:00:00Z", "until": "2026-06-15T13:00:00Z",
                "steps": .array(
                    (0...20).map { i in
                        [
                            "at": "2026-06-15T12:00:00Z", "do": "startMonitoring", "name": .string("a\(100 + i)"),
                            "schedule": night,
                        ]
                    }),
            ],
            expect: .output(["errors": [["step": 20, "error": "excessiveActivities"]]])),
    ]

    /// How `implementation` answers a hand case, and whether that matches the spec's answer.
    static func mismatch(_ implementation: ScreenTimeImplementation, _ c: HandCase) -> String? {
        let answer = WireOperations(implementation).perform(c.op.rawValue, c.input)
        switch (c.expect, answer) {
        case (.error(let code), .error(let actual)): return code == actual ? nil : "error \(actual), expected \(code)"
        case (.output(let expected), .output(let actual)):
            for (key, value) in expected where actual[key] != value {
                return
                    "\(key) is \(actual[key].map { JSONWriter.string($0) } ?? "absent"), expected \(JSONWriter.string(value))"
            }
            return nil
        default: return "answered \(answer), expected \(c.expect)"
        }
    }

    @Test(arguments: handCases) func theReferenceClosuresAnswerAsTheSpecSays(_ c: HandCase) {
        #expect(Self.mismatch(.reference, c) == nil, "\(c.name): \(Self.mismatch(.reference, c) ?? "")")
        // And the operation table (the reference's own operation) answers the same.
        let table = OperationTable.perform(c.op.rawValue, input: c.input)
        #expect(table == WireOperations(.reference).perform(c.op.rawValue, c.input), "\(c.name)")
    }

    /// The shipped `activity-*` vectors, when this build has them.
    @Test func theReferenceClosuresPassTheActivityVectors() {
        let activity = shippedCases.filter { $0.op.hasPrefix("activity.") }
        guard !activity.isEmpty else { return }
        let result = ConformanceCheck(operations: [.activitySchedule, .activityMonitor]).run(.reference, relativeTo: "")
        #expect(result.passed, "\(result.summary)")
    }

    @Test func theReferenceClosuresMatchTheTableOnGeneratedInputs() throws {
        for op in ["activity.schedule", "activity.monitor"] {
            let operation = try #require(ExploredOperations.named(op))
            for seed in 0..<400 as Range<UInt64> {
                let input = operation.input.generate(seed: seed)
                #expect(
                    WireOperations(.reference).perform(op, input) == OperationTable.perform(op, input: input),
                    "\(op) \(JSONWriter.string(input))")
            }
        }
    }

    @Test func theClosuresAreNamedForTheirOperations() {
        let app = ScreenTimeImplementation(
            name: "activity only", nextActivityInterval: ScreenTimeImplementation.reference.nextActivityInterval,
            monitorActivity: ScreenTimeImplementation.reference.monitorActivity)
        #expect(app.supported == [.activitySchedule, .activityMonitor])
    }

    /// Field bug 14: the end read on the start's own day; an overnight schedule is rejected as too short.
    @Test func anOvernightIntervalComputedBackwardsIsFound() throws {
        let backwards = planted { implementation in
            implementation.nextActivityInterval = { schedule, moment, zone in
                guard let interval = schedule.nextInterval(at: moment, in: zone) else { return nil }
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let days =
                    calendar.dateComponents(
                        [.day], from: calendar.startOfDay(for: interval.start),
                        to: calendar.startOfDay(for: interval.end)
                    ).day ?? 0
                let end = interval.end.addingTimeInterval(-86_400 * Double(days))
                if end.timeIntervalSince(interval.start) < 900 {
                    throw DeviceActivityCenter.MonitoringError.intervalTooShort
                }
                if end.timeIntervalSince(interval.start) > 604_800 {
                    throw DeviceActivityCenter.MonitoringError.intervalTooLong
                }
                return DateInterval(start: interval.start, end: end)
            }
        }
        #expect(Self.mismatch(backwards, Self.handCases[0])?.hasPrefix("answered error(\"intervalTooShort\")") == true)
        let result = ExplorationCheck(cases: 2_000, seed: 1, operations: [.activitySchedule]).run(
            backwards, relativeTo: "")
        #expect(!result.findings.isEmpty && !result.passed, "\(result.summary)")
        #expect(result.findings.allSatisfy { $0.key.hasPrefix("activity.schedule: ") })
    }

    /// Field bug 18: `try?` around the 21st `startMonitoring`.
    @Test func aSwallowedExcessiveActivitiesIsFound() throws {
        let swallowing = planted { implementation in
            implementation.monitorActivity = { timeline in
                var result = ActivityWire.run(timeline)
                result.errors.removeAll { $0.error == .excessiveActivities }
                return result
            }
        }
        #expect(Self.mismatch(swallowing, Self.handCases.last!) != nil)
        let result = ExplorationCheck(cases: 3_000, seed: 1, operations: [.activityMonitor]).run(
            swallowing, relativeTo: "")
        #expect(result.findings.map(\.key) == ["activity.monitor: output differs in errors"], "\(result.summary)")
    }
}
