import Conformance
import Exploration
import _Subprocess

extension BenchSuite {
    /// The explorer through `lab adapter`: generated cases of every operation per second, each answered by the
    /// adapter and judged against the reference in this process (the reference finds nothing in itself, so no
    /// time goes to shrinking). One adapter process serves every batch, as in `stc explore`.
    func exploreSection(into report: inout BenchReport) {
        let section = "explorer (generated cases of every operation)"
        guard selected("explore.adapter") else { return }
        guard let executable = adapterExecutable else {
            report.skips.append(
                Skip(section: section, reason: "through the adapter: cannot find the executable serving it"))
            return
        }
        let adapter = AdapterProcess(
            name: "lab adapter", command: Command.shellQuoted(executable) + " adapter", timeout: 30)
        adapter.keepsRunning = true
        defer { adapter.close() }
        let count = plan.repetitions <= 3 ? 2_000 : 20_000
        final class Seed: @unchecked Sendable { var next: UInt64 = 1 }
        let seed = Seed()
        var findings: [String] = []
        let workload = Workload(items: count) {
            defer { seed.next += 1 }
            let result = Explorer(adapter, ExploreConfiguration(seed: seed.next, limit: .cases(count))).run()
            findings += result.findings.map(\.key)
            return result.cases
        }
        var explorePlan = plan
        explorePlan.repetitions = max(3, plan.repetitions / 2)
        let r = Timer.measure(workload, plan: explorePlan)
        if !findings.isEmpty {
            report.notes.append("explore through the adapter found \(Set(findings).sorted().joined(separator: "; "))")
        }
        report.figures.append(
            Figure(
                id: "explore.adapter", section: section, label: "through the adapter, \(count) cases a batch",
                unit: "cases/s", itemsPerSecond: Stats(r), bytesPerItem: nil, repetitions: r.count))
    }
}
