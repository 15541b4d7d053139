import Foundation
import _FuzzCorpus
import PropertyTesting
import ScreenTimeProperties

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func ignoreInterrupt(_: Int32) {}

/// `stc fuzz`: the libFuzzer workflow (SPEC §6) — list the targets, fuzz one, replay the corpus, turn a crash
/// into a regression file, merge what fuzzing found into the seeds.
enum FuzzCommand {
    static let subcommands = [
        Command("list", summary: "the fuzz targets: name, tab, summary", syntax: listSyntax, help: listHelp, run: list),
        Command(
            "build", summary: "build the libFuzzer binaries (all by default) and check they are instrumented",
            syntax: buildSyntax, help: buildHelp, run: build),
        Command(
            "modules", summary: "the root package's modules and what a fuzz build gives each", syntax: modulesSyntax,
            help: modulesHelp, run: modules),
        Command(
            "run", summary: "build a target's libFuzzer binary and fuzz (new inputs go to .build/fuzz-corpus/)",
            syntax: runSyntax, help: runHelp, run: run),
        Command(
            "replay", summary: "run the harness bodies on the corpus or on files, in-process (no libFuzzer)",
            syntax: replaySyntax, help: replayHelp, run: replay),
        Command(
            "add", summary: "save an input as corpus/TARGET/regressions/<content hash> (--minimize first)",
            syntax: addSyntax, help: addHelp, run: add),
        Command(
            "merge", summary: "minimize what fuzzing found and report (--write: add) new seeds", syntax: mergeSyntax,
            help: mergeHelp, run: merge),
    ]

    static let help = """
        Usage: stc fuzz <subcommand> [options]      stc fuzz <subcommand> --help for details

        Subcommands:
        \(CommandTable.list(subcommands))

        Options of build, run, replay, add and merge (modules takes --package alone):
          --corpus DIR     the corpus root (default: $STC_CORPUS, else corpus/ of the repository)
          --package DIR    the repository holding Fuzz/Package.swift (default: found from the current directory)

        Exit codes: 0 success, 1 a failing input or a crash, 2 usage, build or I/O error.
        """

    static let command = Command(
        "fuzz", summary: "libFuzzer workflow: list, run, replay the corpus, add a regression, merge",
        syntax: CommandSyntax(positionals: .any), help: help, subcommands: subcommands
    ) { arguments in
        guard let subcommand = arguments.positionals.first else {
            Console.error(help)
            return 2
        }
        throw UsageError("unknown subcommand '\(subcommand)'")
    }

    /// The options of every subcommand that works on a corpus or builds.
    static let common: [Option] = [.value("--corpus", "DIR"), .value("--package", "DIR")]

    /// The workspace that `--corpus` and `--package` name (see ``FuzzWorkspace/resolve(corpus:package:)``).
    static func workspace(_ a: ScannedArguments) -> FuzzWorkspace {
        FuzzWorkspace.resolve(corpus: a.value("--corpus"), package: a.value("--package"))
    }

    static func target(_ name: String) throws -> FuzzTarget {
        guard let target = FuzzTargets.named(name) else {
            throw UsageError("unknown target '\(name)'. Targets:\n" + FuzzTargets.all.map { "  \($0.name)" }.joined(separator: "\n"))
        }
        return target
    }

    // MARK: list

    static let listHelp = """
        Usage: stc fuzz list

        Prints every fuzz target, one a line: its name, a tab, and what it checks.
        """

    static let listSyntax = CommandSyntax(positionals: .atMost(0, "list takes no arguments"))

    static func list(_: ScannedArguments) -> Int32 {
        for target in FuzzTargets.all { Console.out("\(target.name)\t\(target.summary)") }
        return 0
    }

    // MARK: build

    static let buildHelp = """
        Usage: stc fuzz build [TARGET…]

        Builds the libFuzzer binaries of the given targets (default: every target) as `stc fuzz run` does, printing
        the command, and checks that each binary is instrumented: it must report
        `INFO: Loaded 1 modules (N inline 8-bit counters)` with N > 0. Prints each target's counters.

        Options:
          --corpus DIR, --package DIR   as for every subcommand

        Exit codes: 0 built and instrumented, 2 usage or build error, or a binary without instrumentation.
        """

