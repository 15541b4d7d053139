import Foundation
import Testing

/// `lab bench` as a smoke test: it runs, and its JSON has the documented shape. No timing assertions: the
/// machine is shared, and a debug build is slow anyway.
@Suite struct BenchCommandTests {
    @Test func quickJSONRunHasTheRatios() throws {
        // The fuzz section would run fuzzers for seconds when they are built; the rest is what CI smoke-tests.
        let run = try LabBinary.run([
            "bench", "--quick", "--json", "--filter", "selection.synthetic13",
            "--filter", "selection.memcpy", "--filter", "url", "--filter", "template",
            "--filter", "runner.inProcess",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let ratios = try #require(object["ratios"] as? [String: Any])
        for key in ["selectionDecodeVsFoundation", "urlEncodeVsFoundation", "decodeVsMemcpy"] {
            let value = try #require(ratios[key] as? Double, "missing ratio \(key)")
            #expect(value > 0 && value.isFinite, "\(key) = \(value)")
        }
        let figures = try #require(object["figures"] as? [String: Any])
        #expect(figures["runner.inProcess"] != nil)
        #expect(figures["template.render"] != nil)
        let targets = try #require(object["targets"] as? [[String: Any]])
        #expect(targets.contains { $0["id"] as? String == "selectionDecodeVsFoundation" })
        let notes = object["notes"] as? [String] ?? []
        #expect(notes.isEmpty, "ours and Foundation must agree byte for byte: \(notes)")
    }

    @Test func textReportNamesSectionsAndTargets() throws {
        let run = try LabBinary.run(["bench", "--quick", "--filter", "url.ascii"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("== URL component encoding =="))
        #expect(run.stdout.contains("ours / Foundation"))
        #expect(run.stdout.contains("URL encoding vs addingPercentEncoding"))
    }

    @Test func aFilterNamingOneFigureRunsItsSection() throws {
        // The property and fuzz sections run only when a filter can select one of their figures; a filter with
        // the full figure id must select it too, not only the section name.
        let run = try LabBinary.run(["bench", "--quick", "--filter", "property.url.round-trip"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("url.round-trip") && run.stdout.contains("cases/s"), "\(run.stdout)")
        #expect(!run.stdout.contains("template.no-leak"))
        #expect(!run.stderr.contains("no figure id contains"), "\(run.stderr)")
    }

    @Test func shrinkingFiguresSayHowManyRunsWereMinimal() throws {
        // Two cheap challenges over the quick run's 5 seeds; the figures' values depend on the shrinker, so only
        // their shape and their consistency are checked here (the thresholds are ShrinkingChallengeTests').
        let run = try LabBinary.run([
            "bench", "--quick", "--json", "--filter", "shrink.reverse", "--filter", "shrink.lengthlist",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("no figure id contains"), "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let shrinking = try #require(object["shrinking"] as? [String: Any])
        #expect(Set(shrinking.keys) == ["shrink.reverse", "shrink.lengthlist"], "\(shrinking.keys)")
        for (id, value) in shrinking {
            let figure = try #require(value as? [String: Any], "\(id)")
            let seeds = try #require(figure["seeds"] as? Int)
            let found = try #require(figure["found"] as? Int)
            let minimal = try #require(figure["minimal"] as? Int)
            #expect(seeds == 5 && found <= seeds && minimal <= found, "\(id): \(figure)")
            let fraction = try #require(figure["fractionMinimal"] as? Double)
            #expect(abs(fraction - Double(minimal) / Double(seeds)) < 1e-9, "\(id): \(figure)")
            #expect((figure["medianEvaluations"] as? Double ?? -1) >= 0, "\(id): \(figure)")
            #expect((figure["medianShrinkMilliseconds"] as? Double ?? -1) >= 0, "\(id): \(figure)")
        }
        let text = try LabBinary.run(["bench", "--quick", "--filter", "shrink.reverse"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("== shrinking challenge"), "\(text.stdout)")
        #expect(text.stdout.contains("reverse") && text.stdout.contains("/5 minimal"), "\(text.stdout)")
    }

    @Test func aFilterThatMatchesNothingIsReported() throws {
        let run = try LabBinary.run(["bench", "--quick", "--filter", "no-such-figure"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("no figure id contains 'no-such-figure'"), "\(run.stderr)")
    }

    @Test func fuzzFiguresAreMinMedianMaxOfTheMeasuredRuns() throws {
        // A package root (found from the current directory) with one stand-in "fuzzer": a script that prints
        // libFuzzer's final stats, a different exec/s on each call. The first call is the warm-up and must not
        // count; the three after it make the figure.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stc-bench-standin-\(UInt64.random(in: 0 ... .max))")
        defer { try? FileManager.default.removeItem(at: root) }
        for directory in ["Sources/stc", "Fuzz/Sources/standin", "Fuzz/.build/release", "corpus/standin"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try Data("// stand-in\n".utf8).write(to: root.appendingPathComponent("Package.swift"))
        try Data("seed".utf8).write(to: root.appendingPathComponent("corpus/standin/seed"))
        let fuzzer = root.appendingPathComponent("Fuzz/.build/release/standin")
        try Data(
            """
            #!/bin/sh
            echo x >> '\(root.path)/calls'
            case $(wc -l < '\(root.path)/calls') in
              1) rate=999999 ;; 2) rate=61000 ;; 3) rate=40000 ;; *) rate=52000 ;;
            esac
            printf 'stat::number_of_executed_units: 1000\nstat::average_exec_per_sec:     %s\n' $rate >&2

            """.utf8
        ).write(to: fuzzer)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fuzzer.path)

        let run = try LabBinary.run(["bench", "--quick", "--json", "--filter", "fuzz"], currentDirectory: root)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let calls = try String(contentsOf: root.appendingPathComponent("calls"), encoding: .utf8)
        #expect(calls.split(separator: "\n").count == 4, "a warm-up run and three measured runs")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let figure = try #require(
            (object["figures"] as? [String: Any])?["fuzz.standin"] as? [String: Any], "\(run.stdout)")
        let perSecond = try #require(figure["perSecond"] as? [String: Double])
        #expect(perSecond == ["min": 40000, "median": 52000, "max": 61000])
        #expect(figure["repetitions"] as? Int == 3)
        // Fuzz exec/s are figures only: no target is judged on them.
        let targets = try #require(object["targets"] as? [[String: Any]])
        #expect(!targets.contains { ($0["id"] as? String)?.hasPrefix("fuzz.") == true }, "\(targets)")
    }

    @Test func rejectsUnknownArguments() throws {
        let run = try LabBinary.run(["bench", "--frobnicate"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown option '--frobnicate'"))
    }
}
