import Foundation
import MutationTesting
import Testing
import _Subprocess

@testable import BugFinding

@Suite struct BugFindingReportTests {
    @Test func theMedianCountsAMissAsSlowerThanAnyFind() {
        #expect(BugHunt.median([0.3, 0.1, 0.2, 0.5, 0.4], seeds: 5) == 0.3)
        #expect(BugHunt.median([nil, 0.1, nil, 0.5, 0.4], seeds: 5) == 0.5)
        #expect(BugHunt.median([nil, 0.1, nil, nil], seeds: 5) == nil)  // stopped early after three misses
        #expect(BugHunt.median([0.1, nil], seeds: 5) == nil)  // two attempts made of five: the rest count as misses
        #expect(BugHunt.median([2.0], seeds: 1) == 2.0)
        #expect(BugHunt.median([], seeds: 0) == nil)
    }

    static func bug(
        _ name: String, field: String? = "7.7", vectors: Bool = true, check: Double? = 0.1, fuzz: Double? = 1,
        explore: Double? = 0.5, naive: Double? = nil
    ) -> BugFindingReport.Bug {
        var bug = BugFindingReport.Bug(
            entry: PlantedBugEntry(
                name, fieldBug: field, "s", checks: ["url"], fuzz: "url", explore: ["url"], naive: "naive-url"),
            vectors: vectors)
        bug.check = check
        bug.fuzz = fuzz
        bug.explore = explore
        bug.naive = naive
        return bug
    }

    static func report(_ bugs: [BugFindingReport.Bug]) -> BugFindingReport {
        var report = BugFindingReport(
            date: "2026-12-01T00:00:00Z", quick: false, seeds: [1, 2, 3, 4, 5],
            caps: .init(check: 30, fuzz: 120, explore: 60, naive: 120))
        report.bugs = bugs
        return report
    }

    @Test func theVerdictsJudgeEachTarget() {
        let good = Self.report([Self.bug("url.a", naive: 50), Self.bug("url.b", field: nil, vectors: false)])
        #expect(good.verdicts.allSatisfy { $0.met }, "\(good.verdicts)")
        let bad = Self.report([
            Self.bug("url.once", check: nil, fuzz: nil, explore: nil),  // vectors alone
            Self.bug("url.unvectored", vectors: false),
            Self.bug("url.slowcheck", check: 1.5),
            Self.bug("url.slowfuzz", fuzz: 61),
            Self.bug("url.naiveclose", check: 2, fuzz: 3, explore: 4, naive: 9),
        ])
        let verdicts = bad.verdicts
        #expect(verdicts.filter(\.met).isEmpty, "\(verdicts)")
        #expect(verdicts[0].detail.contains("url.once"))
        #expect(verdicts[1].detail.contains("url.unvectored"))
        #expect(verdicts[2].detail.hasPrefix("slower: url.slowcheck, url.naiveclose;"))
        #expect(verdicts[2].detail.contains("not found within the cap: url.once"))
        #expect(verdicts[3].detail.contains("url.slowfuzz"))
        #expect(verdicts[4].detail.contains("under 5×: url.naiveclose"))
        #expect(bad.bugs[4].naiveRatio == 4.5)  // against the fastest of ours, check at 2 s
    }

    @Test func theJSONSpellsNotFoundAsNullAndCarriesTheDerivedFigures() throws {
        var report = Self.report([Self.bug("url.a", check: nil, naive: 10)])
        report.bugs[0].runs = ["check": [nil, nil, nil], "naive": [10, 9, 11]]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any])
        let bugs = try #require(json["bugs"] as? [[String: Any]])
        #expect(bugs[0]["check"] is NSNull)
        #expect(bugs[0]["fuzz"] as? Double == 1)
        #expect(bugs[0]["vectors"] as? Bool == true)
        #expect(bugs[0]["hammersFinding"] as? [String] == ["vectors", "fuzz", "explore"])
        #expect((bugs[0]["naiveRatios"] as? [String: Double])?["fuzz"] == 10)
        #expect((json["baselines"] as? [[String: Any]])?.first?["harness"] as? String == "naive-url")
        #expect((json["verdicts"] as? [Any])?.count == 5)
        let back = try JSONDecoder().decode(BugFindingReport.self, from: encoder.encode(report))
        #expect(back.bugs[0].runs["naive"] == [10, 9, 11])
        #expect(back.bugs[0].check == nil)
    }

    @Test func aMissIsBelowTheTimeTargetsToo() {
        let verdicts = Self.report([Self.bug("url.nocheck", check: nil), Self.bug("url.nofuzz", fuzz: nil)]).verdicts
        #expect(!verdicts[2].met && verdicts[2].detail.contains("not found within the cap: url.nocheck"))
        #expect(!verdicts[3].met && verdicts[3].detail.contains("not found within the cap: url.nofuzz"))
    }

    @Test func theMutationScoreIsJudgedAndEncodedWhenMeasured() throws {
        var report = Self.report([Self.bug("url.a")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let unmeasured = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any])
        #expect(unmeasured["mutation"] is NSNull)
        report.mutation = MutationReport(
            mutants: 250, caught: 230, missed: 20, unviable: 4, timeout: 0, score: 0.92, survivors: [])
        #expect(report.verdicts.last?.met == true, "\(report.verdicts)")
        let json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any])
        let mutation = try #require(json["mutation"] as? [String: Any])
        #expect(mutation["mutants"] as? Int == 250 && mutation["score"] as? Double == 0.92)
        report.mutation?.mutants = 199
        #expect(report.verdicts.last?.met == false)
        let back = try JSONDecoder().decode(BugFindingReport.self, from: encoder.encode(report))
        #expect(back.mutation?.caught == 230)
    }

    @Test func theTableHasARowPerBugAndTheVerdicts() {
        let text = Self.report([Self.bug("url.a"), Self.bug("url.b", fuzz: nil)]).text
        #expect(text.contains("url.a"))
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("url.b") && $0.contains("—") })
        #expect(text.contains("PASS  every planted bug found by at least two hammers"))
    }

    @Test func aRunIsKilledAtItsLimit() throws {
        let outcome = try TimedProcess.run("/bin/sleep", ["30"], limit: 0.3)
        #expect(outcome.killed)
        #expect(outcome.seconds < 10)
        let done = try TimedProcess.run("/bin/sh", ["-c", "echo hi; exit 3"], limit: 30)
        #expect(!done.killed && done.status == 3 && done.output == "hi\n")
    }

    @Test func shellQuotingKeepsPlainWordsAndQuotesTheRest() {
        #expect(Command.shellQuoted("/a/b-c.d") == "/a/b-c.d")
        #expect(Command.shellQuoted("a b") == "'a b'")
        #expect(Command.shellQuoted("it's") == "'it'\\''s'")
        #expect(Command.shellQuoted("") == "''")
    }
}
