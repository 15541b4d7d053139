import Foundation
import _CommandSupport

/// The commands, their dispatch, the top-level help, and the one way every command reports errors.
enum CommandTable {
    static let version = "0.1.0"

    static let commands: [Command] = [
        ConformanceCommand.command, ExploreCommand.command, InspectCommand.command, FuzzCommand.command,
        AdapterCommand.command, CheckCommand.command,
    ]

    static let summary = "reference conformance and fuzz suite for Apple's Screen Time APIs"

    static let root = Command(
        "stc", summary: summary,
        syntax: CommandSyntax(options: [.flag("--version")], positionals: .any), help: help, subcommands: commands
    ) { arguments in
        if arguments.flag("--version") {
            Console.out("stc \(version)")
            return 0
        }
        guard let first = arguments.positionals.first else {
            Console.error(help)
            return 2
        }
        throw UsageError("unknown command '\(first)'. Commands: \(commands.map(\.name).joined(separator: ", ")).")
    }

    static let help = """
        stc \(version): \(summary)

        Usage: stc <command> [options]     stc <command> --help for a command's options

        Commands:
        \(list(commands))

        Options:
          --version   print the version
          -h, --help  print this help

        Every command reads its arguments the same way. An option that takes a value is given as --opt VALUE or
        --opt=VALUE alike, and the value is taken as it is, even when it starts with '-'. -h or --help anywhere
        before '--' prints the command's help. '--' ends the options: what follows is an argument (stc fuzz run
        passes it to libFuzzer).

        Exit codes: 0 success, 1 a check failed (invalid input, failing case), 2 usage or I/O error.
        """

    /// A line per command (``Command/list(_:)``).
    static func list(_ commands: [Command]) -> String { Command.list(commands) }

    /// Runs `stc` with the arguments after its name; returns the exit code.
    static func run(_ arguments: [String]) -> Int32 { root.dispatch(arguments) }

    /// Every command and subcommand with its path after `stc` (`["fuzz", "run"]`), the root first.
    static var all: [(path: [String], command: Command)] { root.all }
}
