import Foundation
import Testing

/// The three wrong adapters of Examples/wrong-adapters, each the reference with one bug planted (`SPEC.md` §7.9,
/// §7.12, and an encoder that drops `includeEntireCategory`), are caught: by the vectors (`stc conformance`) and
/// by `stc explore`, each with its own failure and nothing else.
@Suite struct WrongAdapterTests {
    struct Planted: Sendable, CustomTestStringConvertible {
        /// The program in Examples/wrong-adapters.
        var script: String
        /// The operation `stc explore` must find it with.
        var op: String
        /// The start of the finding key (`SPEC.md` §5.5) that names the bug.
        var finding: String
        /// The cases of Examples/wrong-adapters/vectors.json that it fails: exactly these.
        var failingCases: Set<String>

        var adapter: String { "python3 \(PackagePaths.path("Examples/wrong-adapters/\(script)"))" }
        var testDescription: String { script }
    }

    static let planted: [Planted] = [
        Planted(
            script: "loses-include-entire-category.py", op: "selection.encode",
            finding: "selection.encode: output differs in canonical",
            failingCases: [
                "wrong-adapters/encode-keeps-include-entire-category-base64-json",
                "wrong-adapters/encode-keeps-include-entire-category-json",
            ]),
        Planted(
            script: "empty-string-encoder.py", op: "selection.encode",
            finding: "selection.encode: expected error ",
            failingCases: ["wrong-adapters/encode-of-an-empty-stored-string-is-empty"]),
        Planted(
            script: "wipes-document.py", op: "selection.decode",
            finding: "selection.decode: output differs in selections",
            failingCases: ["wrong-adapters/one-bad-selection-keeps-the-others"]),
    ]

    static let vectors = PackagePaths.path("Examples/wrong-adapters/vectors.json")

    @Test func theReferencePassesTheWrongAdaptersVectors() throws {
        let run = try StcBinary.run(["conformance", "--vectors", Self.vectors, "--quiet"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test(arguments: planted) func theVectorsCatchIt(_ wrong: Planted) throws {
        let run = try StcBinary.run([
            "conformance", "--vectors", Self.vectors, "--no-reference", "--adapter", wrong.adapter,
            "--name", wrong.script,
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        // Its own bug and nothing else: it is the reference otherwise, so the other bugs' cases pass.
        let failed = Set(
            run.stdout.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count >= 2, words[0] == "FAIL" else { return nil }
                return String(words[1])
            })
        #expect(failed == wrong.failingCases, "\(run.stdout)")
    }

    /// PENDING: `stc explore` does not generate `selection.encode` cases, nor `selection.decode` cases with a
    /// `format`, in this branch (`--ops selection.encode` is a usage error, and wipes-document.py explores clean
    /// over 3000 cases). The generators are being added on another branch; this test turns itself on when
    /// `stc explore --help` lists `selection.encode`, and from then on it must find all three.
    @Test(
        .enabled(if: exploreGeneratesEncodeCases, "stc explore has no selection.encode / format generators yet"),
        arguments: planted)
    func exploreCatchesIt(_ wrong: Planted) throws {
        let run = try StcBinary.run([
            "explore", "--adapter", wrong.adapter, "--ops", wrong.op, "--cases", "3000", "--seed", "1", "--quiet",
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("FINDING 1  \(wrong.finding)"), "\(run.stdout)")
    }

    /// Whether this `stc explore` knows `selection.encode` (the sign that the format generators have landed).
    static let exploreGeneratesEncodeCases: Bool = {
        guard let help = try? StcBinary.run(["explore", "--help"]) else { return false }
        return help.stdout.contains("selection.encode")
    }()
}
