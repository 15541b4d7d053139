import Exploration
import Foundation
import ScreenTimeTesting
import StrictJSON
import Testing

/// The generated check in process: a planted bug is found, shrunk, reported with its replay, and held to a list.
@Suite struct ExplorationCheckTests {
    /// Field bug 8: a placeholder without a value rendered as its own key.
    static let literalKey = planted { implementation in
        implementation.renderTemplate = { template, values in
            let parsed = ShieldTextTemplate(template)
            let missing = parsed.render(values).missing
            let keysAsValues = Dictionary(uniqueKeysWithValues: missing.map { ($0, String?.some($0)) })
            return ShieldTextTemplate.Rendering(
                text: parsed.render(values.merging(keysAsValues) { $1 }).text, missing: missing)
        }
    }
    static let check = ExplorationCheck(cases: 3_000, seed: 1, operations: [.templateRender])
    static let key = "template.render: output differs in text"

    @Test func aPlantedBugIsFoundAndShrunkToOnePlaceholder() throws {
        let result = Self.check.run(Self.literalKey, relativeTo: "")
        let findings = result.findings
        #expect(findings.map(\.key) == [Self.key])
        let minimal = try #require(findings.first?.first.minimal.input)
        #expect(minimal["values"] == [:], "\(minimal)")
        let template = try #require(minimal["template"]?.stringValue)
        // One placeholder, no fallback: the key itself is what came out instead of nothing.
        let key = String(template.dropFirst().dropLast())
        #expect(template == "{\(key)}" && !key.contains { "{}|".contains($0) }, "\(template)")
        #expect(findings.first?.first.answer == .output(["missing": [.string(key)], "text": .string(key)]))
        let issue = try #require(result.issues.first { $0.subject == Self.key })
        #expect(!issue.isKnown)
        for label in ["FINDING 1  \(Self.key)", "input:    ", "expected: ", "actual:   ", "diff:     "] {
            #expect(issue.text.contains(label), "\(issue.text)")
        }
        #expect(issue.text.contains(#"replay:   ExplorationCheck(replay: "template.render:"#), "\(issue.text)")
        #expect(
            result.summary.hasPrefix("planted, generated cases in process: FOUND — 3000 cases (seed 1), 1 finding(s)"))
    }

    @Test func theReplayRunsExactlyTheMinimalCase() throws {
        let found = try #require(Self.check.run(Self.literalKey, relativeTo: "").findings.first?.first)
        let replay = ReplayCase(found).text
        let again = ExplorationCheck(replay: replay).run(Self.literalKey, relativeTo: "")
        #expect(again.issues.count == 1 && again.issues.first?.subject == Self.key)
        #expect(again.summary.contains("input:    \(JSONWriter.string(found.minimal.input))"), "\(again.summary)")
        // Fixed, the same case passes.
        let fixed = ExplorationCheck(replay: replay).run(.reference, relativeTo: "")
        #expect(fixed.passed && fixed.summary.hasPrefix("template.render: pass"), "\(fixed.summary)")
    }

    @Test func expectedFindingsAreStrictBothWays() throws {
        var listed = Self.check
        listed.expectedFindings = [Self.key]
        let known = listed.run(Self.literalKey, relativeTo: "")
        #expect(known.passed && known.issues.map(\.isKnown) == [true], "\(known.issues.map(\.text))")
        let stale = listed.run(.reference, relativeTo: "")
        #expect(!stale.passed)
        #expect(stale.issues.contains { $0.text.hasPrefix("STALE \(Self.key): listed in expectedFindings, not found") })
    }

    @Test func findingsAreSavedAsVectorsThatTheConformanceCheckReplays() throws {
        let name = "explored-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: testDirectory + "/" + name) }
        var saving = Self.check
        saving.saveFindingsTo = name
        let explored = saving.run(Self.literalKey, relativeTo: testDirectory)
        let examples = explored.findings.first?.examples.count ?? 0
        #expect(explored.summary.contains("saved \(examples) new case(s) to "), "\(explored.summary)")
        let replayed = ConformanceCheck(operations: [.templateRender], vectors: [name])
        let stillBroken = replayed.run(Self.literalKey, relativeTo: testDirectory)
        #expect(failingIDs(stillBroken).contains { $0.hasPrefix(name.dropLast(5) + "/") })
        #expect(replayed.run(.reference, relativeTo: testDirectory).passed)
    }
}
