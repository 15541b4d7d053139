import Foundation
import Testing
import _TestSupport

@testable import MutationTesting

/// The report's counts, score and encoding (what `lab bench` embeds), and the list of equivalent mutants.
@Suite struct ReportTests {
    static let source = """
        func f(_ a: Int, _ b: Int) -> Bool {
            if a > 9 { return true }
            if a == 4 || b >= 5 { return false }
            return a < b && b != 3
        }
        """

    func mutants() throws -> [Mutant] { try MutantFinder.mutants(in: Self.source, file: "Sources/M/F.swift") }

    func results(_ verdicts: [Verdict]) throws -> [(Mutant, Verdict)] {
        let mutants = try mutants()
        try #require(mutants.count >= verdicts.count)
        return Array(zip(mutants.prefix(verdicts.count), verdicts))
    }

    @Test func countsAndScoreFollowTheRule() throws {
        let results = try results([.caught, .caught, .missed, .timeout, .unviable, .notCovered, .caught, .missed])
        let report = MutationReport(results: results, equivalents: EquivalentMutants())
        #expect(report.mutants == 6)  // caught + missed + timeout
        #expect((report.caught, report.missed, report.timeout, report.unviable) == (3, 2, 1, 1))
        #expect(report.score == 4.0 / 6.0)
        #expect(report.survivors.map(\.id) == [results[2].0.id, results[7].0.id])
        #expect(report.unhandled.count == 2)
        #expect(MutationReport(results: [], equivalents: EquivalentMutants()).score == 0)
    }

    @Test func theEncodingHasExactlyTheDocumentedKeysSorted() throws {
        let results = try results([.caught, .missed])
        let argued = try EquivalentMutants.parse("\(results[1].0.id)  only the spread of a hash changes", file: "e")
        let report = MutationReport(results: results, equivalents: argued)
        let text = String(decoding: try report.encoded(), as: UTF8.self)
        let survivor = results[1].0
        #expect(
            text
                == #"{"caught":1,"missed":1,"mutants":2,"score":1,"survivors":[{"description":"`"#
                + survivor.original + "` → `" + survivor.replacement + #"`","equivalent":"only the spread of a hash "#
                + #"changes","file":"Sources/M/F.swift","id":""# + survivor.id + #"","line":2,"operator":""#
                + survivor.mutationOperator.rawValue + #""}],"timeout":0,"unviable":0}"#)
        #expect(try JSONDecoder().decode(MutationReport.self, from: report.encoded()) == report)
        // An unhandled survivor has `equivalent: null`, not a missing key.
        let plain = String(
            decoding: try MutationReport(results: results, equivalents: .init()).encoded(), as: UTF8.self)
        #expect(plain.contains(#""equivalent":null"#))
    }

    @Test func survivorsAreSortedByFileLineAndID() throws {
        let mutants = try mutants()
        let reversed = mutants.reversed().map { ($0, Verdict.missed) }
        let report = MutationReport(results: reversed, equivalents: EquivalentMutants())
        let s = report.survivors
        #expect(s.count == mutants.count)
        #expect(zip(s, s.dropFirst()).allSatisfy { ($0.file, $0.line, $0.id) <= ($1.file, $1.line, $1.id) })
    }

    @Test func aRunPassesOnlyAtTheThresholdWithEverySurvivorHandled() throws {
        let results = try results(Array(repeating: .caught, count: 9) + [.missed])
        let missed = results[9].0.id
        let none = EquivalentMutants()
        let argued = try EquivalentMutants.parse("\(missed)  the change cannot be observed", file: "e")
        #expect(!MutationRunReport(results: results, equivalents: none).passed)
        #expect(MutationRunReport(results: results, equivalents: argued).passed)  // 90 %, handled
        #expect(!MutationRunReport(results: results, equivalents: none, threshold: 0.95).passed)
        #expect(MutationRunReport(results: results, equivalents: argued).mutation.score == 1)  // 9 / (10 - 1)
        #expect(MutationRunReport(results: results, equivalents: argued).scoreCountingEquivalent == 0.9)
        // A listed mutant that a run catches was argued wrongly.
        let wrong = try EquivalentMutants.parse("\(results[0].0.id)  wrongly argued", file: "e")
        let caught = MutationRunReport(results: Array(results.prefix(9)), equivalents: wrong)
        #expect(caught.caughtEquivalents == [results[0].0.id])
        #expect(!caught.passed)
        // A filtered run is not held to the threshold, a quick run needs its canary caught.
        let filtered = MutationRunReport(results: results, equivalents: argued, filters: ["M"], threshold: 1)
        #expect(filtered.passed)
        let quick = MutationRunReport(
            results: results, equivalents: argued, quick: true, canary: (results[9].0.id, .missed))
        #expect(!quick.passed && quick.failures.contains { $0.contains("canary") })
        #expect(!MutationRunReport(results: results, equivalents: argued, quick: true).passed)
        let machinery = MutationRunReport(
            results: results, equivalents: none, quick: true, canary: (results[0].0.id, .caught))
        #expect(machinery.passed, "a quick run's survivors are listed, not failures: \(machinery.failures)")
    }

