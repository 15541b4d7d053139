import Foundation
import Testing

/// The three wrong adapters of Examples/wrong-adapters, each the reference with one bug planted (`SPEC.md` §7.9,
/// §7.12, and an encoder that drops `includeEntireCategory`), are caught: by the shipped vectors (`stc
/// conformance`), which fail only in the bug's suite and in every case tagged with its class, and by `stc explore`.
@Suite struct WrongAdapterTests {
    struct Planted: Sendable, CustomTestStringConvertible {
        /// The program in Examples/wrong-adapters.
        var script: String
        /// The operation `stc explore` must find it with.
        var op: String
        /// The start of the finding key (`SPEC.md` §5.5) that names the bug.
        var finding: String
        /// The only suite whose cases it may fail.
        var suite: String
        /// A tag every case of which it must fail (its field-bug class), if it has one.
        var tag: String?

        var adapter: String { "python3 \(PackagePaths.path("Examples/wrong-adapters/\(script)"))" }
        var testDescription: String { script }
    }

    static let planted: [Planted] = [
        Planted(
            script: "loses-include-entire-category.py", op: "selection.encode",
            finding: "selection.encode: output differs in canonical", suite: "selection-encode", tag: nil),
        Planted(
            script: "empty-string-encoder.py", op: "selection.encode", finding: "selection.encode: expected error ",
            suite: "selection-encode", tag: "field-bug-12"),
        Planted(
            script: "wipes-document.py", op: "selection.decode",
            finding: "selection.decode: output differs in selections",
            suite: "selection-document", tag: "field-bug-9"),
    ]

    /// The ids of the shipped cases tagged `tag`.
    static func tagged(_ tag: String) throws -> Set<String> {
        let directory = PackagePaths.root.appendingPathComponent("corpus/conformance")
        var ids: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
            let suite = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name)))
            for c in (suite as? [String: Any])?["cases"] as? [[String: Any]] ?? []
            where (c["tags"] as? [String] ?? []).contains(tag) {
                if let id = c["id"] as? String { ids.insert(id) }
            }
        }
        return ids
    }

    @Test(arguments: planted) func theVectorsCatchIt(_ wrong: Planted) throws {
        let run = try StcBinary.run(["conformance", "--no-reference", "--adapter", wrong.adapter, "--name", "wrong"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let failed = Set(
            run.stdout.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count >= 2, words[0] == "FAIL" else { return nil }
                return String(words[1])
            })
        #expect(!failed.isEmpty)
        // Its own bug and nothing else: it is the reference otherwise, so the other suites pass.
        #expect(failed.allSatisfy { $0.hasPrefix(wrong.suite + "/") }, "\(failed.sorted())")
        if let tag = wrong.tag {
            let own = try Self.tagged(tag)
            #expect(!own.isEmpty && own.isSubset(of: failed), "\(own.subtracting(failed).sorted())")
        }
    }

    /// `stc explore` finds it within 3000 cases of seed 1, under the key that names its bug.
    @Test(arguments: planted)
    func exploreCatchesIt(_ wrong: Planted) throws {
        let run = try StcBinary.run([
            "explore", "--adapter", wrong.adapter, "--ops", wrong.op, "--cases", "3000", "--seed", "1", "--quiet",
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("FINDING 1  \(wrong.finding)"), "\(run.stdout)")
    }
}
