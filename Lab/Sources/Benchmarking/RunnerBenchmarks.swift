import Conformance
import Foundation
import ScreenTimeReference
import StrictJSON
import _Subprocess

/// Synthetic conformance cases over several operations, with the reference's own answers as expectations
/// (so every case passes and the runner does its full judging work).
public enum SyntheticCases {
    public static func suite(count: Int) -> Suite {
        let selections = (0..<8).map { SyntheticSelections.stored(tokensPerKind: 1 + $0 % 3, seed: UInt64(100 + $0)) }
        let names = EncodingInputs.asciiNames + EncodingInputs.nonASCIINames
        let templates = [
            "{applicationName|This app} is blocked until {time}.", "Ask {parentName|a parent}. {{oops}",
            "日本語 {name|名前} {missing}", "plain text without placeholders",
        ]
        var cases: [ConformanceCase] = []
        cases.reserveCapacity(count)
        for i in 0..<count {
            let op: String
            let input: JSONValue
            switch i % 10 {
            case 0:
                op = "selection.decode"
                input = ["base64": .string(selections[i / 10 % selections.count])]
            case 1:
                op = "selection.decode"
                input = ["base64": .string(["", "!!!!", "e30=", "AAAA"][i / 10 % 4])]  // error cases
            case 2:
                op = "selection.equal"
                input = [
                    "a": .string(selections[i % selections.count]),
                    "b": .string(selections[(i / 10) % selections.count]),
                ]
            case 3, 4:
                op = "url.encode"
                input = ["text": .string(names[i % names.count])]
            case 5:
                op = "url.decode"
                input = ["encoded": .string(PercentEncoding.encodeComponent(names[i / 10 % names.count]))]
            case 6:
                op = "url.decode"
                input = ["encoded": .string(["%", "%C3%28", "a b", "ok%20fine"][i / 10 % 4])]
            case 7:
                op = "template.render"
                input = [
                    "template": .string(templates[i / 10 % templates.count]),
                    "values": ["applicationName": "Mail", "time": "17:00", "name": nil],
                ]
            default:
                op = "shield.evaluate"
                let token = ["app:mail", "app:game", "app:maps"][i % 3]
                input = [
                    "stores": [
                        [
                            "applications": ["app:mail"],
                            "applicationCategories": ["policy": "specific", "categories": ["cat:games"]],
                        ],
                        ["webDomains": ["web:news"]],
                    ],
                    "activity": [
                        "kind": "application", "token": .string(token),
                        "category": i % 2 == 0 ? "cat:games" : "cat:mail",
                    ],
                ]
            }
            let expect: Expectation
            switch OperationTable.perform(op, input: input) {
            case .output(let output): expect = .output(output.objectValue ?? [:])
            case .error(let code): expect = .error(code)
            case .unsupported: expect = .error("unsupported")
            }
            cases.append(ConformanceCase(id: "bench-\(i)", suite: "bench", op: op, input: input, expect: expect))
        }
        return Suite(name: "bench", description: "synthetic cases for lab bench", cases: cases)
    }
}

extension BenchSuite {
    /// The conformance runner over synthetic cases: in process, and through `lab adapter`.
    func runnerSection(into report: inout BenchReport) {
        let section = "conformance runner (synthetic cases: selection, url, template, shield)"
        guard ["runner.inProcess", "runner.alone", "runner.adapter"].contains(where: selected) else { return }
        let count = plan.repetitions <= 3 ? 1000 : 4000
        let runner = ConformanceRunner(suites: [SyntheticCases.suite(count: count)])

        if selected("runner.inProcess") {
            let implementation = InProcessImplementation()
            let check = runner.run(implementation)
            if !check.ok { report.notes.append("runner in process: not every synthetic case passed") }
            let workload = Workload(items: count) { runner.run(implementation).results.count }
            let r = Timer.measure(workload, plan: plan)
            report.figures.append(
                Figure(
                    id: "runner.inProcess", section: section, label: "in process, \(count) cases",
                    unit: "cases/s", itemsPerSecond: Stats(r), bytesPerItem: nil, repetitions: r.count))
        }

        if selected("runner.alone") {
            // The runner's own share: the same cases answered from a precomputed list (no operation runs), so
            // what is left is dispatch, judging and result building.
            let outcomes = runner.cases.map { OperationTable.perform($0.op, input: $0.input) }
            final class Cursor: @unchecked Sendable { var next = 0 }
            let cursor = Cursor()
            let replay = InProcessImplementation(name: "replay", summary: "precomputed answers") { _, _ in
                defer { cursor.next = (cursor.next + 1) % outcomes.count }
                return outcomes[cursor.next]
            }
            let workload = Workload(items: count) { runner.run(replay).results.count }
            let r = Timer.measure(workload, plan: plan)
            report.figures.append(
                Figure(
                    id: "runner.alone", section: section, label: "runner alone (precomputed answers)",
                    unit: "cases/s", itemsPerSecond: Stats(r), bytesPerItem: nil, repetitions: r.count))
        }

        guard selected("runner.adapter") else { return }
        guard let executable = adapterExecutable else {
            report.skips.append(
                Skip(section: section, reason: "through the adapter: cannot find the executable serving it"))
            return
        }
        let adapter = AdapterProcess(
            name: "lab adapter", command: Command.shellQuoted(executable) + " adapter", timeout: 30)
        let check = runner.run(adapter)
        guard check.ok else {
            report.skips.append(
                Skip(
                    section: section,
                    reason:
                        "through the adapter: the adapter did not pass the synthetic cases (\(check.diagnostics.notes.first ?? "failures"))"
                ))
            return
        }
        // One batch is one adapter process answering every case; its start-up counts.
        var adapterPlan = plan
        adapterPlan.repetitions = max(3, plan.repetitions / 2)
        let workload = Workload(items: count) { runner.run(adapter).results.count }
        let r = Timer.measure(workload, plan: adapterPlan)
        report.figures.append(
            Figure(
                id: "runner.adapter", section: section, label: "through the adapter, \(count) cases",
                unit: "cases/s", itemsPerSecond: Stats(r), bytesPerItem: nil, repetitions: r.count))
    }
}
