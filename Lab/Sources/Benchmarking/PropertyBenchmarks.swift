/// One property to time: `run(n)` checks `n` generated cases and returns how many it checked.
///
/// The property catalog lives in ReferenceProperties, which this module does not depend on: `lab bench` passes
/// the properties to time from `BenchCommand.propertyBenchmarks` (Sources/stc/BenchCommand.swift). With none
/// given, the section reports "skipped", never a made-up figure.
public struct PropertyBenchmark: Sendable {
    public var name: String
    public var run: @Sendable (Int) -> Int

    public init(name: String, run: @escaping @Sendable (Int) -> Int) {
        self.name = name
        self.run = run
    }
}

extension BenchSuite {
    func propertySection(into report: inout BenchReport) {
        let section = "property cases/s"
        guard !properties.isEmpty else {
            report.skips.append(Skip(section: section, reason: "no properties given (BenchCommand.propertyBenchmarks)"))
            return
        }
        for property in properties where selected("property." + property.name) {
            let n = 100
            let workload = Workload(items: n) { property.run(n) }
            let r = Timer.measure(workload, plan: plan)
            report.figures.append(
                Figure(
                    id: "property.\(property.name)", section: section, label: property.name,
                    unit: "cases/s", itemsPerSecond: Stats(r), bytesPerItem: nil, repetitions: r.count))
        }
    }
}
