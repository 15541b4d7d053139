import Benchmarking
import Foundation
import PropertyTesting
import ScreenTimeProperties
import StrictJSON
import _CommandSupport
import _FuzzCorpus

/// `lab bench`: throughput of the hot paths, against Foundation where there is a Foundation way.
enum BenchCommand {
    static let help = HelpPage(
        "lab bench", usage: ["[--json] [--quick] [--filter NAME]... [--iterations N]"],
        description: """
            Measures the hot paths and prints each figure as median [min … max] over repeated timed batches:
            selection decode + canonicalize (ours, through FamilyActivitySelection and direct, vs Foundation; device
            captures from ../shared when present, synthetic selections with 1, 13 and 50 tokens per kind; the target
            is held on the direct path), a plain byte copy of the same input (the limit),
            URL component encoding (ours vs addingPercentEncoding), shield template rendering (64 KiB), the
            conformance runner in process and through `lab adapter`, property cases/s, the public shrinking
            challenge (runs that reach the documented minimum over 50 seeds; median property evaluations and time
            while shrinking) and fuzz exec/s (three short runs per target, when the fuzzers are built in
            Fuzz/.build/release). Comparisons run in alternating batches of the same run, so their ratios hold on a
            loaded machine; absolute figures do not. Ends with PASS/BELOW lines for the targets.

            Build in release mode first: swift run -c release --package-path Lab lab bench
            """,
        options: [
            .init("--json", "print one JSON object (figures, ratios, targets, skipped sections)"),
            .init("--quick", "a few short batches and 5 shrinking seeds: a smoke test for CI, not a measurement"),
            .init(
                "--filter NAME",
                """
                only figures whose id contains NAME (selection, url, template, runner, shrink, fuzz, …); may be
                repeated. `--filter bugs` (or bugs.<family>, bugs.<name>) runs the bug-finding benchmark instead:
                each planted field bug built into the reference, found or not by the vectors, stc check, the fuzz
                targets, the explorer and a naive harness (docs/BUG-FINDING.md), and with plain `bugs` the
                mutation score too (lab mutate --sample 250; --quick with --quick); an hour or more in full,
                minutes with --quick; never part of a plain lab bench
                """),
            .init(
                "--iterations N",
                """
                one batch of exactly N calls per figure (N shrinking seeds), no clock calibration: for profiling
                with valgrind --tool=callgrind (instruction counts that do not depend on the load)
                """),
        ],
        exitCodes: [
            .init("0", "measured (whether or not targets are met)"),
            .init(
                "1",
                """
                bugs: a control run failed with no bug planted, an attempt could not run, or (--quick) a bug was
                not found by the vectors and another hammer or the quick mutation run failed
                """),
            .init("2", "usage error"),
        ])

    /// Property cases/s: a few properties of each family, run through the engine with a fixed seed, no regressions
    /// and no shrinking (a failure would show up in `stc check`, not here).
    static let propertyBenchmarks: [PropertyBenchmark] = [
        "selection.canonical-fixed-point", "selection.equality-under-permutation", "shield.matches-model",
        "auth.voiding", "lifecycle.matches-model", "url.round-trip", "template.no-leak",
    ].compactMap { name in
        guard let property = ReferenceProperties.catalog.property(named: name) else { return nil }
        return PropertyBenchmark(name: name) { n in
            property.check(
                RunConfiguration(seed: 1, iterations: n, regressions: nil, saveFailures: false, shrink: false)
            ).casesRun
        }
    }

    /// The fuzz section runs each fuzzer as `stc fuzz run` would: its `-max_len`, its dictionary, the same ASan
    /// options.
    static let fuzzSettings = FuzzRunSettings(
        flags: { name, root in
            // Every shim has a target (a test checks); one without would run with libFuzzer's own defaults.
            FuzzTargets.named(name).map {
                FuzzDefaults.flags(maxLen: $0.maxLength, dictionary: "\(root)/corpus/\(name).dict")
            } ?? []
        },
        environment: [
            "ASAN_OPTIONS": FuzzDefaults.throughputASanOptions(ProcessInfo.processInfo.environment["ASAN_OPTIONS"])
        ])

    static let command = Command(
        "bench", summary: "measure the hot paths against Foundation and the performance targets",
        syntax: CommandSyntax(options: [
            .flag("--json"), .flag("--quick"), .value("--filter", "NAME", repeats: true), .value("--iterations", "N"),
        ]),
        help: help, run: main)

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let json = arguments.flag("--json")
        let filters = arguments.values("--filter")
        var iterations: Int?
        if let text = arguments.value("--iterations") {
            guard let n = Int(text), n > 0 else { throw UsageError("--iterations needs a positive number") }
            iterations = n
        }
        if BenchBugsCommand.selected(filters) {
            return try BenchBugsCommand.main(filters: filters, json: json, quick: arguments.flag("--quick"))
        }
        #if DEBUG
            let build = "debug"
            Console.error(
                "warning: this is a debug build; figures mean little. Use: swift run -c release --package-path Lab lab bench"
            )
        #else
            let build = "release"
        #endif
        let executable = BenchSuite.runningExecutable()
        var plan: TimingPlan = arguments.flag("--quick") ? .quick : .standard
        if let iterations { plan = TimingPlan(batchSeconds: 0, repetitions: 1, fixedCalls: iterations) }
        let suite = BenchSuite(
            plan: plan, filters: filters,
            packageRoot: BenchSuite.locatePackageRoot(executable: executable), adapterExecutable: executable,
            properties: propertyBenchmarks, fuzzSettings: fuzzSettings,
            shrinkSeeds: iterations ?? (arguments.flag("--quick") ? 5 : 50))
        let showProgress = !json && Console.stderrIsTerminal
        let report = suite.run(build: build) { section in
            if showProgress { Console.error("measuring \(section) …") }
        }
        for filter in filters where !report.ids.contains(where: { $0.localizedCaseInsensitiveContains(filter) }) {
            Console.error(
                "warning: no figure id contains '\(filter)' (ids look like selection.synthetic13, url.ascii, "
                    + "runner.inProcess, property.url.round-trip, shrink.bound5, fuzz.url)")
        }
        if json {
            Console.out(JSONWriter.string(report.json, options: .init(pretty: true)))
        } else {
            var text = report.text
            if build == "debug" {
                text = "warning: debug build; run `swift run -c release --package-path Lab lab bench`\n" + text
            }
            Console.out(text)
        }
        return 0
    }
}