    static let buildSyntax = CommandSyntax(options: common, positionals: .any)

    static func build(_ a: ScannedArguments) throws -> Int32 {
        let targets = try (a.positionals.isEmpty ? FuzzTargets.all.map(\.name) : a.positionals).map { try target($0) }
        let ws = workspace(a)
        try FuzzBuild.ensure(ws, targets: targets.map(\.name), skip: false, allTargets: a.positionals.isEmpty)
        for target in targets {
            let counters = try FuzzBuild.checkInstrumented(try ws.binary(target.name))
            Console.out("\(target.name)\t\(counters) inline 8-bit counters")
        }
        return 0
    }

    // MARK: modules

    static let modulesHelp = """
        Usage: stc fuzz modules

        Prints each library module of the root package and what a fuzz build gives it, as the manifest says
        (`SCREENTIME_FUZZ_COVERAGE=1 swift package dump-package`): its name, a tab, `coverage` or `-` (libFuzzer's
        coverage instrumentation), a tab, `fake-frames` or `-` (ASan's stack-use-after-return check). The module
        table in Package.swift decides both; scripts/ci-fuzz.sh checks the built objects against this list.

        Options:
          --package DIR   the repository holding Fuzz/Package.swift (default: found from the current directory)

        Exit codes: 0 printed, 2 usage error or an unreadable manifest.
        """

    static let modulesSyntax = CommandSyntax(
        options: [.value("--package", "DIR")], positionals: .atMost(0, "modules takes no arguments"))

    static func modules(_ a: ScannedArguments) throws -> Int32 {
        guard let swift = FuzzProcess.which("swift") else { throw CommandFailure("`swift` is not on the PATH") }
        let package = try FuzzWorkspace.resolve(corpus: nil, package: a.value("--package")).requirePackage()
        let manifest = try FuzzManifest.read(root: package, swift: swift)
        for module in manifest.modules {
            Console.out("\(module.name)\t\(module.hasCoverage ? "coverage" : "-")\t\(module.keepsFakeStackFrames ? "fake-frames" : "-")")
        }
        return 0
    }

    // MARK: run

    static let runHelp = """
        Usage: stc fuzz run TARGET [--time S] [--jobs N] [--max-len N] [--no-build] [--verbose] [-- libFuzzer flags…]

        Builds the libFuzzer binaries (the command is printed:
          SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address
            -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0 --package-path Fuzz --product TARGET:
        ASan everywhere, its stack-use-after-return check only in the modules that hand out stack addresses,
        libFuzzer's coverage without comparison tracing on the reference's modules and the selection and
        differential harnesses only), checks that the binary is instrumented, and fuzzes TARGET
        with SWIFT_BACKTRACE=enable=no, ASAN_OPTIONS=malloc_context_size=0:quarantine_size_mb=16 (for speed;
        detection is the same, but heap reports have no allocation stacks: stc fuzz replay TARGET FILE --binary
        shows them; an option you set in ASAN_OPTIONS wins), the dictionary corpus/TARGET.dict, and the corpus
        dirs .build/fuzz-corpus/TARGET (scratch: new inputs go here, never into the checked-in seeds),
        corpus/TARGET and corpus/TARGET/regressions. Crashes, timeouts and OOMs are written to
        .build/fuzz-artifacts/TARGET/, and the command that turns one into a regression is printed.

        Options:
          --time S       stop after S seconds (libFuzzer -max_total_time; default 60; 0 = until stopped)
          --jobs N       N parallel fuzzing processes (libFuzzer -jobs=N -workers=N; logs in .build/fuzz-artifacts/TARGET/)
          --max-len N    the largest input (default per target: selection-decode 512, selection-differential 512,
                         selection-json 512, url 512, template 1024, others 1024)
          --no-build     use the existing binary if there is one
          --verbose      show every libFuzzer line (default: NEW/REDUCE lines at most once a second)
          --corpus DIR, --package DIR   as for every subcommand
          -- FLAGS…      passed to libFuzzer as they are, after ours (so they win), e.g. -- -only_ascii=1

        Exit codes: 0 no crash (also when stopped with Ctrl-C), 1 a crash, timeout or OOM was found, 2 usage or
        build error.
        """

