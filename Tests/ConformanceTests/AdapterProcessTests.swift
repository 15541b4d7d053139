import Foundation
import StrictJSON
import Testing

@testable import Conformance

@Suite(.serialized) struct AdapterProcessTests {
    func run(_ command: String, timeout: Double = 1, window: Int = 64, suites: [String] = ["resilience.json"])
        throws -> (ConformanceRun, AdapterProcess)
    {
        let loaded = try SuiteLoader.load(paths: suites.map(Fixtures.suite))
        let runner = ConformanceRunner(suites: loaded, timeout: timeout)
        let adapter = AdapterProcess(name: "fake", command: command, timeout: timeout, window: window)
        return (runner.run([(adapter, nil)]), adapter)
    }

    @Test func wellBehavedAdapterPassesEverything() throws {
        let (run, adapter) = try run(Fixtures.adapter())
        let statuses = run.implementations[0].results.map(\.status)
        #expect(statuses.allSatisfy { $0 == .pass }, "\(run.implementations[0].results)")
        #expect(adapter.diagnostics.restarts == 0)
        #expect(run.ok)
    }

    @Test(arguments: [1, 4, 64])
    func everyMisbehaviourIsClassifiedAndTheRunCompletes(window: Int) throws {
        let (run, adapter) = try run(
            Fixtures.adapter("--crash", "--hang", "--garbage", "--wrong-id", "--missing"), window: window)
        let expected: [String: CaseStatus] = [
            "resilience/ok-1": .pass, "resilience/crash": .crash, "resilience/ok-2": .pass,
            "resilience/hang": .timeout, "resilience/ok-3": .pass, "resilience/garbage": .protocol,
            "resilience/ok-4": .pass, "resilience/wrongid": .protocol, "resilience/ok-5": .pass,
            "resilience/missing": .protocol, "resilience/ok-6": .pass, "resilience/last": .pass,
        ]
        for (id, status) in expected {
            #expect(run.status(id) == status, "\(id) with window \(window)")
        }
        #expect(adapter.diagnostics.restarts == 2)  // after the crash and after the hang
        #expect(adapter.diagnostics.stderrTail.contains("fake adapter: crashing on resilience/crash"))
        #expect(!run.ok)
        let crash = run.implementations[0].results[1]
        #expect(crash.problem.contains("exit status 3"), "\(crash.problem)")
    }

    @Test func signalDeathIsReportedWithTheSignal() throws {
        let (run, _) = try run(Fixtures.adapter("--segv"))
        #expect(run.status("resilience/crash") == .crash)
        #expect(run.status("resilience/ok-2") == .pass)
        let problem = run.implementations[0].results[1].problem
        #expect(problem.contains("11"), "\(problem)")
    }

    /// An adapter that survives its crash (a fork server, SPEC §5.4) answers `crash` itself: the case is a crash
    /// with the adapter's account, nothing is restarted, and the survived crash is counted apart.
    @Test func aCrashAnswerIsACrashWithoutARestart() throws {
        let (run, adapter) = try run(Fixtures.adapter("--survive"))
        #expect(run.status("resilience/crash") == .crash)
        #expect(run.status("resilience/ok-2") == .pass)
        let problem = run.implementations[0].results[1].problem
        #expect(problem.contains("killed by signal 4 (SIGILL)") && problem.contains("went on"), "\(problem)")
        #expect(adapter.diagnostics.restarts == 0)
        #expect(adapter.diagnostics.survivedCrashes == 1)
        #expect(TextReport.string(run).contains("The adapter survived 1 crash(es) of its code without a restart."))
        #expect(!TextReport.string(run).contains("restarted"))
    }

    @Test func aCrashMemberThatIsNotAStringIsAProtocolViolation() throws {
        let (run, adapter) = try run(Fixtures.adapter("--bad-crash"))
        #expect(run.status("resilience/crash") == .protocol)
        #expect(run.implementations[0].results[1].problem.contains("\"crash\" is not a non-empty string"))
        #expect(adapter.diagnostics.survivedCrashes == 0)
    }

    /// A restart's cost (from the end of the adapter's output to the new process's first answer) is measured.
    @Test func aRestartsCostIsCounted() throws {
        let (_, adapter) = try run(Fixtures.adapter("--crash"))
        #expect(adapter.diagnostics.restarts == 1)
        #expect(adapter.diagnostics.restartSeconds > 0 && adapter.diagnostics.restartSeconds < 5)
        #expect(hundredths(0.974) == "0.97" && hundredths(12.3) == "12.30" && hundredths(0.05) == "0.05")
    }

    @Test func adapterThatExitsAtStartFailsFastWithCrashEverywhere() throws {
        let start = Date()
        let (run, adapter) = try run(Fixtures.adapter("--exit-at-start"))
        #expect(run.implementations[0].results.allSatisfy { $0.status == .crash })
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(adapter.diagnostics.notes.contains { $0.contains("liveness probe") }, "\(adapter.diagnostics.notes)")
        #expect(adapter.diagnostics.stderrTail.contains("cannot start (on purpose)"))
    }

    @Test func adapterThatHangsAtStartTimesOutEverywhereWithoutWaitingForEachCase() throws {
        let start = Date()
        let (run, adapter) = try run(Fixtures.adapter("--hang-at-start"), timeout: 0.5)
        #expect(run.implementations[0].results.allSatisfy { $0.status == .timeout })
        // 3 timeouts and a failed probe, not one timeout per case.
        #expect(Date().timeIntervalSince(start) < 4.5)
        #expect(!adapter.diagnostics.notes.isEmpty)
    }

    @Test func unsupportedAnswersAreTheirOwnStatus() throws {
        let (run, _) = try run(Fixtures.adapter("--unsupported"))
        #expect(run.implementations[0].results.allSatisfy { $0.status == .unsupported })
        #expect(!run.ok)
    }

    @Test func aCommandThatDoesNotExistIsACrashNotATrap() throws {
        let (run, adapter) = try run("/nonexistent/adapter-binary")
        #expect(run.implementations[0].results.allSatisfy { $0.status == .crash })
        #expect(
            adapter.diagnostics.stderrTail.contains("not found") || adapter.diagnostics.stderrTail.contains("No such"))
    }

    @Test func stderrFloodDoesNotBlockAndOnlyItsTailIsKept() throws {
        let (run, adapter) = try run(Fixtures.adapter("--stderr-flood"))
        #expect(run.implementations[0].results.allSatisfy { $0.status == .pass })
        #expect(adapter.diagnostics.stderrTail.utf8.count <= 8192 + 200)
        #expect(adapter.diagnostics.stderrTail.contains("flood done"))
    }

    @Test func outOfOrderAnswersAreMatchedById() throws {
        let (run, _) = try run(Fixtures.adapter("--reverse"), window: 8)
        #expect(
            run.implementations[0].results.allSatisfy { $0.status == .pass },
            "\(run.implementations[0].results.map(\.problem))")
    }

    @Test func slowButTimelyAnswersAreNotTimeouts() throws {
        // 0.2 s per answer against 3 s: slow, yet timely even when a loaded machine delays the adapter's start.
        let (run, _) = try run(Fixtures.adapter("--slow"), timeout: 3, suites: ["basic.json"])
        #expect(run.implementations[0].results.allSatisfy { $0.status != .timeout })
    }
}
