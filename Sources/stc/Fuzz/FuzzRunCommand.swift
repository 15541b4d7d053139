import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func ignoreInterrupt(_: Int32) {}

/// `stc fuzz run`: builds a target's libFuzzer binary, checks it is instrumented, and fuzzes it.
enum FuzzRunCommand {
    static let help = HelpPage(
        "stc fuzz run",
        usage: ["TARGET [--time S] [--jobs N] [--max-len N] [--no-build] [--verbose] [-- libFuzzer flags…]"],
        description: """
            Builds the libFuzzer binaries (the command is printed:
              SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address -Xswiftc -Xllvm -Xswiftc
                -asan-instrumentation-with-call-threshold=0 --package-path Fuzz --product TARGET:
            ASan everywhere, its stack-use-after-return check only in the modules that hand out stack addresses,
            libFuzzer's coverage without comparison tracing on the reference's modules and the selection and
            differential harnesses only), checks that the binary is instrumented, and fuzzes TARGET
            with SWIFT_BACKTRACE=enable=no, ASAN_OPTIONS=malloc_context_size=2:quarantine_size_mb=16 (for speed;
            detection is the same, leaks included, but heap and leak reports show two frames of each allocation:
            stc fuzz replay TARGET FILE --binary shows them whole; an option you set in ASAN_OPTIONS wins), the dictionary corpus/TARGET.dict, and the corpus
            dirs .build/fuzz-corpus/TARGET (scratch: new inputs go here, never into the checked-in seeds),
            corpus/TARGET and corpus/TARGET/regressions. Crashes, timeouts and OOMs are written to
            .build/fuzz-artifacts/TARGET/, and the command that turns one into a regression is printed.

            At the end a summary line gives the executions (summed over the jobs), the coverage and libFuzzer's corpus
            size (cov: edges, ft: features, corp: inputs; the most of any job) and the inputs in the scratch corpus.
            """,
        options: [
            .init("--time S", "stop after S seconds (libFuzzer -max_total_time; default 60; 0 = until stopped)"),
            .init(
                "--jobs N",
                """
                N parallel fuzzing processes (libFuzzer -jobs=N -workers=N), one a core: each fuzzes the whole
                --time and picks up the others' new inputs from the shared scratch corpus; their logs are in
                .build/fuzz-artifacts/TARGET/fuzz-J.log and are printed as each ends. Not -fork=N: its
                short-lived children reload the corpus and merge again and again, and did about half the
                executions and less coverage in the same time (docs/FUZZING-AT-SCALE.md). A crash in one job
                stops no other: each runs its --time
                """),
            .init(
                "--max-len N",
                """
                the largest input (default per target: selection-decode 512, selection-differential 512,
                selection-json 512, url 512, deeplink 512, template 1024, others 1024)
                """),
            .init("--no-build", "use the existing binary if there is one"),
            .init("--verbose", "show every libFuzzer line (default: NEW/REDUCE lines at most once a second)"),
        ] + FuzzCommand.commonHelp + [
            .init("-- FLAGS…", "passed to libFuzzer as they are, after ours (so they win), e.g. -- -only_ascii=1")
        ],
        exitCodes: [
            .init("0", "no crash (also when stopped with Ctrl-C)"), .init("1", "a crash, timeout or OOM was found"),
            .init("2", "usage or build error"),
        ])

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [
            .value("--time", "S"), .value("--jobs", "N"), .value("--max-len", "N"), .flag("--no-build"),
            .flag("--verbose"),
        ],
        positionals: .exactly(1, "give one TARGET"), passesThrough: true)

    static let command = Command(
        "run", summary: "build a target's libFuzzer binary and fuzz (new inputs go to .build/fuzz-corpus/)",
        syntax: syntax, help: help, run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let target = try FuzzCommand.target(a.positionals[0])
        let ws = FuzzCommand.workspace(a)
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
        var flags =
            FuzzDefaults.flags(maxLen: maxLen, dictionary: ws.corpus.dictionary(target.name))
            + ["-artifact_prefix=\(artifacts)/", "-print_final_stats=1"]
        if time > 0 { flags.append("-max_total_time=\(time)") }
        if jobs > 1 { flags += ["-jobs=\(jobs)", "-workers=\(jobs)"] }
        flags += a.passthrough
        var dirs = [scratch]
        for dir in [ws.corpus.seedDirectory(target.name), ws.corpus.regressionDirectory(target.name)]
        where FileManager.default.fileExists(atPath: dir) {
            dirs.append(dir)
        }
        let environment = FuzzProcess.fuzzerEnvironment(throughput: true)
        Console.error(
            "$ SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=\(Shell.quote(environment["ASAN_OPTIONS"] ?? "")) "
                + ([Shell.displayPath(binary)] + flags + dirs.map(Shell.displayPath)).map(Shell.quote).joined(
                    separator: " "))
        var progress = FuzzProgress(verbose: a.flag("--verbose"))
        // Ctrl-C reaches libFuzzer too (same process group): it stops and prints its stats; stc stays to report.
        // A handler, not SIG_IGN, so that the child starts with the default disposition.
        signal(SIGINT, ignoreInterrupt)
        defer { signal(SIGINT, SIG_DFL) }
        let output = try FuzzProcess.run(
            binary, flags + dirs, environment: environment, currentDirectory: artifacts, keep: 1 << 16
        ) { progress.line($0) }
        progress.flush()
        Console.error(
            progress.summary(scratch: Shell.displayPath(scratch), scratchInputs: FuzzCorpus.files(in: scratch).count))

        var found = progress.artifacts.map {
            $0.hasPrefix("/") ? $0 : (artifacts as NSString).appendingPathComponent($0)
        }
        for file in FuzzCorpus.files(in: artifacts) where !before.contains(file) && !found.contains(file) {
            let name = (file as NSString).lastPathComponent
            if ["crash-", "timeout-", "oom-", "leak-"].contains(where: name.hasPrefix) { found.append(file) }
        }
        found = found.filter { FileManager.default.fileExists(atPath: $0) }
        if found.isEmpty && output.status == 72 && !output.crashedBySignal {  // libFuzzer's -interrupted_exitcode
            Console.out("fuzz \(target.name): interrupted; no crash. New inputs are in \(Shell.displayPath(scratch)).")
            return 0
        }
        if found.isEmpty && output.status == 0 && !output.crashedBySignal {
            Console.out(
                "fuzz \(target.name): no crash. New inputs are in \(Shell.displayPath(scratch)) "
                    + "(stc fuzz merge \(target.name) to keep the useful ones).")
            return 0
        }
        if found.isEmpty {
            Console.out(
                "fuzz \(target.name): libFuzzer exited with \(output.status) without writing an input; "
                    + "see the output above.")
            return 1
        }
        for artifact in found { FuzzCommand.reportArtifact(artifact, target: target.name, workspace: ws) }
        return 1
    }
}