    static let runSyntax = CommandSyntax(
        options: common + [
            .value("--time", "S"), .value("--jobs", "N"), .value("--max-len", "N"), .flag("--no-build"),
            .flag("--verbose"),
        ],
        positionals: .atMost(1, "give one TARGET"), passesThrough: true)

    static func run(_ a: ScannedArguments) throws -> Int32 {
        guard a.positionals.count == 1 else { throw UsageError("give one TARGET") }
        let target = try target(a.positionals[0])
        let ws = workspace(a)
        let time = try a.int("--time", default: 60)
        let jobs = try a.int("--jobs", default: 1, min: 1)
        let maxLen = try a.int("--max-len", default: target.maxLength, min: 1)

        try FuzzBuild.ensure(ws, targets: [target.name], skip: a.flag("--no-build"))
        let binary = try ws.binary(target.name)
        let counters = try FuzzBuild.checkInstrumented(binary)
        Console.error("instrumented: \(counters) inline 8-bit counters")

        let scratch = try ws.scratch("fuzz-corpus", target.name)
        let artifacts = try ws.scratch("fuzz-artifacts", target.name)
        let before = Set(FuzzCorpus.files(in: artifacts))
        var flags = FuzzDefaults.flags(maxLen: maxLen, dictionary: ws.corpus.dictionary(target.name))
            + ["-artifact_prefix=\(artifacts)/", "-print_final_stats=1"]
        if time > 0 { flags.append("-max_total_time=\(time)") }
        if jobs > 1 { flags += ["-jobs=\(jobs)", "-workers=\(jobs)"] }
        flags += a.passthrough
        var dirs = [scratch]
        for dir in [ws.corpus.seedDirectory(target.name), ws.corpus.regressionDirectory(target.name)] where FileManager.default.fileExists(atPath: dir) {
            dirs.append(dir)
        }
        let environment = FuzzProcess.fuzzerEnvironment(throughput: true)
        Console.error(
            "$ SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=\(shellQuote(environment["ASAN_OPTIONS"] ?? "")) "
                + ([displayPath(binary)] + flags + dirs.map(displayPath)).map(shellQuote).joined(separator: " "))
        var progress = FuzzProgress(verbose: a.flag("--verbose"))
        // Ctrl-C reaches libFuzzer too (same process group): it stops and prints its stats; stc stays to report.
        // A handler, not SIG_IGN, so that the child starts with the default disposition.
        signal(SIGINT, ignoreInterrupt)
        defer { signal(SIGINT, SIG_DFL) }
        let output = try FuzzProcess.run(
            binary, flags + dirs, environment: environment, currentDirectory: artifacts, keep: 1 << 16
        ) { progress.line($0) }
        progress.flush()
        if let summary = progress.jobsSummary { Console.error(summary) }

        var found = progress.artifacts.map { $0.hasPrefix("/") ? $0 : (artifacts as NSString).appendingPathComponent($0) }
        for file in FuzzCorpus.files(in: artifacts) where !before.contains(file) && !found.contains(file) {
            let name = (file as NSString).lastPathComponent
            if ["crash-", "timeout-", "oom-", "leak-"].contains(where: name.hasPrefix) { found.append(file) }
        }
        found = found.filter { FileManager.default.fileExists(atPath: $0) }
        if found.isEmpty && output.status == 72 && !output.crashedBySignal {  // libFuzzer's -interrupted_exitcode
            Console.out("fuzz \(target.name): interrupted; no crash. New inputs are in \(displayPath(scratch)).")
            return 0
        }
        if found.isEmpty && output.status == 0 && !output.crashedBySignal {
            Console.out("fuzz \(target.name): no crash. New inputs are in \(displayPath(scratch)) (stc fuzz merge \(target.name) to keep the useful ones).")
            return 0
        }
        if found.isEmpty {
            Console.out("fuzz \(target.name): libFuzzer exited with \(output.status) without writing an input; see the output above.")
            return 1
        }
        for artifact in found { reportArtifact(artifact, target: target.name, workspace: ws) }
        return 1
    }

