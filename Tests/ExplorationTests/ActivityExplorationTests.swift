import Conformance
import Foundation
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON
import Testing

@testable import Exploration

/// `activity.schedule` and `activity.monitor` explored (`SPEC.md` §8): the generated inputs reach every answer,
/// the reference agrees with itself, and a planted scheduling field bug is found and shrunk.
@Suite struct ActivityExplorationTests {
    static let ops = ["activity.schedule", "activity.monitor"]

    /// The reference judged by itself over a few thousand cases of each operation: nothing differs.
    /// A shrunk timeline can reach the out-of-order spoiler with fewer than two steps (a filter that gives up passes
    /// its last value on, marked rejected): it must not trap, as it once did in `stc explore`'s shrinking.
    @Test func theOutOfOrderSpoilerTakesShortTimelines() {
        for count in 0..<2 {
            let steps = (0..<count).map { _ in ActivityTimedStep(at: 1_780_000_000, step: .revoke) }
            let timeline = ActivityTimeline(timeZone: "UTC", start: 1_780_000_000, until: 1_780_003_600, steps: steps)
            #expect(ActivityInputs.outOfOrder(timeline) == ActivityInputs.json(timeline))
        }
    }

    @Test func theReferenceAgainstItselfFindsNothing() {
        let result = explore(InProcessImplementation(), Self.ops, cases: 6_000, seed: 11)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.key))")
        #expect(result.cases == 6_000 && result.unsupported.isEmpty && result.failedToStart == nil)
    }

    /// What the reference answers the generated inputs: every error of `startMonitoring`, `badInput`, ongoing and
    /// upcoming intervals, and every callback.
    @Test func generatedInputsReachEveryAnswer() throws {
        var answers: Set<String> = []
        for op in Self.ops {
            let operation = try #require(ExploredOperations.named(op))
            for seed in 0..<3_000 as Range<UInt64> {
                switch OperationTable.perform(op, input: operation.input.generate(seed: seed)) {
                case .error(let code): answers.insert("\(op) error \(code)")
                case .output(let output):
                    if let ongoing = output["ongoing"]?.boolValue { answers.insert("\(op) ongoing \(ongoing)") }
                    for case .object(let e) in output["errors"]?.arrayValue ?? [] {
                        answers.insert("\(op) step error \(e["error"]?.stringValue ?? "?")")
                    }
                    for case .object(let c) in output["callbacks"]?.arrayValue ?? [] {
                        answers.insert("\(op) \(c["callback"]?.stringValue ?? "?")")
                    }
                case .unsupported: answers.insert("\(op) unsupported")
                }
            }
        }
        var expected: Set<String> = ["activity.schedule ongoing true", "activity.schedule ongoing false"]
        for code in ["badInput", "invalidDateComponents", "intervalTooShort", "intervalTooLong"] {
            expected.insert("activity.schedule error \(code)")
        }
        expected.insert("activity.monitor error badInput")
        for error in DeviceActivityCenter.MonitoringError.allCases {
            expected.insert("activity.monitor step error \(error)")
        }
        for kind in DeviceActivityCallback.Kind.allCases { expected.insert("activity.monitor \(kind.rawValue)") }
        #expect(expected.subtracting(answers).isEmpty, "never answered: \(expected.subtracting(answers).sorted())")
        #expect(!answers.contains { $0.hasSuffix("unsupported") })
    }

    /// Field bug 14: the end read on the start's own day, so an overnight schedule is a negative (or short)
    /// interval and is rejected, or ends before it should.
    @Test func anEndOnTheStartsDayIsFound() throws {
        let broken = planted("activity.schedule") { input in
            let answer = OperationTable.perform("activity.schedule", input: input)
            guard case .output(.object(var members)) = answer,
                let zone = input["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)),
                let s = members["start"]?.stringValue.flatMap(ActivityMoment.parse),
                let e = members["end"]?.stringValue.flatMap(ActivityMoment.parse)
            else { return answer }
            func day(_ t: Int64) -> Int64 {
                let local = t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
                return local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
            }
            let days = day(e) - day(s)
            guard days > 0 else { return answer }
            let naive = e - days * 86_400
            if naive - s < 900 { return .error("intervalTooShort") }
            members["end"] = .string(ActivityMoment.format(naive))
            members["seconds"] = .number(Double(naive - s))
            return .output(.object(members))
        }
        let result = explore(broken, ["activity.schedule"], cases: 2_000)
        #expect(!result.findings.isEmpty)
        #expect(result.findings.allSatisfy { $0.key.hasPrefix("activity.schedule: ") }, "\(result.findings.map(\.key))")
        let minimal = try #require(result.findings.first?.first.minimal.input)
        let text = JSONWriter.string(minimal)
        #expect(text.count < 260, "not shrunk to a readable case: \(text)")
    }

    /// Field bug 18: the 21st `startMonitoring`'s `excessiveActivities` swallowed; and an implementation that
    /// never delivers `intervalDidEnd` (field bug 13's symptom).
    @Test func swallowedErrorsAndMissingEndsAreFound() throws {
        let swallowing = planted("activity.monitor") { input in
            referenceOutput("activity.monitor", input) { members in
                let errors = members["errors"]?.arrayValue ?? []
                members["errors"] = .array(errors.filter { $0["error"] != "excessiveActivities" })
            }
        }
        let swallowed = explore(swallowing, ["activity.monitor"], cases: 3_000)
        #expect(swallowed.findings.map(\.key) == ["activity.monitor: output differs in errors"])
        let noEnds = planted("activity.monitor") { input in
            referenceOutput("activity.monitor", input) { members in
                let callbacks = members["callbacks"]?.arrayValue ?? []
                members["callbacks"] = .array(callbacks.filter { $0["callback"] != "intervalDidEnd" })
            }
        }
        let result = explore(noEnds, ["activity.monitor"], cases: 2_000)
        #expect(result.findings.map(\.key) == ["activity.monitor: output differs in callbacks"])
        let minimal = try #require(result.findings.first?.first.minimal.input)
        let steps = minimal["steps"]?.arrayValue ?? []
        #expect(steps.count <= 4, "not shrunk: \(JSONWriter.string(minimal))")
    }
}
