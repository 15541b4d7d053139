import Foundation
import _CommandSupport

/// The commands of `stc` and its top-level help; dispatch and error reporting are ``Command/dispatch(_:)``.
enum CommandTable {
    static let version = "0.1.0"

    static let commands: [Command] = [
        ConformanceCommand.command, ExploreCommand.command, InspectCommand.command, FuzzCommand.command,
        AdapterCommand.command, CheckCommand.command,
    ]

    static let summary = "reference conformance and fuzz suite for Apple's Screen Time APIs"

    static let root = Command(
        "stc", summary: summary, syntax: CommandSyntax(options: [.flag("--version")]), help: help,
        subcommands: commands
    ) { arguments in
        if arguments.flag("--version") {
            Console.out("stc \(version)")
            return 0
        }
        Console.error(help.render(summary: summary))
        return 2
    }

    static let help = HelpPage(
        "stc", usage: ["<command> [options]", "help <command> [<subcommand>]"],
        description: """
            Every command reads its arguments the same way. An option that takes a value is given as --opt VALUE
            or --opt=VALUE alike, and the value is taken as it is, even when it starts with '-'. -h or --help
            anywhere before '--' prints the command's help (stc help <command> too). '--' ends the options: what
            follows is an argument (stc fuzz run passes it to libFuzzer).
            """,
        commandsHeading: HelpPage.commandsHeading,
        commands: commands.map { HelpPage.Item($0.name, $0.summary) },
        options: [.init("--version", "print the version (\(version))")],
        exitCodes: [
            .init("0", "success"), .init("1", "a check failed (invalid input, failing case)"),
            .init("2", "usage or I/O error"),
        ])

    /// Runs `stc` with the arguments after its name; returns the exit code.
    static func run(_ arguments: [String]) -> Int32 { root.dispatch(arguments) }

    /// Every command and subcommand with its path after `stc` (`["fuzz", "run"]`), the root first.
    static var all: [(path: [String], command: Command)] { root.all }
}