    /// Says what was found and the one command that keeps it, or that it is a known regression already.
    static func reportArtifact(_ artifact: String, target: String, workspace ws: FuzzWorkspace) {
        let bytes = [UInt8](FileManager.default.contents(atPath: artifact) ?? Data())
        let name = FuzzCorpus.contentName(bytes)
        let known = FileManager.default.fileExists(atPath: (ws.corpus.regressionDirectory(target) as NSString).appendingPathComponent(name))
        Console.out("\(target): crashing input \(displayPath(artifact)) (\(bytes.count) bytes)")
        if known {
            Console.out("  it is already a regression (\(displayPath(ws.corpus.regressionDirectory(target)))/\(name)): fix the bug it shows.")
        } else {
            Console.out("  add it as a regression:\n    stc fuzz add \(target) \(shellQuote(displayPath(artifact))) --minimize")
        }
        Console.out("  the full ASan report, with allocation stacks:\n    stc fuzz replay \(target) \(shellQuote(displayPath(artifact))) --binary --no-build")
    }

    // MARK: replay

    static let replayHelp = """
        Usage: stc fuzz replay [TARGET] [FILE|DIR…] [--binary [--no-build] | [--as-fuzzer] [--repeat N]] [--quiet]

        Runs harness bodies on inputs, in this process (no libFuzzer, so it works anywhere `swift build` does):
          no arguments     every target over corpus/<target>/ and corpus/<target>/regressions/
          TARGET           that target's seeds and regressions
          TARGET FILE…     those files (a directory stands for its files)
          FILE…            files under corpus/<target>/ or corpus/<target>/regressions/: the target is the directory's
        Prints the counts per target and every failing input with its invariant. A body that traps ends the
        process; the input it was running is printed first.

        Options:
          --binary       replay with the libFuzzer binaries instead (`BINARY -runs=0 DIRS` or `BINARY FILES`,
                         SWIFT_BACKTRACE=enable=no), building them first unless --no-build and they exist
          --as-fuzzer    run what libFuzzer runs on each input (for shield and auth: one property, chosen by a
                         hash of the bytes) instead of every check of the body
          --repeat N     run each input N times (default 1). With --as-fuzzer, a workload for a profiler, without
                         sanitizers or libFuzzer; run twice (N and 2N) and subtract to leave out start-up:
                           valgrind --tool=callgrind .build/release/stc fuzz replay auth DIR --as-fuzzer --repeat 20
          --quiet        print failures and the final line only
          --corpus DIR, --package DIR   as for every subcommand

        Exit codes: 0 every input passed, 1 an input failed, 2 usage or I/O error.
        """

    static let replaySyntax = CommandSyntax(
        options: common + [
            .value("--repeat", "N"), .flag("--binary"), .flag("--no-build"), .flag("--quiet"), .flag("--as-fuzzer"),
        ],
        positionals: .any)

    static func replay(_ a: ScannedArguments) throws -> Int32 {
        let ws = workspace(a)
        let quiet = a.flag("--quiet")
        let asFuzzer = a.flag("--as-fuzzer")
        let repetitions = try a.int("--repeat", default: 1, min: 1)
        if a.flag("--binary") && (asFuzzer || a.value("--repeat") != nil) {
            throw UsageError("--as-fuzzer and --repeat run the bodies in this process; --binary runs the libFuzzer binaries")
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
                    let first = a.positionals[0]
                    if !FileManager.default.fileExists(atPath: first) { _ = try target(first) }  // unknown target: exit 2 with the list
                    throw UsageError("cannot tell the target of \(path): name it first (stc fuzz replay TARGET FILE…)")
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
            let outcomes = FuzzCorpus.replay(target, files: files, asFuzzer: asFuzzer, repetitions: repetitions) { path in
                CrashNote.set("\nstc fuzz replay: \(target.name) trapped on \(path)\n")
            }
            let failures = outcomes.filter { $0.failure != nil }
            total += outcomes.count
            failed += failures.count
            if !quiet || !failures.isEmpty {
                let counts = given == nil ? "\(seeds.count) seeds, \(regressions.count) regressions" : "\(files.count) files"
                Console.out("\(target.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(counts): \(failures.isEmpty ? "ok" : "\(failures.count) FAILED")")
            }
            for outcome in failures {
                Console.out("  FAIL \(displayPath(outcome.path)): \(outcome.failure.map(String.init(describing:)) ?? "")")
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
                throw UsageError("no such file '\(path)', and no such target. Targets:\n" + FuzzTargets.all.map { "  \($0.name)" }.joined(separator: "\n"))
            }
            throw UsageError("no such file '\(path)'")
        }
        return isDirectory.boolValue ? FuzzCorpus.files(in: path) : [path]
    }