    @Test func countsPerModuleAndOperatorAreSorted() throws {
        let results = try results([.caught, .missed, .caught])
        let run = MutationRunReport(results: results, equivalents: EquivalentMutants())
        #expect(run.modules.map(\.name) == ["M"])
        #expect(
            run.operators.map(\.name)
                == run.operators.map(\.name).sorted {
                    MutationOperator(rawValue: $0)! < MutationOperator(rawValue: $1)!
                })
        #expect(run.operators.map(\.mutants).reduce(0, +) == 3)
    }

    @Test func percentRoundsToTenths() {
        #expect(MutationReport.percent(0.93125) == "93.1 %")
        #expect(MutationReport.percent(1) == "100.0 %")
        #expect(MutationReport.percent(0) == "0.0 %")
    }
}

/// The list of equivalent mutants: its format, and that every entry names a mutant that exists.
@Suite struct EquivalentListTests {
    let id = "Sources/M/F.swift:constant:0123abcd"

    func error(_ text: String) -> MutationError? {
        do {
            _ = try EquivalentMutants.parse(text, file: "list.txt")
            return nil
        } catch {
            return error
        }
    }

    @Test func entriesCommentsAndBlankLines() throws {
        let list = try EquivalentMutants.parse(
            "# why these survive\n\n\(id)   a capacity hint: no result changes  \n", file: "list.txt")
        #expect(list.ids == [id])
        #expect(list.argument(for: id) == "a capacity hint: no result changes")
        #expect(list.entries[id]?.line == 3)
    }

    @Test func badLinesAreErrorsWithTheirLine() {
        #expect(
            error("\(id)\n")
                == .equivalents(file: "list.txt", line: 1, message: "\(id) has no argument for its equivalence"))
        #expect(
            error("# c\nnot-an-id because\n")
                == .equivalents(
                    file: "list.txt", line: 2, message: "'not-an-id' is not a mutant id (FILE.swift:OPERATOR:HASH)"))
        #expect(
            error("Sources/M/F.swift:no-such-operator:0123abcd  why\n")
                == .equivalents(
                    file: "list.txt", line: 1,
                    message:
                        "'Sources/M/F.swift:no-such-operator:0123abcd' is not a mutant id (FILE.swift:OPERATOR:HASH)"
                ))
        #expect(
            error("\(id) one\n\(id) two\n")
                == .equivalents(file: "list.txt", line: 2, message: "\(id) is listed twice (first on line 1)"))
    }

    @Test func anEntryThatNamesNoMutantIsAnError() throws {
        let mutants = try MutantFinder.mutants(in: "let limit = 50\n", file: "Sources/M/F.swift")
        let live = try EquivalentMutants.parse("\(mutants[0].id)  why", file: "list.txt")
        #expect(try live.checked(against: mutants) == live)
        let stale = try EquivalentMutants.parse("\(mutants[0].id)  why\n\(id)  gone", file: "list.txt")
        #expect(throws: MutationError.self) { try stale.checked(against: mutants) }
        do {
            _ = try stale.checked(against: mutants)
        } catch {
            guard case .equivalents(_, let line, let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 2 && message.hasPrefix("\(id) names no mutant"))
        }
        // The mutant changed (51 now): its old id no longer matches.
        let changed = try MutantFinder.mutants(in: "let limit = 51\n", file: "Sources/M/F.swift")
        #expect(throws: MutationError.self) { try live.checked(against: changed) }
    }

    @Test func idsSurviveEditsElsewhereInTheFile() throws {
        let before = try MutantFinder.mutants(in: "func f(_ a: Int) -> Bool { a < 3 }\n", file: "Sources/M/F.swift")
        let after = try MutantFinder.mutants(
            in: "// a comment\n\nfunc g() {}\nfunc f(_ a: Int) -> Bool { a < 3 }\n", file: "Sources/M/F.swift")
        #expect(before.map(\.id) == after.map(\.id))
        #expect(before.map(\.line) != after.map(\.line))
    }

    /// The checked-in list names only mutants the reference has now.
    @Test func theCheckedInListIsCurrent() throws {
        let root = PackagePaths.root.path
        let run = MutationRun(MutationOptions(packageRoot: root))
        let mutants = try run.allMutants()
        let list = try EquivalentMutants.load(root + "/" + EquivalentMutants.defaultPath, required: true)
        _ = try list.checked(against: mutants)
    }
}
