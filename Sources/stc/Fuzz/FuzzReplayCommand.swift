import Foundation
import _CommandSupport
import _FuzzCorpus

/// `stc fuzz replay`: runs the harness bodies on the corpus or on files, in this process or with the binaries.
enum FuzzReplayCommand {
    static let help = HelpPage(
        "stc fuzz replay",
        usage: ["[TARGET] [FILE|DIR…] [--binary [--no-build] | [--as-fuzzer] [--repeat N]] [--quiet]"],
        description: """
            Runs harness bodies on inputs, in this process (no libFuzzer, so it works anywhere `swift build` does):
              no arguments   every target over corpus/<target>/ and corpus/<target>/regressions/
              TARGET         that target's seeds and regressions
              TARGET FILE…   those files (a directory stands for its files)
              FILE…          files under corpus/<target>/ or corpus/<target>/regressions/: the target is the
                             directory's
            Prints the counts per target and every failing input with its invariant. A body that traps ends the
            process; the input it was running is printed first.
            """,
        options: [
            .init(
                "--binary",
                """
                replay with the libFuzzer binaries instead (`BINARY -runs=0 DIRS` or `BINARY FILES`,
                SWIFT_BACKTRACE=enable=no), building them first unless --no-build and they exist
                """),
            .init(
                "--as-fuzzer",
                """
                run what libFuzzer runs on each input (for shield and auth: one property, chosen by a hash of the
                bytes) instead of every check of the body
                """),
            .init(
                "--repeat N",
                """
                run each input N times (default 1). With --as-fuzzer, a workload for a profiler, without
                sanitizers or libFuzzer; run twice (N and 2N) and subtract to leave out start-up (see the
                examples)
                """),
            .init("--quiet", "print failures and the final line only"),
        ] + FuzzCommand.commonHelp,
        exitCodes: [.init("0", "every input passed"), .init("1", "an input failed"), .init("2", "usage or I/O error")],
        examples: """
            stc fuzz replay
            stc fuzz replay json corpus/json/regressions
            valgrind --tool=callgrind .build/release/stc fuzz replay auth DIR --as-fuzzer --repeat 20
            """)

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [
            .value("--repeat", "N"), .flag("--binary"), .flag("--no-build"), .flag("--quiet"), .flag("--as-fuzzer"),
        ],
        positionals: .any)

    static let command = Command(
        "replay", summary: "run the harness bodies on the corpus or on files, in-process (no libFuzzer)",
        syntax: syntax, help: help, run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let ws = FuzzCommand.workspace(a)
        let quiet = a.flag("--quiet")
        let asFuzzer = a.flag("--as-fuzzer")
        let repetitions = try a.int("--repeat", default: 1, min: 1)
        if a.flag("--binary") && (asFuzzer || a.value("--repeat") != nil) {
            throw UsageError(
                "--as-fuzzer and --repeat run the bodies in this process; --binary runs the libFuzzer binaries")
        }
        // (target, files or nil for the target's corpus)
        var plan: [(FuzzTarget, [String]?)] = []
        if let first = a.positionals.first, let target = FuzzTargets.named(first) {
            let files = try a.positionals.dropFirst().flatMap(expand)
            plan = [(target, a.positionals.count > 1 ? files : nil)]
        } else if a.positionals.isEmpty {
            plan = FuzzTargets.all.map { ($0, nil) }
        } else {
            var byTarget: [String: [String]] = [:]
            for path in try a.positionals.flatMap(expand) {
                guard let name = inferTarget(path), FuzzTargets.named(name) != nil else {
                    // A first argument that is no file is an unknown target: exit 2 with the list.
                    let first = a.positionals[0]
                    if !FileManager.default.fileExists(atPath: first) { _ = try FuzzCommand.target(first) }
                    throw UsageError(
                        "cannot tell the target of \(path): name it first (stc fuzz replay TARGET FILE…)")
                }
                byTarget[name, default: []].append(path)
            }
            plan = FuzzTargets.all.compactMap { t in byTarget[t.name].map { (t, $0) } }
        }
        if a.flag("--binary") { return try replayWithBinaries(ws, plan, noBuild: a.flag("--no-build"), quiet: quiet) }

        var total = 0
        var failed = 0
        for (target, given) in plan {
            let seeds = given == nil ? ws.corpus.seeds(target.name) : []
            let regressions = given == nil ? ws.corpus.regressions(target.name) : []
            let files = given ?? (seeds + regressions)
            let outcomes = FuzzCorpus.replay(target, files: files, asFuzzer: asFuzzer, repetitions: repetitions) {
                path in
                CrashNote.set("\nstc fuzz replay: \(target.name) trapped on \(path)\n")
            }
            let failures = outcomes.filter { $0.failure != nil }
            total += outcomes.count
            failed += failures.count
            if !quiet || !failures.isEmpty {
                let counts =
                    given == nil ? "\(seeds.count) seeds, \(regressions.count) regressions" : "\(files.count) files"
                let verdict = failures.isEmpty ? "ok" : "\(failures.count) FAILED"
                Console.out("\(target.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(counts): \(verdict)")
            }
            for outcome in failures {
                Console.out(
                    "  FAIL \(Shell.displayPath(outcome.path)): \(outcome.failure.map(String.init(describing:)) ?? "")")
            }
        }
        CrashNote.set("")
        var how: [String] = []
        if repetitions > 1 { how.append("\(repetitions) times each") }
        if asFuzzer { how.append("as libFuzzer runs them") }
        let inputs = "\(total) inputs" + (how.isEmpty ? "" : " (\(how.joined(separator: ", ")))")
        Console.out(failed == 0 ? "replayed \(inputs): all passed" : "replayed \(inputs): \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    static func expand(_ path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if FuzzTargets.named(path) == nil, !path.contains("/") {
                throw UsageError(
                    "no such file '\(path)', and no such target. Targets:\n"
                        + FuzzTargets.all.map { "  \($0.name)" }.joined(separator: "\n"))
            }
            throw UsageError("no such file '\(path)'")
        }
        return isDirectory.boolValue ? FuzzCorpus.files(in: path) : [path]
    }

    /// `…/<target>/FILE` or `…/<target>/regressions/FILE`.
    static func inferTarget(_ path: String) -> String? {
        let parts = FuzzWorkspace.absolute(path, in: FileManager.default.currentDirectoryPath).split(separator: "/")
            .map(String.init)
        guard parts.count >= 2 else { return nil }
        let parent = parts[parts.count - 2]
        if parent == "regressions", parts.count >= 3 { return parts[parts.count - 3] }
        return parent
    }

    static func replayWithBinaries(
        _ ws: FuzzWorkspace, _ plan: [(FuzzTarget, [String]?)], noBuild: Bool, quiet: Bool
    ) throws -> Int32 {
        let names = plan.map(\.0.name)
        try FuzzBuild.ensure(ws, targets: names, skip: noBuild, allTargets: names.count > 1)
        var failed = 0
        for (target, given) in plan {
            let binary = try ws.binary(target.name)
            _ = try FuzzBuild.checkInstrumented(binary)
            let artifacts = try ws.scratch("fuzz-artifacts", target.name)
            var inputs = given ?? []
            if given == nil {
                inputs = [ws.corpus.seedDirectory(target.name), ws.corpus.regressionDirectory(target.name)].filter {
                    FileManager.default.fileExists(atPath: $0)
                }
            }
            let args = ["-runs=0", "-artifact_prefix=\(artifacts)/"] + inputs
            if !quiet {
                Console.error(
                    "$ SWIFT_BACKTRACE=enable=no "
                        + ([Shell.displayPath(binary)] + args.map(Shell.displayPath)).map(Shell.quote).joined(
                            separator: " "))
            }
            let output = try FuzzProcess.run(
                binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: artifacts)
            let ok = output.status == 0 && !output.crashedBySignal
            if !ok { failed += 1 }
            if !quiet || !ok {
                let count = output.text.split(separator: "\n").first {
                    $0.contains("INFO: seed corpus: files:") || $0.contains("Running: ")
                }
                let verdict = ok ? "ok" : "FAILED (exit \(output.status))"
                Console.out(
                    "\(target.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(verdict)"
                        + (count.map { "  [\($0)]" } ?? ""))
            }
            if !ok {
                // The lines that say what happened, not the stack trace.
                let lines = output.text.split(separator: "\n")
                let telling = lines.filter {
                    $0.contains("Fatal error") || $0.contains("invariant failed") || $0.contains("ERROR: ")
                        || $0.contains("Running: ")
                }
                for line in (telling.isEmpty ? Array(lines.suffix(15)) : telling) { Console.out("  | \(line)") }
                for line in lines {
                    guard let r = line.range(of: "Test unit written to ") else { continue }
                    FuzzCommand.reportArtifact(
                        line[r.upperBound...].trimmingCharacters(in: .whitespaces), target: target.name, workspace: ws)
                }
            }
        }
        Console.out(
            failed == 0
                ? "binary replay: all \(plan.count) targets passed"
                : "binary replay: \(failed) of \(plan.count) targets failed")
        return failed == 0 ? 0 : 1
    }
}