    /// `…/<target>/FILE` or `…/<target>/regressions/FILE`.
    static func inferTarget(_ path: String) -> String? {
        let parts = FuzzWorkspace.absolute(path, in: FileManager.default.currentDirectoryPath).split(separator: "/").map(String.init)
        guard parts.count >= 2 else { return nil }
        let parent = parts[parts.count - 2]
        if parent == "regressions", parts.count >= 3 { return parts[parts.count - 3] }
        return parent
    }

    static func replayWithBinaries(_ ws: FuzzWorkspace, _ plan: [(FuzzTarget, [String]?)], noBuild: Bool, quiet: Bool) throws -> Int32 {
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
                Console.error("$ SWIFT_BACKTRACE=enable=no " + ([displayPath(binary)] + args.map(displayPath)).map(shellQuote).joined(separator: " "))
            }
            let output = try FuzzProcess.run(binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: artifacts)
            let ok = output.status == 0 && !output.crashedBySignal
            if !ok { failed += 1 }
            if !quiet || !ok {
                let count = output.text.split(separator: "\n").first { $0.contains("INFO: seed corpus: files:") || $0.contains("Running: ") }
                Console.out("\(target.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(ok ? "ok" : "FAILED (exit \(output.status))")\(count.map { "  [\($0)]" } ?? "")")
            }
            if !ok {
                // The lines that say what happened, not the stack trace.
                let lines = output.text.split(separator: "\n")
                let telling = lines.filter {
                    $0.contains("Fatal error") || $0.contains("invariant failed") || $0.contains("ERROR: ") || $0.contains("Running: ")
                }
                for line in (telling.isEmpty ? Array(lines.suffix(15)) : telling) { Console.out("  | \(line)") }
                for line in lines {
                    guard let r = line.range(of: "Test unit written to ") else { continue }
                    reportArtifact(line[r.upperBound...].trimmingCharacters(in: .whitespaces), target: target.name, workspace: ws)
                }
            }
        }
        Console.out(failed == 0 ? "binary replay: all \(plan.count) targets passed" : "binary replay: \(failed) of \(plan.count) targets failed")
        return failed == 0 ? 0 : 1
    }

    // MARK: add

    static let addHelp = """
        Usage: stc fuzz add TARGET FILE [--minimize [--runs N] [--no-build]] [--force]

        Copies FILE to corpus/TARGET/regressions/<content hash> (FNV-1a 64, the name property-test regressions
        use). An existing file is never overwritten: the same content is reported as already present (exit 0).
        Then runs the harness body on it and says whether it fails now ("swift test will fail until the bug is
        fixed") or passes (kept as a regression guard).

        Options:
          --minimize     first shrink FILE with the libFuzzer binary (-minimize_crash=1 -runs=N), keeping the smallest
                         input that still crashes. If FILE does not crash the binary, nothing is added unless --force.
          --runs N       libFuzzer -runs for each minimization round (default 20000)
          --no-build     use the existing binary if there is one
          --force        with --minimize: add FILE as it is even when it does not crash
          --corpus DIR, --package DIR   as for every subcommand

        Exit codes: 0 added or already present, 1 not added (does not crash, no --force), 2 usage, build or I/O error.
        """

    static let addSyntax = CommandSyntax(
        options: common + [.value("--runs", "N"), .flag("--minimize"), .flag("--no-build"), .flag("--force")],
        positionals: .atMost(2, "give TARGET and FILE"))

    static func add(_ a: ScannedArguments) throws -> Int32 {
        guard a.positionals.count == 2 else { throw UsageError("give TARGET and FILE") }
        let target = try target(a.positionals[0])
        let file = a.positionals[1]
        let ws = workspace(a)
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure("cannot read '\(file)'") }
        var bytes = [UInt8](data)

        if a.flag("--minimize") {
            try FuzzBuild.ensure(ws, targets: [target.name], skip: a.flag("--no-build"))
            let binary = try ws.binary(target.name)
            _ = try FuzzBuild.checkInstrumented(binary)
            let check = try FuzzProcess.run(binary, [FuzzWorkspace.absolute(file, in: FileManager.default.currentDirectoryPath)], environment: FuzzProcess.fuzzerEnvironment())
            if check.status == 0 && !check.crashedBySignal {
                if !a.flag("--force") {
                    Console.out("\(file) does not crash \(target.name): nothing added (add it as it is with --force).")
                    return 1
                }
                Console.out("\(file) does not crash \(target.name); adding it as it is (--force).")
            } else {
                let runs = try a.int("--runs", default: 20000, min: 1)
                if let smaller = try minimize(binary: binary, file: file, runs: runs, workspace: ws, target: target.name), smaller.count < bytes.count {
                    Console.out("minimized: \(bytes.count) → \(smaller.count) bytes")
                    bytes = smaller
                } else {
                    Console.out("minimized: no smaller crashing input found; keeping \(bytes.count) bytes")
                }
            }
        }

        let (path, isNew) = try ws.corpus.addRegression(bytes, target: target.name)
        Console.out(isNew ? "added \(displayPath(path))" : "already present: \(displayPath(path)) (same content)")
        // Ask a child `stc fuzz replay` so that a body that traps cannot take this process down.
        let status = try replayInChild(target: target.name, path: path, workspace: ws)
        if status.passed {
            Console.out("passes now (kept as a regression guard)")
        } else {
            Console.out("now fails: swift test will fail until the bug is fixed")
            for line in status.output.split(separator: "\n") where line.contains("FAIL") || line.contains("trapped") || line.contains("Fatal error") {
                Console.out("  \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return 0
    }

    /// libFuzzer's crash minimization; returns the smallest input that still crashes, or nil.
    static func minimize(binary: String, file: String, runs: Int, workspace ws: FuzzWorkspace, target: String) throws -> [UInt8]? {
        let dir = try ws.scratch("fuzz-minimize", target)
        let out = (dir as NSString).appendingPathComponent("minimized-\(getpid())")
        try? FileManager.default.removeItem(atPath: out)
        let args = ["-minimize_crash=1", "-runs=\(runs)", "-max_total_time=60", "-exact_artifact_path=\(out)", FuzzWorkspace.absolute(file, in: FileManager.default.currentDirectoryPath)]
        Console.error("$ SWIFT_BACKTRACE=enable=no " + ([displayPath(binary)] + args.map(displayPath)).map(shellQuote).joined(separator: " "))
        _ = try FuzzProcess.run(binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: dir) { line in
            // "CRASH_MIN: minimizing crash input: 'PATH' (N bytes)": one short line per round.
            if line.hasPrefix("CRASH_MIN: minimizing crash input"), let open = line.lastIndex(of: "(") {
                Console.error("  minimizing: \(line[line.index(after: open)...].dropLast()) still crash")
            }
        }
        defer { try? FileManager.default.removeItem(atPath: out) }
        guard let data = FileManager.default.contents(atPath: out) else { return nil }
        // Keep it only if it really crashes.
        let check = try FuzzProcess.run(binary, [out], environment: FuzzProcess.fuzzerEnvironment())
        return check.status != 0 || check.crashedBySignal ? [UInt8](data) : nil
    }

    static func replayInChild(target: String, path: String, workspace ws: FuzzWorkspace) throws -> (passed: Bool, output: String) {
        guard let me = Bundle.main.executablePath else {
            let failure = FuzzTargets.named(target)?.body([UInt8](FileManager.default.contents(atPath: path) ?? Data()))
            return (failure == nil, failure.map { "FAIL \($0)" } ?? "")
        }
        let output = try FuzzProcess.run(me, ["fuzz", "replay", target, path, "--corpus", ws.corpus.root])
        return (output.status == 0 && !output.crashedBySignal, output.text + (output.crashedBySignal ? "\ntrapped (signal \(output.status))" : ""))
    }

    // MARK: merge

    static let mergeHelp = """
        Usage: stc fuzz merge TARGET [--write] [--no-build]

        Runs libFuzzer -merge=1 -use_counters=0 over what `stc fuzz run` collected in .build/fuzz-corpus/TARGET,
        on top of the checked-in seeds and regressions, and reports how many inputs reach code edges the seeds do
        not (hit counts are ignored, so that the checked-in seeds stay few).

        Options:
          --write        add those inputs to corpus/TARGET/ named by content hash (never overwriting)
          --no-build     use the existing binary if there is one
          --corpus DIR, --package DIR   as for every subcommand

        Exit codes: 0 done, 2 usage, build or I/O error.
        """

    static let mergeSyntax = CommandSyntax(
        options: common + [.flag("--write"), .flag("--no-build")], positionals: .atMost(1, "give one TARGET"))

    static func merge(_ a: ScannedArguments) throws -> Int32 {
        guard a.positionals.count == 1 else { throw UsageError("give one TARGET") }
        let target = try target(a.positionals[0])
        let ws = workspace(a)
        let scratch = try ws.scratch("fuzz-corpus", target.name)
        let found = FuzzCorpus.files(in: scratch)
        guard !found.isEmpty else {
            Console.out("nothing to merge: \(displayPath(scratch)) is empty (run `stc fuzz run \(target.name)` first)")
            return 0
        }
        try FuzzBuild.ensure(ws, targets: [target.name], skip: a.flag("--no-build"))
        let binary = try ws.binary(target.name)
        _ = try FuzzBuild.checkInstrumented(binary)

        // The base: a copy of the seeds and regressions; whatever libFuzzer adds to it is new coverage.
        let fm = FileManager.default
        let base = try ws.scratch("fuzz-merge", target.name) + "/base-\(getpid())"
        try? fm.removeItem(atPath: base)
        try fm.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: base) }
        var known = Set<String>()
        for file in ws.corpus.seeds(target.name) + ws.corpus.regressions(target.name) {
            guard let data = fm.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            if known.insert(FuzzCorpus.contentName(bytes)).inserted {
                _ = try RegressionStore.saveNamedByContent(bytes, inDirectory: base)
            }
        }
        let control = base + ".control"
        defer { try? fm.removeItem(atPath: control) }
        // -use_counters=0: an input is kept for a new edge, not for a new hit count, so the seeds stay few.
        let args = ["-merge=1", "-use_counters=0", "-merge_control_file=\(control)", base, scratch]
        Console.error("$ SWIFT_BACKTRACE=enable=no " + ([displayPath(binary)] + args.map(displayPath)).map(shellQuote).joined(separator: " "))
        var edges: String?
        let output = try FuzzProcess.run(binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: scratch) { line in
            if line.hasPrefix("MERGE-OUTER:") { Console.error("  " + line) }
            if let r = line.range(of: "; "), line.hasSuffix("new coverage edges") { edges = String(line[r.upperBound...]) }
        }
        guard output.status == 0 else {
            throw CommandFailure("libFuzzer -merge=1 failed (exit \(output.status)):\n" + output.text.split(separator: "\n").suffix(15).joined(separator: "\n"))
        }
        var new: [[UInt8]] = []
        for file in FuzzCorpus.files(in: base) {
            guard let data = fm.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            if !known.contains(FuzzCorpus.contentName(bytes)) { new.append(bytes) }
        }
        let size = new.reduce(0) { $0 + $1.count }
        Console.out(
            "merge \(target.name): \(found.count) found inputs; \(new.count) add coverage to the \(known.count) seeds and regressions (\(size) bytes\(edges.map { ", \($0)" } ?? ""))")
        if a.flag("--write") {
            var added = 0
            for bytes in new where try ws.corpus.addSeed(bytes, target: target.name).isNew { added += 1 }
            Console.out("added \(added) seeds to \(displayPath(ws.corpus.seedDirectory(target.name)))")
        } else if !new.isEmpty {
            Console.out("add them with: stc fuzz merge \(target.name) --write")
        }
        return 0
    }
}

extension ScannedArguments {
    /// The option's value as a whole number ≥ `min`, or `value` when the option is absent.
    func int(_ name: String, default value: Int, min: Int = 0) throws(UsageError) -> Int {
        guard let text = self.value(name) else { return value }
        guard let n = Int(text), n >= min else { throw UsageError("\(name) needs a whole number ≥ \(min), not '\(text)'") }
        return n
    }
}
