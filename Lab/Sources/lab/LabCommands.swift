import Conformance
import _CommandSupport

/// The lab's commands and its top-level help; dispatch and error reporting are the product's
/// (``Command/dispatch(_:)`` in _CommandSupport), so `lab` reads its arguments exactly as `stc` does.
enum LabCommands {
    static let commands: [Command] = [BenchCommand.command, MutateCommand.command, adapter]

    static let summary = "the Screen Time suite's lab: benchmarks, bug finding, mutation testing"

    static let root = Command(
        "lab", summary: summary, syntax: CommandSyntax(), help: help, subcommands: commands
    ) { _ in
        Console.error(help.render(summary: summary))
        return 2
    }

    static let help = HelpPage(
        "lab", usage: ["<command> [options]", "help <command>"],
        description: """
            Run from the repository: swift run -c release --package-path Lab lab <command>. The lab measures the
            package it sits in (its parent directory); its scratch builds go under that package's .build/. It
            reads its arguments and reports errors exactly as stc does.
            """,
        commandsHeading: HelpPage.commandsHeading,
        commands: commands.map { HelpPage.Item($0.name, $0.summary) },
        exitCodes: [
            .init("0", "success"), .init("1", "a check failed (a target below its line, a bug not found)"),
            .init("2", "usage or I/O error"),
        ])

    /// `lab adapter`: the reference over the adapter protocol, which the runner and explorer benchmarks time as a
    /// child process (the same server as `lab adapter`, SPEC.md §5).
    static let adapter = Command(
        "adapter", summary: "serve the reference over the adapter protocol (what the runner benchmarks time)",
        syntax: CommandSyntax(),
        help: HelpPage(
            "lab adapter", usage: [""],
            description: """
                Serves the reference over the adapter protocol on stdin/stdout, as stc adapter does (SPEC.md §5).
                The runner and explorer benchmarks start it as their child process.
                """,
            exitCodes: [.init("0", "end of input")])
    ) { _ in
        AdapterServer.serveStandardStreams()
        return 0
    }
}
