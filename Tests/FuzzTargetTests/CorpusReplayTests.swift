import Foundation
import ScreenTimeProperties
import Testing
import _FuzzCorpus
import _TestSupport

/// Replays every seed and every regression of every fuzz target through its harness body (no libFuzzer needed):
/// an input that once failed stays a failing test until the bug is fixed.
@Suite struct CorpusReplayTests {
    static let corpus = PackagePaths.corpus

    /// Every file of `corpus/<target>/` and `corpus/<target>/regressions/`, sorted by path.
    static func files(of target: String) -> [URL] {
        let fm = FileManager.default
        var result: [URL] = []
        for directory in [
            corpus.appendingPathComponent(target),
            corpus.appendingPathComponent(target).appendingPathComponent("regressions"),
        ] {
            guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let url = directory.appendingPathComponent(name)
                if fm.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    result.append(url)
                }
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func replaysTheCorpus(target: String) throws {
        let harness = try #require(FuzzTargets.named(target))
        let files = Self.files(of: target)
        #expect(!files.isEmpty, "corpus/\(target)/ has no seeds")
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            if let failure = harness.body(bytes) {
                Issue.record(
                    "\(target): \(file.lastPathComponent): \(failure)\n  replay: stc fuzz replay \(target) \(file.path)"
                )
            } else if let fuzzBody = harness.fuzzBody, let failure = fuzzBody(bytes) {
                // What libFuzzer runs must check a subset of the replay body, or a saved crash would not replay.
                Issue.record("\(target): \(file.lastPathComponent): fuzzBody fails where body passes: \(failure)")
            }
        }
    }

    @Test func everyTargetHasADictionaryAndSeeds() {
        for target in FuzzTargets.all {
            #expect(
                FileManager.default.fileExists(atPath: Self.corpus.appendingPathComponent("\(target.name).dict").path),
                "\(target.name).dict")
            #expect(Self.files(of: target.name).count >= 5, "\(target.name) seeds")
        }
    }
}
