import Foundation

/// One `stc` command or subcommand: its name, what it takes, its help, and what it runs.
///
/// A command with subcommands (a group) runs one of them when the first argument names it; `help` there means
/// `--help` for what follows (`stc help fuzz run` is `stc fuzz run --help`). A group takes no positionals of
/// its own, so any other first argument that is not an option is an unknown subcommand, a usage error even
/// with `--help` (`stc fuzz nosuch --help` exits 2): help for a command that does not exist would mislead.
struct Command: Sendable {
    let name: String
    /// One line for the parent's list of commands, and the title of the help page.
    let summary: String
    let syntax: CommandSyntax
    let page: HelpPage
    let subcommands: [Command]
    /// Runs with the scanned arguments and returns the exit code; throws ``UsageError`` or ``CommandFailure``.
    let run: @Sendable (ScannedArguments) throws -> Int32

    init(
        _ name: String, summary: String, syntax: CommandSyntax, help: HelpPage, subcommands: [Command] = [],
        run: @escaping @Sendable (ScannedArguments) throws -> Int32
    ) {
        precondition(subcommands.isEmpty || syntax.positionals.max == 0, "\(name): a group takes no positionals")
        self.name = name
        self.summary = summary
        self.syntax = syntax
        self.page = help
        self.subcommands = subcommands
        self.run = run
    }

    /// The `--help` text: the page in the one layout of ``HelpPage``.
    var help: String { page.render(summary: summary) }

    /// The subcommands as a help list: name and summary.
    var subcommandItems: [HelpPage.Item] { subcommands.map { HelpPage.Item($0.name, $0.summary) } }
}

/// The commands, their dispatch, the top-level help, and the one way every command reports errors.
enum CommandTable {
    static let version = "0.1.0"

    static let commands: [Command] = [
        ConformanceCommand.command, ExploreCommand.command, InspectCommand.command, FuzzCommand.command,
        AdapterCommand.command, CheckCommand.command, BenchCommand.command, MutateCommand.command,
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
    static func run(_ arguments: [String]) -> Int32 { run(root, path: [], arguments) }

    /// Every command and subcommand with its path after `stc` (`["fuzz", "run"]`), the root first.
    static var all: [(path: [String], command: Command)] {
        func walk(_ command: Command, _ path: [String]) -> [(path: [String], command: Command)] {
            [(path, command)] + command.subcommands.flatMap { walk($0, path + [$0.name]) }
        }
        return walk(root, [])
    }

    static func run(_ command: Command, path: [String], _ arguments: [String]) -> Int32 {
        let shown = (["stc"] + path).joined(separator: " ")
        if let first = arguments.first, !command.subcommands.isEmpty, first == "-" || !first.hasPrefix("-") {
            if let subcommand = command.subcommands.first(where: { $0.name == first }) {
                return run(subcommand, path: path + [first], Array(arguments.dropFirst()))
            }
            if first == "help" { return run(command, path: path, Array(arguments.dropFirst()) + ["--help"]) }
            return report(unknownSubcommand(first, of: command, root: path.isEmpty), shown)
        }
        do {
            switch try command.syntax.scan(arguments) {
            case .help:
                Console.out(command.help)
                return 0
            case .arguments(let scanned):
                return try command.run(scanned)
            }
        } catch let error as UsageError {
            return report(error, shown)
        } catch {
            Console.error("\(shown): \(error)")
            return 2
        }
    }

    /// `stc nosuch` and `stc fuzz nosuch`: the word, and the names it could have been.
    static func unknownSubcommand(_ word: String, of group: Command, root: Bool) -> UsageError {
        let names = group.subcommands.map(\.name).joined(separator: ", ")
        return UsageError(
            root
                ? "unknown command '\(word)'. Commands: \(names)."
                : "unknown subcommand '\(word)'. Subcommands: \(names).")
    }

    /// A usage error as every command reports it (see ``UsageError``); returns its exit code, 2.
    static func report(_ error: UsageError, _ shown: String) -> Int32 {
        Console.error("\(shown): \(error.message)\nRun '\(shown) --help' for usage.")
        return 2
    }
}
