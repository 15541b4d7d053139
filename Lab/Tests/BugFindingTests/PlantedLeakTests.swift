import Foundation
import Testing
import _FuzzCorpus
import _TestSupport

@testable import BugFinding

/// A leak of ours (``PlantedBuilds/buildLeakingFuzzer(log:)``: the `json` fuzzer of a copy of the package leaks 17
/// bytes on an input starting with `LEAK`) is found where users fuzz: LeakSanitizer reports it with the fuzz
/// binaries' one suppression in them, and a campaign, which fuzzes with the throughput ASan options, saves it once
/// under a key of our frames. With `malloc_context_size=0` among those options, LeakSanitizer kept quiet about
/// every leak, and no campaign could have found one.
@Suite(.serialized) struct PlantedLeakTests {
    @Test func aLeakOfOursIsFoundByACampaignAndSavedOnceUnderOurFrames() throws {
        let builds = PlantedBuildTests.builds
        try PlantedBuildTests.built.get()
        try builds.buildLeakingFuzzer { print($0) }
        let directory = TemporaryDirectory.make("lab-leak")
        defer { TemporaryDirectory.remove(directory) }
        let leaking = Array((PlantedBuilds.leakTrigger + "[1]").utf8)

        // The plant, run alone with ASan's defaults: the leaking input is reported at exit, another is clean.
        let input = directory.appendingPathComponent("leaking")
        try Data(leaking).write(to: input)
        let clean = directory.appendingPathComponent("clean")
        try Data("[1]".utf8).write(to: clean)
        let alone = try TimedProcess.run(
            builds.leakingFuzzer, [input.path], environment: ["SWIFT_BACKTRACE": "enable=no"], limit: 120)
        #expect(alone.status != 0 && alone.output.contains("ERROR: LeakSanitizer: detected memory leaks"))
        #expect(alone.output.contains("17 byte(s) leaked in 1 allocation(s)"), "\(alone.tail(30))")
        let quiet = try TimedProcess.run(
            builds.leakingFuzzer, [clean.path], environment: ["SWIFT_BACKTRACE": "enable=no"], limit: 120)
        #expect(quiet.status == 0 && !quiet.signaled, "\(quiet.tail())")

        // A campaign over a corpus holding the leaking input, fuzzing with its throughput ASan options.
        let package = try PlantedCampaignTests.workspace(fuzzers: ["json": builds.leakingFuzzer], in: directory)
        let corpus = try PlantedCampaignTests.corpus(targets: ["json"], in: directory)
        try Data(leaking).write(to: corpus.appendingPathComponent("json/leaking"))
        let outcome = try TimedProcess.run(
            builds.stc,
            [
                "fuzz", "campaign", "json", "--budget", "4s", "--slice", "2s", "--no-build", "--package",
                package.path, "--corpus", corpus.path,
            ],
            environment: ["SWIFT_BACKTRACE": "enable=no"], limit: 600)
        #expect(outcome.status == 1 && !outcome.signaled, "\(outcome.tail(40))")
        let ledger = try CampaignLedger.load(corpus.appendingPathComponent("CAMPAIGN.json").path)
        let json = try #require(ledger.targets["json"])
        #expect(json.crashes.count == 1, "\(json.crashes.map(\.stack))")
        let leak = try #require(json.crashes.first)
        // Keyed by our frames: the shim's entry point first, not the allocator, the runtime or the standard library.
        #expect(leak.stack.hasPrefix("leak: $s4json12fuzzOneInput"), "\(leak.stack)")
        let file = FuzzCorpus(root: corpus.path).path(recordedAs: leak.file)
        #expect(FileManager.default.contents(atPath: file).map { [UInt8]($0) } == leaking, "\(leak.file)")
        // Every slice meets it in the corpus at once: the target is suspended for it, not fuzzed on and on.
        #expect(json.suspended?.contains(leak.stack) == true, "\(json.suspended ?? "not suspended")")
    }
}
