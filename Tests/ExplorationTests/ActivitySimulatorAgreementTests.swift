import Conformance
import Foundation
import PropertyTesting
import ScreenTimeReference
import StrictJSON
import Testing

@testable import Exploration
@testable import ScreenTimeProperties

/// The two ways into the monitoring engine agree: a timeline run through the iOS-named API (the simulator, the
/// center and a monitor subclass, as the properties run it) delivers what `activity.monitor` answers for it.
@Suite struct ActivitySimulatorAgreementTests {
    @Test func theSimulatorAndTheWireDeliverTheSameCallbacks() throws {
        let generator = Gen<ActivityTimeline>.activityTimeline(hostile: true, unknownZones: false)
        var differences: [String] = []
        var compared = 0
        for seed in 0..<2_000 as Range<UInt64> {
            let timeline = generator.generate(seed: seed)
            // Left out: a use that begins at the moment of a later step (the known difference below).
            if Self.useBeginsBeforeACallAtItsMoment(timeline) { continue }
            guard let run = try? ReferenceProperties.simulate(timeline) else { continue }
            compared += 1
            guard
                case .output(let output) = OperationTable.perform(
                    "activity.monitor", input: ActivityInputs.json(timeline))
            else {
                differences.append("seed \(seed): the wire refused \(timeline)")
                continue
            }
            let wire = (output["callbacks"]?.arrayValue ?? []).map { c in
                "\(c["at"]?.stringValue ?? "") \(c["callback"]?.stringValue ?? "")(\(c["activity"]?.stringValue ?? "")\(c["event"]?.stringValue.map { ", " + $0 } ?? ""))"
            }
            let simulated = run.calls.map { c in
                "\(ActivityMoment.format(c.at)) \(c.kind.rawValue)(\(c.activity)\(c.event.map { ", " + $0 } ?? ""))"
            }
            if wire != simulated {
                differences.append("seed \(seed):\n\(timeline)\nwire: \(wire)\nsimulator: \(simulated)")
            }
        }
        #expect(compared > 1_000, "only \(compared) timelines compared")
        #expect(differences.isEmpty, "\(differences.count) differ; first: \(differences.first ?? "")")
    }

    static func useBeginsBeforeACallAtItsMoment(_ timeline: ActivityTimeline) -> Bool {
        timeline.steps.indices.contains { i in
            guard case .use = timeline.steps[i].step else { return false }
            return timeline.steps[(i + 1)...].contains { $0.at == timeline.steps[i].at }
        }
    }

    /// Reference finding: `DeviceActivitySimulator.beginUse` delivers what is due at once, before the calls the
    /// app makes at the same moment; `SPEC.md` §8.5 (and `activity.monitor`) apply the calls first. Here a use
    /// begins at 12:05 inside an ongoing interval and authorization is revoked at 12:05: §8.5 says the revocation
    /// stops the activity silently before anything due is delivered (the wire answers no callback), the simulator
    /// delivers `intervalDidStart` at 12:05 first.
    @Test func aUseBeginningAtACallsMomentDeliversAfterTheCall() throws {
        let twelve = try #require(ActivityMoment.parse("2026-06-15T12:00:00Z"))
        let timeline = ActivityTimeline(
            timeZone: "UTC", start: twelve, until: twelve + 600,
            steps: [
                ActivityTimedStep(
                    at: twelve,
                    step: .startMonitoring(
                        name: "a",
                        schedule: ActivityScheduleDescription(
                            start: ActivityComponents(hour: 0), end: ActivityComponents(hour: 23), repeats: true),
                        events: [:])),
                ActivityTimedStep(at: twelve + 300, step: .use(until: twelve + 600, ActivityForeground())),
                ActivityTimedStep(at: twelve + 300, step: .revoke),
            ])
        let wire = OperationTable.perform("activity.monitor", input: ActivityInputs.json(timeline))
        guard case .output(let output) = wire else {
            Issue.record("the wire refused the timeline: \(wire)")
            return
        }
        #expect(output["callbacks"] == [])
        let simulated = try ReferenceProperties.simulate(timeline).calls.map(\.kind)
        // The calls made at a moment come before the callbacks due then (SPEC §8.5), in the simulator too.
        #expect(simulated == [], "the simulator delivered \(simulated)")
    }
}
