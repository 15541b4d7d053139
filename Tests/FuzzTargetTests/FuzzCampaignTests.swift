import Foundation
import Testing
import _TestSupport

@testable import _FuzzCorpus

/// The campaign's bookkeeping with a stand-in for libFuzzer: the schedule, the ledger across a stop and a resume,
/// crashes deduplicated by stack, and the report.
@Suite struct FuzzCampaignTests {
    /// A fuzzer stand-in: each slice uses its seconds × jobs of CPU, executes 100 inputs a CPU second, and grows
    /// the coverage by 10. `crashing` targets crash in every slice with one stack; `stopAfter` slices in, the
    /// runner reports its slice as interrupted halfway (a stop request), as libFuzzer does on SIGINT.
    final class StandIn: CampaignSliceRunner {
        var slices: [(target: String, seconds: Int)] = []
        var crashing: Set<String> = []
        /// Crashing targets crash at once, as on an input of the seeds: a slice then uses almost no CPU.
        var crashAtOnce = false
        /// Crashing targets crash on two stacks in turn (two bugs), not on one.
        var twoBugs = false
        var stopAfter: Int?
        /// CPU seconds each slice uses less than its seconds × jobs (a fuzzer that does not keep its cores busy).
        var shortfall = 0.0
        /// Timeouts each slice reports that did not recur alone.
        var unreproducedTimeouts = 0
        var coverage: [String: Int] = [:]

        func runSlice(target: String, seconds: Int, jobs: Int) throws -> CampaignSliceOutcome {
            slices.append((target, seconds))
            let interrupted = stopAfter == slices.count
            let atOnce = crashAtOnce && crashing.contains(target)
            let cpu = atOnce ? 0.02 : Double(seconds * jobs) / (interrupted ? 2 : 1) - shortfall
            let start = coverage[target, default: 100]
            coverage[target] = start + 10
            return CampaignSliceOutcome(
                cpuSeconds: cpu, wallSeconds: cpu / Double(jobs), executions: Int(cpu * 100), covStart: start,
                covEnd: start + 10, ftEnd: 2 * (start + 10), newSeeds: 1, corpusAfter: 5 + slices.count,
                crashes: crashing.contains(target)
                    ? [(input: Array("boom \(slices.count)".utf8), stack: stack(target))] : [],
                interrupted: interrupted, unreproducedTimeouts: unreproducedTimeouts)
        }

        /// The stack of the target's crash in its slice just run: with two bugs, the second in its even slices.
        func stack(_ target: String) -> String {
            twoBugs && slices.filter({ $0.target == target }).count % 2 == 0 ? "crash: h < i" : "crash: f < g"
        }

        func reproduces(target: String, files: [String]) throws -> Bool { crashing.contains(target) }
    }

    static func campaign(_ ledger: CampaignLedger, _ runner: StandIn, _ path: String, saved: Saved) -> FuzzCampaign {
        FuzzCampaign(ledger: ledger, ledgerPath: path, runner: runner, commit: "abc1234") { bytes, target in
            saved.files.append((target, bytes))
            return "corpus/\(target)/regressions/\(saved.files.count)"
        }
    }

    final class Saved { var files: [(String, [UInt8])] = [] }

    /// A runner whose target `bad` crashes as soon as it starts, on one bug or on two in turn.
    static func crashingAtOnce(twoBugs: Bool = false) -> StandIn {
        let runner = StandIn()
        runner.crashing = ["bad"]
        runner.crashAtOnce = true
        runner.twoBugs = twoBugs
        return runner
    }

    /// A campaign of 20 CPU s for each of `bad` and `good`, in slices of 10 s with one job.
    static func badAndGood(_ runner: StandIn, _ path: String, saved: Saved = Saved()) -> FuzzCampaign {
        campaign(
            CampaignLedger(budgetSeconds: 20, perTarget: true, sliceSeconds: 10, jobs: 1, targets: ["bad", "good"]),
            runner, path, saved: saved)
    }

