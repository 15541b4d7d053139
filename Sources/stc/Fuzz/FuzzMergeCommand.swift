import Foundation
import PropertyTesting
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stc fuzz merge`: keeps the inputs fuzzing found that reach code edges the seeds do not.
enum FuzzMergeCommand {
    static let help = HelpPage(
        "stc fuzz merge", usage: ["TARGET [--write] [--no-build]"],
        description: """
            Runs libFuzzer's set-cover merge (-set_cover_merge=1 -use_counters=0; -merge=1 with a libFuzzer that lacks
            it) over what `stc fuzz run` collected in .build/fuzz-corpus/TARGET, on top of the checked-in seeds and
            regressions, and reports the inputs that reach code edges the seeds do not: a small set that together
            reaches all of them (set cover takes the inputs that add the most first, where -merge=1 keeps each in turn
            that adds one), hit counts ignored, so that the checked-in seeds stay few.
            """,
        options: [
            .init("--write", "add those inputs to corpus/TARGET/ named by content hash (never overwriting)"),
            .init("--no-build", "use the existing binary if there is one"),
        ] + FuzzCommand.commonHelp,
        exitCodes: [.init("0", "done"), .init("2", "usage, build or I/O error")])

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [.flag("--write"), .flag("--no-build")],
        positionals: .exactly(1, "give one TARGET"))

    static let command = Command(
        "merge", summary: "minimize what fuzzing found and report (--write: add) new seeds", syntax: syntax, help: help,
        run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let target = try FuzzCommand.target(a.positionals[0])
        let ws = FuzzCommand.workspace(a)
        let scratch = try ws.scratch("fuzz-corpus", target.name)
        let found = FuzzCorpus.files(in: scratch)
        guard !found.isEmpty else {
            Console.out(
                "nothing to merge: \(Shell.displayPath(scratch)) is empty (run `stc fuzz run \(target.name)` first)")
            return 0
        }
        try FuzzBuild.ensure(ws, targets: [target.name], skip: a.flag("--no-build"))
        let binary = try ws.binary(target.name)
        _ = try FuzzBuild.checkInstrumented(binary)
        let (new, known, edges) = try newInputs(target.name, workspace: ws, binary: binary) { Console.error($0) }
        let size = new.reduce(0) { $0 + $1.count }
        Console.out(
            "merge \(target.name): \(found.count) found inputs; \(new.count) add coverage to the \(known) seeds "
                + "and regressions (\(size) bytes\(edges.map { ", \($0)" } ?? ""))")
        if a.flag("--write") {
            var added = 0
            for bytes in new where try ws.corpus.addSeed(bytes, target: target.name).isNew { added += 1 }
            Console.out("added \(added) seeds to \(Shell.displayPath(ws.corpus.seedDirectory(target.name)))")
        } else if !new.isEmpty {
            Console.out("add them with: stc fuzz merge \(target.name) --write")
        }
        return 0
    }

    /// The inputs of the scratch corpus that reach code edges the seeds and regressions do not: libFuzzer's
    /// set-cover merge over a copy of those, hit counts ignored (`stc fuzz campaign` keeps them after each slice).
    ///
    /// - Parameters:
    ///   - target: The fuzz target.
    ///   - ws: Where its corpus and scratch corpus are.
    ///   - binary: Its built libFuzzer binary.
    ///   - log: Told the command and libFuzzer's MERGE-OUTER lines.
    /// - Returns: The new inputs, how many seeds and regressions there were, and libFuzzer's count of new edges.
    /// - Throws: When the merge fails.
    static func newInputs(
        _ target: String, workspace ws: FuzzWorkspace, binary: String, log: (String) -> Void
    ) throws -> (new: [[UInt8]], known: Int, edges: String?) {
        let scratch = try ws.scratch("fuzz-corpus", target)
        // The base: a copy of the seeds and regressions; whatever libFuzzer adds to it is new coverage.
        let fm = FileManager.default
        let base = try ws.scratch("fuzz-merge", target) + "/base-\(getpid())"
        try? fm.removeItem(atPath: base)
        try fm.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: base) }
        var known = Set<String>()
        for file in ws.corpus.seeds(target) + ws.corpus.regressions(target) {
            guard let data = fm.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            if known.insert(FuzzCorpus.contentName(bytes)).inserted {
                _ = try RegressionStore.saveNamedByContent(bytes, inDirectory: base)
            }
        }
        let control = base + ".control"
        defer { try? fm.removeItem(atPath: control) }
        // -use_counters=0: an input is kept for a new edge, not for a new hit count, so the seeds stay few.
        let merge = try FuzzProcess.accepts(binary, flag: "set_cover_merge") ? "-set_cover_merge=1" : "-merge=1"
        let args = [merge, "-use_counters=0", "-merge_control_file=\(control)", base, scratch]
        log(
            "$ SWIFT_BACKTRACE=enable=no "
                + ([Shell.displayPath(binary)] + args.map(Shell.displayPath)).map(Shell.quote).joined(separator: " "))
        var edges: String?
        let output = try FuzzProcess.run(
            binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: scratch
        ) { line in
            if line.hasPrefix("MERGE-OUTER:") { log("  " + line) }
            if let r = line.range(of: "; "), line.hasSuffix("new coverage edges") {
                edges = String(line[r.upperBound...])
            }
        }
        guard output.status == 0 else {
            throw CommandFailure(
                "libFuzzer \(merge) failed (exit \(output.status)):\n"
                    + output.text.split(separator: "\n").suffix(15).joined(separator: "\n"))
        }
        var new: [[UInt8]] = []
        for file in FuzzCorpus.files(in: base) {
            guard let data = fm.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            if !known.contains(FuzzCorpus.contentName(bytes)) { new.append(bytes) }
        }
        return (new, known.count, edges)
    }
}
