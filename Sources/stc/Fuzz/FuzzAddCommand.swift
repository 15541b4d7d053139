import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stc fuzz add`: saves an input as a regression named by its content, minimized first on request.
enum FuzzAddCommand {
    static let help = HelpPage(
        "stc fuzz add", usage: ["TARGET FILE [--minimize [--runs N] [--no-build]] [--force]"],
        description: """
            Copies FILE to corpus/TARGET/regressions/<content hash> (FNV-1a 64, the name property-test regressions
            use). An existing file is never overwritten: the same content is reported as already present (exit 0).
            Then runs the harness body on it and says whether it fails now ("swift test will fail until the bug is
            fixed") or passes (kept as a regression guard).
            """,
        options: [
            .init(
                "--minimize",
                """
                first shrink FILE with the libFuzzer binary (-minimize_crash=1 -runs=N), keeping the smallest
                input that still crashes. If FILE does not crash the binary, nothing is added unless --force.
                """),
            .init("--runs N", "libFuzzer -runs for each minimization round (default 20000)"),
            .init("--no-build", "use the existing binary if there is one"),
            .init("--force", "with --minimize: add FILE as it is even when it does not crash"),
        ] + FuzzCommand.commonHelp,
        exitCodes: [
            .init("0", "added or already present"), .init("1", "not added (does not crash, no --force)"),
            .init("2", "usage, build or I/O error"),
        ])

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [
            .value("--runs", "N"), .flag("--minimize"), .flag("--no-build"), .flag("--force"),
        ],
        positionals: .exactly(2, "give TARGET and FILE"))

    static let command = Command(
        "add", summary: "save an input as corpus/TARGET/regressions/<content hash> (--minimize first)", syntax: syntax,
        help: help, run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let target = try FuzzCommand.target(a.positionals[0])
        let file = a.positionals[1]
        let ws = FuzzCommand.workspace(a)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("cannot read '\(file)'")
        }
        var bytes = [UInt8](data)

        if a.flag("--minimize") {
            try FuzzBuild.ensure(ws, targets: [target.name], skip: a.flag("--no-build"))
            let binary = try ws.binary(target.name)
            _ = try FuzzBuild.checkInstrumented(binary)
            let check = try FuzzProcess.run(
                binary, [FuzzWorkspace.absolute(file, in: FileManager.default.currentDirectoryPath)],
                environment: FuzzProcess.fuzzerEnvironment())
            if check.status == 0 && !check.crashedBySignal {
                if !a.flag("--force") {
                    Console.out("\(file) does not crash \(target.name): nothing added (add it as it is with --force).")
                    return 1
                }
                Console.out("\(file) does not crash \(target.name); adding it as it is (--force).")
            } else {
                let runs = try a.int("--runs", default: 20000, min: 1)
                if let smaller = try minimize(
                    binary: binary, file: file, runs: runs, workspace: ws, target: target.name),
                    smaller.count < bytes.count
                {
                    Console.out("minimized: \(bytes.count) → \(smaller.count) bytes")
                    bytes = smaller
                } else {
                    Console.out("minimized: no smaller crashing input found; keeping \(bytes.count) bytes")
                }
            }
        }

        let (path, isNew) = try ws.corpus.addRegression(bytes, target: target.name)
        Console.out(
            isNew ? "added \(Shell.displayPath(path))" : "already present: \(Shell.displayPath(path)) (same content)")
        // Ask a child `stc fuzz replay` so that a body that traps cannot take this process down.
        let status = try replayInChild(target: target.name, path: path, workspace: ws)
        if status.passed {
            Console.out("passes now (kept as a regression guard)")
        } else {
            Console.out("now fails: swift test will fail until the bug is fixed")
            for line in status.output.split(separator: "\n")
            where line.contains("FAIL") || line.contains("trapped") || line.contains("Fatal error") {
                Console.out("  \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return 0
    }

    /// libFuzzer's crash minimization; returns the smallest input that still crashes, or nil.
    static func minimize(
        binary: String, file: String, runs: Int, workspace ws: FuzzWorkspace, target: String
    ) throws -> [UInt8]? {
        let dir = try ws.scratch("fuzz-minimize", target)
        let out = (dir as NSString).appendingPathComponent("minimized-\(getpid())")
        try? FileManager.default.removeItem(atPath: out)
        let args = [
            "-minimize_crash=1", "-runs=\(runs)", "-max_total_time=60", "-exact_artifact_path=\(out)",
            FuzzWorkspace.absolute(file, in: FileManager.default.currentDirectoryPath),
        ]
        Console.error(
            "$ SWIFT_BACKTRACE=enable=no "
                + ([Shell.displayPath(binary)] + args.map(Shell.displayPath)).map(Shell.quote).joined(separator: " "))
        _ = try FuzzProcess.run(binary, args, environment: FuzzProcess.fuzzerEnvironment(), currentDirectory: dir) {
            line in
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

    static func replayInChild(
        target: String, path: String, workspace ws: FuzzWorkspace
    ) throws -> (passed: Bool, output: String) {
        guard let me = Bundle.main.executablePath else {
            let failure = FuzzTargets.named(target)?.body([UInt8](FileManager.default.contents(atPath: path) ?? Data()))
            return (failure == nil, failure.map { "FAIL \($0)" } ?? "")
        }
        let output = try FuzzProcess.run(me, ["fuzz", "replay", target, path, "--corpus", ws.corpus.root])
        return (
            output.status == 0 && !output.crashedBySignal,
            output.text + (output.crashedBySignal ? "\ntrapped (signal \(output.status))" : "")
        )
    }
}
