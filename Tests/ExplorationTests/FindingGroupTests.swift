import Conformance
import Foundation
import StrictJSON
import Testing

@testable import Exploration

/// Findings by root cause (the operation, the class of the reference's answer, the class of the implementation's),
/// as lists, reports and the kit see them.
struct FindingGroupTests {
    /// A decoder that answers the empty selection for anything it cannot read, as a blocker that swallows decode
    /// errors does: every rule it skips is a finding, and they all fall in one group.
    static var swallowing: InProcessImplementation {
        InProcessImplementation(name: "swallowing") { op, input in
            guard op == "selection.decode" else { return OperationTable.perform(op, input: input) }
            switch OperationTable.perform(op, input: input) {
            case .error: return OperationTable.perform(op, input: ["base64": .string(emptySelection)])
            case let other: return other
            }
        }
    }
    /// The canonical stored form of the empty selection.
    static let emptySelection =
        "eyJhcHBsaWNhdGlvblRva2VucyI6W10sImNhdGVnb3J5VG9rZW5zIjpbXSwiaW5jbHVkZUVudGlyZUNhdGVnb3J5IjpmYWxzZSwidW50b2tlbml6ZWRBcHBsaWNhdGlvbklkZW50aWZpZXJzIjpbXSwidW50b2tlbml6ZWRDYXRlZ29yeUlkZW50aWZpZXJzIjpbXSwidW50b2tlbml6ZWRXZWJEb21haW5JZGVudGlmaWVycyI6W10sIndlYkRvbWFpblRva2VucyI6W119"

    @Test func eachKindNamesItsGroup() {
        let op = "selection.decode"
        func group(_ kind: Discrepancy.Kind) -> String { Discrepancy(op: op, kind: kind).group }
        #expect(
            group(.unexpectedOutput(error: "json", reason: "x"))
                == "\(op): answers output where the reference answers an error")
        #expect(
            group(.missedCheck(error: "json", reason: "x"))
                == "\(op): answers output or a later error where the reference answers an error")
        #expect(
            group(.wrongError(expected: "json", reason: nil, actual: "base64"))
                == "\(op): answers another error than the reference")
        #expect(group(.unexpectedError(actual: "json")) == "\(op): answers an error where the reference answers output")
        #expect(group(.outputDiffers(members: ["a"])) == "\(op): answers another output than the reference")
        #expect(group(.crash) == "\(op): crash")
        #expect(group(.timeout) == "\(op): timeout")
        #expect(group(.protocolViolation) == "\(op): protocol violation")
        // Two rules of one cause share a group, and keep their own keys.
        let a = Discrepancy(op: op, kind: .missedCheck(error: "json", reason: "nesting too deep"))
        let b = Discrepancy(op: op, kind: .missedCheck(error: "base64", reason: "pad bits"))
        #expect(a.group == b.group && a.key != b.key)
    }

    @Test func aDecoderThatSwallowsErrorsIsOneGroupOfManyRules() throws {
        let result = explore(Self.swallowing, ["selection.decode"], cases: 3_000)
        let groups = result.groups
        #expect(
            groups.map(\.key) == [
                "selection.decode: answers output or a later error where the reference answers an error"
            ])
        let rules = try #require(groups.first).findings
        #expect(rules.count >= 5, "\(rules.map(\.key))")
        #expect(rules.count == result.findings.count)
        #expect(groups[0].occurrences == result.findings.reduce(0) { $0 + $1.occurrences })
        #expect(groups[0].rules.allSatisfy { $0.hasPrefix("expected error ") })
    }

    /// A list line may name a group (every finding of that cause is listed) or a rule; a line naming neither a
    /// finding nor a group of the run is stale.
    @Test func aListMayNameAGroupOrARule() throws {
        let result = explore(Self.swallowing, ["selection.decode"], cases: 2_000)
        let group = try #require(result.groups.first).key
        let byGroup = ExpectedFindings(file: "known.txt", keys: [group])
        #expect(byGroup.compare(result.findings).unexpected.isEmpty)
        #expect(byGroup.compare(result.findings).stale.isEmpty)
        let oneRule = ExpectedFindings(file: "known.txt", keys: [result.findings[0].key, "selection.decode: crash"])
        let (unexpected, stale) = oneRule.compare(result.findings)
        #expect(unexpected.count == result.findings.count - 1)
        #expect(stale == ["selection.decode: crash"])
    }

    @Test func theTextReportShowsGroupsFirstAndTheJSONKeepsBothLevels() throws {
        let result = explore(Self.swallowing, ["selection.decode"], cases: 2_000)
        let run = ExploredImplementation(name: "swallowing", command: "in process", result: result)
        let text = ExploreReport.text([run], quiet: true) { _, _ in "replay" }
        let group = try #require(text.range(of: "GROUP 1  "))
        let finding = try #require(text.range(of: "FINDING 1  "))
        #expect(group.lowerBound < finding.lowerBound, "\(text)")
        #expect(text.contains("\(result.findings.count) rule(s)"))
        let json = ExploreReport.json([run]) { _, _ in "replay" }
        let implementation = try #require(json["implementations"]?.arrayValue?.first)
        let groups = try #require(implementation["groups"]?.arrayValue)
        #expect(groups.count == 1)
        #expect(groups[0]["findings"]?.arrayValue?.count == result.findings.count)
        let findings = try #require(implementation["findings"]?.arrayValue)
        #expect(findings.allSatisfy { $0["group"] == groups[0]["key"] })
    }

    /// An operation answered for some inputs and `unsupported` for others keeps the others: an adapter without a
    /// closure for one storage format is still explored on the formats it reads.
    @Test func anOperationUnsupportedForSomeInputsKeepsTheOthers() {
        let plainOnly = InProcessImplementation(name: "plain only") { op, input in
            op == "selection.decode" && input["format"] != nil ? .unsupported : OperationTable.perform(op, input: input)
        }
        let result = explore(plainOnly, ["selection.decode"], cases: 3_000)
        #expect(result.unsupported.isEmpty)
        #expect((result.unsupportedInputs["selection.decode"] ?? 0) > 0, "\(result.unsupportedInputs)")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.key))")
    }
}

