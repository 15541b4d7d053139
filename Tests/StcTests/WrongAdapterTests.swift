import Foundation
import Testing

/// The wrong adapters of Examples/wrong-adapters, each the reference with one bug planted (`SPEC.md` §7.9, §7.12,
/// an encoder that drops `includeEntireCategory`, the scheduling bugs §7.13–§7.19 and the settings bugs
/// §7.20–§7.22), are caught: by the shipped
/// vectors (`stc conformance`), which fail only in the bug's suites and in every case tagged with its class, and by
/// `stc explore`.
@Suite struct WrongAdapterTests {
    struct Planted: Sendable, CustomTestStringConvertible {
        /// The program in Examples/wrong-adapters.
        var script: String
        /// The operation `stc explore` must find it with.
        var op: String
        /// The start of a finding key (`SPEC.md` §5.5) that names the bug.
        var finding: String
        /// What the ids of the only cases it may fail start with (a suite, `activity-` for both activity suites).
        var suite: String
        /// A tag every case of which it must fail (its field-bug class), if it has one.
        var tag: String?

        /// The program's arguments before the reference command (the bug number of activity-field-bugs.py).
        var arguments = ""

        var adapter: String {
            "python3 \(PackagePaths.path("Examples/wrong-adapters/\(script)"))"
                + (arguments.isEmpty ? "" : " " + arguments)
        }
        var testDescription: String { arguments.isEmpty ? script : "\(script) \(arguments)" }
    }

    static let planted: [Planted] =
        [
            Planted(
                script: "loses-include-entire-category.py", op: "selection.encode",
                finding: "selection.encode: output differs in canonical", suite: "selection-encode/", tag: nil),
            Planted(
                script: "empty-string-encoder.py", op: "selection.encode", finding: "selection.encode: expected error ",
                suite: "selection-encode/", tag: "field-bug-12"),
            Planted(
                script: "wipes-document.py", op: "selection.decode",
                finding: "selection.decode: output differs in selections",
                suite: "selection-document/", tag: "field-bug-9"),
        ] + activity + settings

    /// activity-field-bugs.py N, one per scheduling field bug (`SPEC.md` §7.13–§7.19).
    static let activity: [Planted] = [
        (13, "activity.schedule", "activity.schedule: expected output, got error intervalTooShort"),
        (14, "activity.schedule", "activity.schedule: expected output, got error intervalTooShort"),
        (15, "activity.schedule", "activity.schedule: output differs in end, seconds"),
        (16, "activity.monitor", "activity.monitor: output differs in callbacks"),
        (17, "activity.monitor", "activity.monitor: output differs in "),
        (18, "activity.monitor", "activity.monitor: output differs in errors"),
        (19, "activity.monitor", "activity.monitor: output differs in activities"),
    ].map { bug, op, finding in
        Planted(
            script: "activity-field-bugs.py", op: op, finding: finding, suite: "activity-", tag: "field-bug-\(bug)",
            arguments: "\(bug)")
    }

    /// settings-field-bugs.py N, one per settings field bug (`SPEC.md` §7.20–§7.22).
    static let settings: [Planted] = [
        (20, "settings.evaluate: output differs in stores, value"),
        (21, "settings.evaluate: expected error limitExceeded"),
        (22, "settings.evaluate: output differs in verdict"),
    ].map { bug, finding in
        Planted(
            script: "settings-field-bugs.py", op: "settings.evaluate", finding: finding, suite: "settings-evaluate/",
            tag: "field-bug-\(bug)", arguments: "\(bug)")
    }

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
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("wrong-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try StcBinary.run([
            "conformance", "--no-reference", "--adapter", wrong.adapter, "--name", "wrong", "--json", report.path,
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        // Every case that did not pass, from the JSON report (the text report lists only the first problems).
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let implementation = (json?["implementations"] as? [[String: Any]])?.first
        let failed = Set(
            (implementation?["results"] as? [[String: Any]] ?? []).compactMap { result -> String? in
                result["status"] as? String == "pass" ? nil : result["id"] as? String
            })
        #expect(!failed.isEmpty)
        // Its own bug and nothing else: it is the reference otherwise, so the other suites pass.
        #expect(failed.allSatisfy { $0.hasPrefix(wrong.suite) }, "\(failed.sorted())")
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
        #expect(
            run.stdout.split(separator: "\n").contains { $0.contains("  FINDING ") && $0.contains(wrong.finding) },
            "\(run.stdout)")
    }
}
