import Conformance
import Exploration
import Foundation
import StrictJSON
import Testing

@testable import ScreenTimeTesting

/// The closure of `settings.evaluate` (`SPEC.md` §9, §5.2): the reference's passes the `settings-evaluate` vectors
/// and answers as the operation table does, a user's typed request reaches it, and field bugs planted in one are
/// found by the shipped vectors and by exploration.
@Suite struct SettingsClosureTests {
    /// A step on the unnamed store or a named one, as the wire reads it.
    static func step(_ store: String?, _ members: [String: JSONValue]) -> JSONValue {
        var step: [String: JSONValue] = ["do": "assign", "members": .object(members)]
        if let store { step["store"] = .string(store) }
        return .object(step)
    }

    /// The reference closure with `change` applied to each request before it runs.
    static func rewriting(_ change: @escaping @Sendable (inout SettingsWire.Request) -> Void)
        -> ScreenTimeImplementation
    {
        planted { implementation in
            implementation.evaluateSettings = { request in
                var request = request
                change(&request)
                return try SettingsWire.run(request)
            }
        }
    }

    @Test func theReferenceClosurePassesTheSettingsVectors() throws {
        let settings = shippedCases.filter { $0.op == "settings.evaluate" }
        try #require(!settings.isEmpty, "no settings-evaluate vectors are built in")
        let result = ConformanceCheck(operations: [.settingsEvaluate]).run(.reference, relativeTo: "")
        #expect(result.passed, "\(result.summary)")
        #expect(result.run?.implementations.first?.results.count == settings.count)
    }

    @Test func theReferenceClosureMatchesTheTableOnGeneratedInputs() throws {
        let operation = try #require(ExploredOperations.named("settings.evaluate"))
        for seed in 0..<400 as Range<UInt64> {
            let input = operation.input.generate(seed: seed)
            #expect(
                WireOperations(.reference).perform("settings.evaluate", input)
                    == OperationTable.perform("settings.evaluate", input: input),
                "\(JSONWriter.string(input))")
        }
    }

    @Test func theClosureGetsATypedRequestAndItsErrorsAreMapped() {
        struct FilterFailure: Error {}
        let seen = Requests()
        let mine = ScreenTimeImplementation(
            name: "my filter",
            evaluateSettings: { request in
                seen.append(request)
                throw FilterFailure()
            },
            errorCode: { $0 is FilterFailure ? "invalidURL" : nil })
        #expect(mine.supported == [.settingsEvaluate])
        let input: JSONValue = [
            "steps": [
                Self.step(
                    "focus",
                    ["webContent.blockedByFilter": ["policy": "specific", "domains": ["example.com"]]])
            ],
            "query": ["kind": "url", "url": "https://www.example.com/"],
        ]
        #expect(WireOperations(mine).perform("settings.evaluate", input) == .error("invalidURL"))
        let request = seen.all.first
        #expect(request?.query == .url("https://www.example.com/"))
        #expect(request?.steps.first?.store == .named(ManagedSettingsStore.Name("focus")))
        #expect(
            request?.steps.first?.action
                == .assign([.blockedByFilter(.specific([WebDomain(domain: "example.com")]))]))
        // A malformed input never reaches the closure.
        #expect(WireOperations(mine).perform("settings.evaluate", ["steps": []]) == .error("badInput"))
        #expect(seen.all.count == 1)
    }

    /// Field bug 20: `clearAllSettings()` taken to clear the shield only.
    @Test func clearingOnlyTheShieldIsFound() {
        let shieldOnly = Self.rewriting { request in
            request.steps = request.steps.map { step in
                guard step.action == .clearAllSettings else { return step }
                return SettingsWire.Step(
                    store: step.store,
                    action: .assign([
                        .shieldApplications(nil), .shieldApplicationCategories(nil), .shieldWebDomains(nil),
                        .shieldWebDomainCategories(nil),
                    ]))
            }
        }
        let vectors = ConformanceCheck(operations: [.settingsEvaluate]).run(shieldOnly, relativeTo: "")
        let failed = Set(vectors.statuses.filter { $0.value != .pass }.keys)
        let tagged = Set(shippedCases.filter { $0.tags.contains("field-bug-20") }.map(\.id))
        #expect(!tagged.isEmpty && tagged.isSubset(of: failed), "\(tagged.subtracting(failed).sorted())")
        let explored = ExplorationCheck(cases: 3_000, seed: 1, operations: [.settingsEvaluate]).run(
            shieldOnly, relativeTo: "")
        #expect(!explored.passed && !explored.findings.isEmpty, "\(explored.summary)")
        #expect(explored.findings.allSatisfy { $0.key.hasPrefix("settings.evaluate: ") })
    }

    /// Field bug 21: a selection past 50 apps copied into `blockedApplications`, cut to fit without a word.
    @Test func blockedApplicationsCutToFiftyIsFound() {
        let cut = Self.rewriting { request in
            request.steps = request.steps.map { step in
                guard case .assign(let assignments) = step.action else { return step }
                return SettingsWire.Step(
                    store: step.store,
                    action: .assign(
                        assignments.map { assignment in
                            guard case .blockedApplications(let apps?) = assignment, apps.count > 50 else {
                                return assignment
                            }
                            let kept = apps.sorted { "\($0)" < "\($1)" }.prefix(50)
                            return .blockedApplications(Set(kept))
                        }))
            }
        }
        let explored = ExplorationCheck(cases: 3_000, seed: 1, operations: [.settingsEvaluate]).run(
            cut, relativeTo: "")
        #expect(
            explored.findings.contains { $0.key.hasPrefix("settings.evaluate: expected error limitExceeded") },
            "\(explored.summary)")
    }
}

/// The requests a closure saw, in order.
final class Requests: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [SettingsWire.Request] = []

    func append(_ request: SettingsWire.Request) { lock.withLock { requests.append(request) } }
    var all: [SettingsWire.Request] { lock.withLock { requests } }
}