/// A time limit holds with shrinking in it: shrinking takes at most its share, and the run ends within about a
/// second of the limit even when every case is a new finding that is slow to shrink.
struct ShrinkBudgetTests {
    /// Every answer is wrong in its own way (a new finding key per case), and each takes a millisecond.
    static var slowAndWrong: InProcessImplementation {
        InProcessImplementation(name: "slow and wrong") { op, input in
            usleep(1_000)
            return .error("wrong-\(JSONWriter.string(input).count % 40)")
        }
    }

    @Test func aTimeLimitIsHeldWithShrinkingInIt() {
        let operations = ["url.encode"].compactMap(ExploredOperations.named)
        let start = Date()
        let result = Explorer(
            Self.slowAndWrong, ExploreConfiguration(operations: operations, seed: 1, limit: .seconds(3))
        ).run()
        let elapsed = Date().timeIntervalSince(start)
        // Without the budget each of the 40 findings would shrink for about 2 s. The bound allows for a loaded machine.
        #expect(elapsed < 3 + 2.5, "\(elapsed) s")
        #expect(result.shrinkSeconds <= 3 * 0.5 + 0.25 * Double(result.findings.count) + 0.5, "\(result.shrinkSeconds)")
        #expect(!result.findings.isEmpty)
        // Every finding has an example, shrunk or (past the limit) as found.
        #expect(result.findings.allSatisfy { !$0.examples.isEmpty })
    }

    /// A `--cases` run that will take long says so once, early, with the projected time.
    @Test func aLongCaseLimitIsProjectedOnce() {
        final class Counter: @unchecked Sendable { var n = 0 }
        let answered = Counter()
        // Right but slow (1 ms a case) until case 4000, then wrong: the run stops at its first finding.
        let slow = InProcessImplementation(name: "slow") { op, input in
            usleep(1_000)
            answered.n += 1
            return answered.n > 4_000 ? .error("late") : OperationTable.perform(op, input: input)
        }
        let operations = ["url.encode"].compactMap(ExploredOperations.named)
        var projections: [Double] = []
        _ = Explorer(
            slow,
            ExploreConfiguration(
                operations: operations, seed: 1, limit: .cases(1_000_000), shrinkBudget: 10, stopsAtFirstFinding: true)
        ).run { progress in
            if let projected = progress.projectedSeconds { projections.append(projected) }
        }
        #expect(projections.count == 1, "\(projections)")
        #expect((projections.first ?? 0) > 600)
    }

    @Test func aCaseLimitShrinksAsBeforeWithoutATimeShare() {
        let broken = planted("url.encode") { input in
            referenceOutput("url.encode", input) { $0["encoded"] = .string("x") }
        }
        let result = explore(broken, ["url.encode"], cases: 300)
        #expect(result.findings.count == 1)
        #expect(result.findings[0].first.minimalSize <= result.findings[0].first.originalSize)
        #expect(result.findings[0].first.shrinkSteps > 0)
    }
}
