// The checked-in fuzz corpus (SPEC §6), as `stc fuzz` and the tests see it:
//
//   <root>/<target>/               seed inputs (any names; `stc fuzz merge --write` names new ones by content hash)
//   <root>/<target>/regressions/   every input that once failed, named by FNV-1a 64 content hash, never overwritten
//   <root>/<target>.dict           the libFuzzer dictionary
//   <root>/CAMPAIGN.json           the ledger of `stc fuzz campaign` (FuzzCampaign.swift), when one has run
//
// Writing goes through PropertyTesting's RegressionStore, so fuzz regressions and property-test regressions
// share one naming scheme and one atomic, never-overwrite write.

import Foundation
import PropertyTesting

public struct FuzzCorpus: Sendable, Equatable {
    public let root: String

    public init(root: String) {
        self.root = root
    }

    public func seedDirectory(_ target: String) -> String {
        (root as NSString).appendingPathComponent(RegressionStore.directoryName(for: target))
    }

    public func regressionDirectory(_ target: String) -> String {
        RegressionStore(root: root).directory(for: target)
    }

    public func dictionary(_ target: String) -> String {
        (root as NSString).appendingPathComponent(RegressionStore.directoryName(for: target) + ".dict")
    }

    /// `path`, a file of the corpus, as a record that outlives the checkout names it: from the directory holding
    /// the corpus (`corpus/url/regressions/0123abcd…`), so that a committed ledger names it on every clone. A path
    /// outside the corpus stays as it is.
    ///
    /// ```swift
    /// FuzzCorpus(root: "/src/repo/corpus").recordedName("/src/repo/corpus/url/regressions/0a1b")  // corpus/url/regressions/0a1b
    /// ```
    public func recordedName(_ path: String) -> String {
        let parent = (root as NSString).deletingLastPathComponent
        guard path.hasPrefix(root + "/"), !parent.isEmpty else { return path }
        return String(path.dropFirst(parent.count + (parent == "/" ? 0 : 1)))
    }

    /// The path of a file that ``recordedName(_:)`` named (an absolute name is kept).
    public func path(recordedAs name: String) -> String {
        name.hasPrefix("/")
            ? name : ((root as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// The regular, non-hidden files directly in `directory`, sorted by name; none when it does not exist.
    public static func files(in directory: String) -> [String] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var result: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { result.append(path) }
        }
        return result
    }

    public func seeds(_ target: String) -> [String] { Self.files(in: seedDirectory(target)) }
    public func regressions(_ target: String) -> [String] { Self.files(in: regressionDirectory(target)) }

    /// Saves `bytes` as a regression of `target` (`<root>/<target>/regressions/<hash>`); `isNew` is false when the
    /// same content was already there.
    @discardableResult
    public func addRegression(_ bytes: [UInt8], target: String) throws -> (path: String, isNew: Bool) {
        try RegressionStore.saveNamedByContent(bytes, inDirectory: regressionDirectory(target))
    }

    /// Saves `bytes` as a seed of `target` (`<root>/<target>/<hash>`), never overwriting.
    @discardableResult
    public func addSeed(_ bytes: [UInt8], target: String) throws -> (path: String, isNew: Bool) {
        try RegressionStore.saveNamedByContent(bytes, inDirectory: seedDirectory(target))
    }

    /// The content-hash name a file with `bytes` gets.
    public static func contentName(_ bytes: [UInt8]) -> String { FNV1a64.hex(bytes) }

    // MARK: Replay

    /// What one input did when run through a harness body.
    public struct Outcome: Sendable {
        public var path: String
        /// `nil` when the invariants held.
        public var failure: HarnessFailure?
    }

    /// Runs `target`'s body on each file, in order. `willRun` is called before each (so that a caller can say
    /// which input was running should a body trap). An unreadable file is a failure.
    ///
    /// - Parameters:
    ///   - asFuzzer: run what libFuzzer runs (``FuzzTarget/runAsFuzzer(_:)``: for the structured targets one
    ///     property per input, not all of them) instead of ``FuzzTarget/body``.
    ///   - repetitions: run each input this many times (at least once), for profilers; an input stops at its
    ///     first failing run.
    public static func replay(
        _ target: FuzzTarget, files: [String], asFuzzer: Bool = false, repetitions: Int = 1,
        willRun: (String) -> Void = { _ in }
    ) -> [Outcome] {
        files.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                return Outcome(path: path, failure: HarnessFailure("cannot read the file"))
            }
            willRun(path)
            let bytes = [UInt8](data)
            var failure: HarnessFailure?
            for _ in 0..<max(1, repetitions) where failure == nil {
                failure = asFuzzer ? bytes.withUnsafeBufferPointer { target.runAsFuzzer($0) } : target.body(bytes)
            }
            return Outcome(path: path, failure: failure)
        }
    }
}
