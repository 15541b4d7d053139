import _FuzzCorpus

/// `stc fuzz build`: builds the libFuzzer binaries as `stc fuzz run` does and checks their instrumentation.
enum FuzzBuildCommand {
    static let help = """
        Usage: stc fuzz build [TARGET…]

        Builds the libFuzzer binaries of the given targets (default: every target) as `stc fuzz run` does, printing
        the command, and checks that each binary is instrumented: it must report
        `INFO: Loaded 1 modules (N inline 8-bit counters)` with N > 0. Prints each target's counters.

        Options:
          --corpus DIR, --package DIR   see stc fuzz --help

        Exit codes: 0 built and instrumented, 2 usage or build error, or a binary without instrumentation.
        """

    static let syntax = CommandSyntax(options: FuzzCommand.common, positionals: .any)

    static let command = Command(
        "build", summary: "build the libFuzzer binaries (all by default) and check they are instrumented",
        syntax: syntax, help: help, run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let targets = try (a.positionals.isEmpty ? FuzzTargets.all.map(\.name) : a.positionals).map {
            try FuzzCommand.target($0)
        }
        let ws = FuzzCommand.workspace(a)
        try FuzzBuild.ensure(ws, targets: targets.map(\.name), skip: false, allTargets: a.positionals.isEmpty)
        for target in targets {
            let counters = try FuzzBuild.checkInstrumented(try ws.binary(target.name))
            Console.out("\(target.name)\t\(counters) inline 8-bit counters")
        }
        return 0
    }
}