    @Test func theBudgetIsSpreadRoundRobinByCPUAndEveryTargetGetsItsShare() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        let runner = StandIn()
        var campaign = Self.campaign(
            CampaignLedger(budgetSeconds: 300, perTarget: false, sliceSeconds: 40, jobs: 1, targets: ["a", "b", "c"]),
            runner, path, saved: Saved())
        try campaign.run()
        let ledger = try CampaignLedger.load(path)
        #expect(ledger == campaign.ledger)
        for name in ["a", "b", "c"] { #expect(ledger.targets[name]?.cpuSeconds == 100, "\(name)") }
        // Turns by CPU spent: a, b, c, a, b, c, then each target's last, shorter slice (100 = 40 + 40 + 20).
        #expect(runner.slices.map(\.target) == ["a", "b", "c", "a", "b", "c", "a", "b", "c"])
        #expect(runner.slices.suffix(3).map(\.seconds) == [20, 20, 20])
        #expect(ledger.nextTarget == nil)
        #expect(ledger.targets["a"]?.slices.map(\.commit) == ["abc1234", "abc1234", "abc1234"])
        #expect(ledger.targets["a"]?.corpusStart == 5)
    }

    /// Slices that use a little less CPU than they could leave a target a fraction of a second short: it gets
    /// another, 1-second slice, until it has used at least its budget (the campaign of 2026-12 stopped json
    /// 0.6 CPU s short of its hour under an earlier rule that let a target off with less than 1 s left).
    @Test func everyTargetUsesAtLeastItsBudgetEvenWhenSlicesFallShort() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        let runner = StandIn()
        runner.shortfall = 0.4
        var campaign = Self.badAndGood(runner, path)
        try campaign.run()
        let ledger = try CampaignLedger.load(path)
        for name in ["bad", "good"] {
            let cpu = ledger.targets[name]?.cpuSeconds ?? 0
            #expect(cpu >= 20 && cpu < 21, "\(name): \(cpu)")
        }
        // 9.6 + 9.6 leaves 0.8; a 1-second slice uses 0.6, leaving 0.2; one more ends it.
        #expect(runner.slices.filter { $0.target == "good" }.map(\.seconds) == [10, 10, 1, 1])
        #expect(ledger.nextTarget == nil && !ledger.hasBudgetLeft)
    }

    /// Timeouts that did not recur alone are counted in their slice and said in the progress, and are not crashes:
    /// nothing is saved and the target goes on to its budget. A slice without any has no such key in the ledger,
    /// so ledgers written before the count existed read the same.
    @Test func timeoutsThatDidNotRecurAloneAreCountedNotCrashes() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        let runner = StandIn()
        runner.unreproducedTimeouts = 2
        let saved = Saved()
        var campaign = Self.badAndGood(runner, path, saved: saved)
        var lines: [String] = []
        try campaign.run(progress: { lines.append($0) })
        let ledger = try CampaignLedger.load(path)
        #expect(saved.files.isEmpty)
        for name in ["bad", "good"] {
            let target = try #require(ledger.targets[name])
            #expect(target.crashes.isEmpty && target.suspended == nil && target.cpuSeconds == 20)
            #expect(target.slices.allSatisfy { $0.unreproducedTimeouts == 2 })
        }
        #expect(lines.allSatisfy { $0.contains("2 timeout(s) that did not recur alone") }, "\(lines)")

        runner.unreproducedTimeouts = 0
        var clean = Self.badAndGood(runner, path + ".clean")
        try clean.run()
        let text = try String(contentsOfFile: path + ".clean", encoding: .utf8)
        #expect(!text.contains("unreproducedTimeouts"))
        #expect(try CampaignLedger.load(path + ".clean").targets["good"]?.slices.first?.unreproducedTimeouts == nil)
    }

    /// Stopped in the middle of a slice: that slice counts as far as it ran, and `--resume` (a new campaign over
    /// the saved ledger) reaches the same budget, with no CPU counted twice.
    @Test func aCampaignStoppedMidSliceAndResumedReachesTheSameBudgetWithoutDoubleCounting() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        let first = StandIn()
        first.stopAfter = 2
        var campaign = Self.campaign(
            CampaignLedger(budgetSeconds: 60, perTarget: true, sliceSeconds: 20, jobs: 2, targets: ["a", "b"]),
            first, path, saved: Saved())
        try campaign.run()
        let stopped = try CampaignLedger.load(path)
        #expect(first.slices.count == 2)
        #expect(stopped.targets["a"]?.cpuSeconds == 40 && stopped.targets["b"]?.cpuSeconds == 20)
        #expect(stopped.targets["b"]?.slices.last?.interrupted == true)

        let second = StandIn()
        var resumed = Self.campaign(stopped, second, path, saved: Saved())
        try resumed.run()
        let done = try CampaignLedger.load(path)
        #expect(done.targets["a"]?.cpuSeconds == 60 && done.targets["b"]?.cpuSeconds == 60)
        #expect(done.totalCPUSeconds == 120)
        // The slices of both sittings, numbered on, none repeated.
        #expect(done.targets["b"]?.slices.map(\.number) == Array(1...(done.targets["b"]?.slices.count ?? 0)))
        let executions = done.targets.values.reduce(0) { $0 + $1.executions }
        #expect(executions == 120 * 100)
    }

    /// A target that crashes in every slice: one regression for its stack, the stack counted, the target suspended
    /// after three slices in a row, and the other target fuzzed to its budget.
    @Test func aCrashingTargetYieldsOneDeduplicatedRegressionAndTheCampaignGoesOn() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        let runner = StandIn()
        runner.crashing = ["bad"]
        let saved = Saved()
        var campaign = Self.campaign(
            CampaignLedger(budgetSeconds: 100, perTarget: true, sliceSeconds: 10, jobs: 1, targets: ["bad", "good"]),
            runner, path, saved: saved)
        try campaign.run()
        let ledger = try CampaignLedger.load(path)
        #expect(saved.files.count == 1 && saved.files.first?.0 == "bad")
        let bad = try #require(ledger.targets["bad"])
        #expect(bad.crashes.count == 1)
        #expect(bad.crashes.first?.occurrences == 3 && bad.crashes.first?.slice == 1)
        #expect(bad.crashes.first?.file == "corpus/bad/regressions/1")
        #expect(bad.suspended != nil && bad.slices.count == 3)
        #expect(ledger.targets["good"]?.cpuSeconds == 100)
        let report = ledger.report(markdown: true)
        #expect(report.contains("| bad | 30 | 3000 | 100 | 100 → 130 |"), "\(report)")
        #expect(report.contains("1 (suspended)"))
        #expect(report.contains("| good | 100 |"))
    }

    /// A target that crashes as soon as it starts uses almost no CPU per slice: it is suspended for its known
    /// crash, not as a fuzzer that does not run.
    @Test func aTargetCrashingAtOnceIsSuspendedForItsCrashNotForUsingNoCPU() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let saved = Saved()
        var campaign = Self.badAndGood(
            Self.crashingAtOnce(), directory.appendingPathComponent("CAMPAIGN.json").path, saved: saved)
        try campaign.run()
        let bad = try #require(campaign.ledger.targets["bad"])
        #expect(bad.slices.count == FuzzCampaign.suspendAfter && bad.crashes.first?.occurrences == 3)
        #expect(
            bad.suspended == "crashed in 3 slices in a row, on known stacks: crash: f < g", "\(bad.suspended ?? "")")
        #expect(saved.files.count == 1)
        #expect(campaign.ledger.targets["good"]?.cpuSeconds == 20)
    }

    /// Two bugs, each hit at once in turn: the third slice finds only known stacks, so the target is suspended for
    /// them (not taken for a fuzzer that does not run, and not picked again and again for its little CPU).
    @Test func aTargetCrashingAtOnceOnTwoKnownBugsInTurnIsSuspendedForBoth() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let saved = Saved()
        var campaign = Self.badAndGood(
            Self.crashingAtOnce(twoBugs: true), directory.appendingPathComponent("CAMPAIGN.json").path, saved: saved)
        try campaign.run()
        let bad = try #require(campaign.ledger.targets["bad"])
        #expect(bad.slices.map { $0.crashes } == [["crash: f < g"], ["crash: h < i"], ["crash: f < g"]])
        #expect(bad.crashes.map(\.occurrences) == [2, 1] && saved.files.count == 2)
        #expect(
            bad.suspended == "crashed in 3 slices in a row, on known stacks: crash: f < g; crash: h < i",
            "\(bad.suspended ?? "")")
        #expect(campaign.ledger.targets["good"]?.cpuSeconds == 20)
    }

    /// A suspended target is fuzzed again by the next campaign over its ledger once its saved crashes no longer
    /// crash it (the bug was fixed), and stays suspended while one still does.
    @Test func aSuspendedTargetIsFuzzedAgainOnceItsCrashesAreFixed() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        var first = Self.badAndGood(Self.crashingAtOnce(), path)
        try first.run()
        #expect(first.ledger.targets["bad"]?.suspended != nil)

        let stillBuggy = StandIn()
        stillBuggy.crashing = ["bad"]
        var again = Self.campaign(first.ledger, stillBuggy, path, saved: Saved())
        var said: [String] = []
        try again.run(progress: { said.append($0) })
        #expect(stillBuggy.slices.isEmpty && again.ledger.targets["bad"]?.suspended != nil)
        #expect(said.first?.hasPrefix("bad: still suspended, a saved crash still crashes it") == true, "\(said)")

        let fixed = StandIn()
        var resumed = Self.campaign(first.ledger, fixed, path, saved: Saved())
        said = []
        try resumed.run(progress: { said.append($0) })
        let bad = try #require(resumed.ledger.targets["bad"])
        #expect(bad.suspended == nil && bad.cpuSeconds >= 19.9, "\(bad.cpuSeconds)")
        #expect(fixed.slices.map(\.target) == ["bad", "bad"])
        #expect(said.first?.hasPrefix("bad: fuzzed again, its 1 saved crash(es) no longer crash it") == true, "\(said)")
        #expect(try CampaignLedger.load(path) == resumed.ledger)
    }

    /// How far a campaign is: the report's budget line gives the CPU spent of the whole budget, and each slice's
    /// progress line the time left at the sitting's pace.
    @Test func theReportAndTheProgressSayHowFarTheCampaignIs() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let runner = StandIn()
        var ledger = CampaignLedger(budgetSeconds: 40, perTarget: true, sliceSeconds: 10, jobs: 1, targets: ["a", "b"])
        #expect(ledger.totalBudgetSeconds == 80)
        ledger.perTarget = false
        #expect(ledger.totalBudgetSeconds == 40)
        ledger.perTarget = true
        var campaign = Self.campaign(
            ledger, runner, directory.appendingPathComponent("CAMPAIGN.json").path, saved: Saved())
        var said: [String] = []
        try campaign.run(shouldStop: { said.count == 3 }, progress: { said.append($0) })
        #expect(said.first?.contains("; 10/40 CPU s for the target, 10/80 in all, about ") == true, "\(said)")
        #expect(
            campaign.ledger.report(markdown: false).hasPrefix(
                "budget: 40 CPU s per target, slices of 10 s, 1 job(s); spent 30 of 80 CPU s (37 %)\n"))

        #expect(FuzzCampaign.timeLeft(cpu: 7200, rate: 2) == ", about 1 h 00 min left at 2.0 CPU s/s")
        #expect(FuzzCampaign.timeLeft(cpu: 38_920, rate: 1.9) == ", about 5 h 42 min left at 1.9 CPU s/s")
        #expect(FuzzCampaign.timeLeft(cpu: 30, rate: 1) == ", about 1 min left at 1.0 CPU s/s")
        #expect(FuzzCampaign.timeLeft(cpu: 0, rate: 2).isEmpty && FuzzCampaign.timeLeft(cpu: 10, rate: 0).isEmpty)
        #expect(FuzzCampaign.timeLeft(cpu: 10, rate: .infinity).isEmpty)
    }

    @Test func aLedgerThatIsNotOneIsAClearError() throws {
        let directory = TemporaryDirectory.make("stc-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("CAMPAIGN.json").path
        try Data("{\"schema\": 1}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CampaignError.self) { try CampaignLedger.load(path) }
        #expect(throws: CampaignError.self) { try CampaignLedger.load(path + ".missing") }
    }
}
