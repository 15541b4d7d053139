import Foundation
import Testing
import _FuzzCorpus
import _TestSupport

@testable import BugFinding

/// `stc fuzz campaign` end to end with real libFuzzer binaries and a real crash: the planted build's `template`
/// target with `template.format-specifier-trap` on (a force unwrap in the reference that traps), beside the clean
/// `url` target, with two jobs a slice as a campaign on two cores runs. What the product's own tests check with a stand-in runner (FuzzCampaignTests) must hold for what
/// libFuzzer really writes: the crash found in each of the target's slices is one stack, so it is saved once as a
/// regression that reproduces the bug, the target is suspended, and the other target still gets its budget.
@Suite(.serialized) struct PlantedCampaignTests {
    static let bug = "template.format-specifier-trap"

    /// A package for `stc fuzz campaign --package`: the Fuzz shims' directories (the command checks that a target
    /// has one) and the fuzzers (target → binary) where `stc fuzz build` puts them, as links.
    static func workspace(fuzzers: [String: String], in directory: URL) throws -> URL {
        let fm = FileManager.default
        let package = directory.appendingPathComponent("package")
        let fuzz = package.appendingPathComponent("Fuzz")
        let release = fuzz.appendingPathComponent(".build/release")
        try fm.createDirectory(at: release, withIntermediateDirectories: true)
        try Data().write(to: fuzz.appendingPathComponent("Package.swift"))
        for (target, binary) in fuzzers {
            try fm.createDirectory(
                at: fuzz.appendingPathComponent("Sources/\(target)"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: release.appendingPathComponent(target).path, withDestinationPath: binary)
        }
        return package
    }

    /// The product's seeds and dictionaries of `targets`, copied: the campaign merges into its corpus.
    static func corpus(targets: [String], in directory: URL) throws -> URL {
        let fm = FileManager.default
        let corpus = directory.appendingPathComponent("corpus")
        try fm.createDirectory(at: corpus, withIntermediateDirectories: true)
        for target in targets {
            try fm.copyItem(
                at: PackagePaths.corpus.appendingPathComponent(target), to: corpus.appendingPathComponent(target))
            let dictionary = PackagePaths.corpus.appendingPathComponent(target + ".dict")
            if fm.fileExists(atPath: dictionary.path) {
                try fm.copyItem(at: dictionary, to: corpus.appendingPathComponent(target + ".dict"))
            }
        }
        return corpus
    }

    @Test func aPlantedCrashIsSavedOnceAsARegressionAndTheCampaignGoesOnWithTheOtherTarget() throws {
        let builds = PlantedBuildTests.builds
        try PlantedBuildTests.built.get()
        try builds.buildFuzzers(["template", "url"]) { print($0) }
        let directory = TemporaryDirectory.make("lab-campaign")
        defer { TemporaryDirectory.remove(directory) }
        let package = try Self.workspace(
            fuzzers: ["template": builds.fuzzer("template"), "url": builds.fuzzer("url")], in: directory)
        let corpus = try Self.corpus(targets: ["template", "url"], in: directory)
        let store = FuzzCorpus(root: corpus.path)
        let regressionsBefore = Set(FuzzCorpus.files(in: store.regressionDirectory("template")))

        let outcome = try TimedProcess.run(
            builds.stc,
            [
                "fuzz", "campaign", "template", "url", "--budget", "6s", "--per-target", "--slice", "3s",
                "--jobs", "2", "--no-build", "--package", package.path, "--corpus", corpus.path,
            ],
            environment: ["SWIFT_BACKTRACE": "enable=no", "STC_PLANTED_BUG": Self.bug], limit: 600)
        // Exit 1: the campaign found a new crash, and said so after going through the whole budget.
        #expect(outcome.status == 1 && !outcome.signaled, "\(outcome.tail(40))")

        let ledger = try CampaignLedger.load(corpus.appendingPathComponent("CAMPAIGN.json").path)
        let template = try #require(ledger.targets["template"])
        // Every slice of the target crashed (each of its two jobs may have), and all of them are one stack: one
        // crash, counted as often as it showed.
        #expect(template.slices.count == FuzzCampaign.suspendAfter, "\(template.slices.map(\.crashes))")
        #expect(template.slices.allSatisfy { !$0.crashes.isEmpty }, "\(template.slices.map(\.crashes))")
        #expect(template.crashes.count == 1, "\(template.crashes.map(\.stack))")
        let crash = try #require(template.crashes.first)
        #expect(crash.occurrences == template.slices.reduce(0) { $0 + $1.crashes.count } && crash.slice == 1)
        #expect(crash.stack.hasPrefix("crash: ") && !crash.stack.contains("no stack"), "\(crash.stack)")
        #expect(template.suspended?.contains(crash.stack) == true, "\(template.suspended ?? "not suspended")")
        #expect(outcome.output.contains("suspended"), "\(outcome.tail(40))")

        // Saved once, named by its content, in the target's regressions, where swift test and the replays read it.
        let saved = Set(FuzzCorpus.files(in: store.regressionDirectory("template"))).subtracting(regressionsBefore)
        // The ledger names it from the corpus's directory, so that a committed ledger names it on every clone.
        #expect(crash.file.hasPrefix("corpus/template/regressions/"), "\(crash.file)")
        let file = store.path(recordedAs: crash.file)
        #expect(saved == [file], "new regressions \(saved.sorted()), the ledger's \(crash.file)")
        let input = try #require(FileManager.default.contents(atPath: file))
        #expect((file as NSString).lastPathComponent == FuzzCorpus.contentName([UInt8](input)))
        // It reproduces the planted bug, and only the bug: with the plant off, the same input runs clean.
        let replay = { (bug: String) in
            try TimedProcess.run(
                builds.fuzzer("template"), [file],
                environment: ["SWIFT_BACKTRACE": "enable=no", "STC_PLANTED_BUG": bug], limit: 120)
        }
        let withBug = try replay(Self.bug)
        #expect(withBug.status != 0 || withBug.signaled, "\(withBug.tail())")
        let withoutBug = try replay("")
        #expect(withoutBug.status == 0 && !withoutBug.signaled, "\(withoutBug.tail())")

        // The campaign went on: the clean target had at least its whole budget, and crashed nowhere.
        let url = try #require(ledger.targets["url"])
        #expect(url.crashes.isEmpty && url.suspended == nil)
        #expect(url.cpuSeconds >= ledger.budgetPerTarget, "url had \(url.cpuSeconds) CPU s")
        #expect(url.executions > 0 && url.slices.allSatisfy { $0.covEnd != nil })
    }
}
