import Conformance
import _CommandSupport

/// The lab's commands and its top-level help; dispatch and error reporting are the product's
/// (``Command/dispatch(_:)`` in _CommandSupport), so `lab` reads its arguments exactly as `stc` does.
enum LabCommands {
    static let commands: [Command] = [BenchCommand.command, MutateCommand.command, adapter]

    static let summary = "the Screen Time suite's lab: benchmarks, bug finding, mutation testing"

    static let root = Command(
        "lab", summary: summary, syntax: CommandSyntax(positionals: .any), help: help, subcommands: commands
    ) { arguments in
        guard let first = arguments.positionals.first else {
            Console.error(help)
            return 2
        }
        throw UsageError("unknown command '\(first)'. Commands: \(commands.map(\.name).joined(separator: ", ")).")
    }

    static let help = """
        lab: \(summary)

        Usage: lab <command> [options]     lab <command> --help for a command's options

        Commands:
        \(Command.list(commands))

        Options:
          -h, --help  print this help

        Run from the repository: swift run -c release --package-path Lab lab <command>. The lab measures the
        package it sits in (its parent directory); its scratch builds go under that package's .build/.

        Exit codes: 0 success, 1 a check failed, 2 usage or I/O error.
        """

    /// `lab adapter`: the reference over the adapter protocol, which the runner and explorer benchmarks time as a
    /// child process (the same server as `stc adapter`, SPEC.md §5).
    static let adapter = Command(
        "adapter", summary: "serve the reference over the adapter protocol (what the runner benchmarks time)",
        syntax: CommandSyntax(),
        help: """
            Usage: lab adapter

            Serves the reference over the adapter protocol on stdin/stdout, as stc adapter does (SPEC.md §5). The
            runner and explorer benchmarks start it as their child process.
            """
    ) { _ in
        AdapterServer.serveStandardStreams()
        return 0
    }
}
