import Foundation
import Testing

/// `stc bench` as a smoke test: it runs, and its JSON has the documented shape. No timing assertions: the
/// machine is shared, and a debug build is slow anyway.
@Suite struct BenchCommandTests {
    @Test func quickJSONRunHasTheRatios() throws {
        // The fuzz section would run fuzzers for seconds when they are built; the rest is what CI smoke-tests.
        let run = try StcBinary.run(["bench", "--quick", "--json", "--filter", "selection.synthetic13",
                                     "--filter", "selection.memcpy", "--filter", "url", "--filter", "template",
                                     "--filter", "runner.inProcess"])
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
        let run = try StcBinary.run(["bench", "--quick", "--filter", "url.ascii"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("== URL component encoding =="))
        #expect(run.stdout.contains("ours / Foundation"))
        #expect(run.stdout.contains("URL encoding vs addingPercentEncoding"))
    }

    @Test func aFilterNamingOneFigureRunsItsSection() throws {
        // The property and fuzz sections run only when a filter can select one of their figures; a filter with
        // the full figure id must select it too, not only the section name.
        let run = try StcBinary.run(["bench", "--quick", "--filter", "property.url.round-trip"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("url.round-trip") && run.stdout.contains("cases/s"), "\(run.stdout)")
        #expect(!run.stdout.contains("template.no-leak"))
        #expect(!run.stderr.contains("no figure id contains"), "\(run.stderr)")
    }

    @Test func aFilterThatMatchesNothingIsReported() throws {
        let run = try StcBinary.run(["bench", "--quick", "--filter", "no-such-figure"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("no figure id contains 'no-such-figure'"), "\(run.stderr)")
    }

    @Test func rejectsUnknownArguments() throws {
        let run = try StcBinary.run(["bench", "--frobnicate"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown argument"))
    }
}
