import Foundation

/// One `stc` command or subcommand: its name, what it takes, its help, and what it runs.
///
/// A command with subcommands runs one of them when the first argument names it; `help` there means `--help`
/// for what follows (`stc help fuzz run` is `stc fuzz run --help`).
struct Command: Sendable {
    let name: String
    /// One line for the parent's list of commands.
    let summary: String
    let syntax: CommandSyntax
    let help: String
    let subcommands: [Command]
    /// Runs with the scanned arguments and returns the exit code; throws ``UsageError`` or ``CommandFailure``.
    let run: @Sendable (ScannedArguments) throws -> Int32

    init(
        _ name: String, summary: String, syntax: CommandSyntax, help: String, subcommands: [Command] = [],
        run: @escaping @Sendable (ScannedArguments) throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.syntax = syntax
        self.help = help
        self.subcommands = subcommands
        self.run = run
    }
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

    /// A line per command: two spaces, the name padded to the longest, two spaces, the summary.
    static func list(_ commands: [Command]) -> String {
        let width = commands.map(\.name.count).max() ?? 0
        return commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
            .joined(separator: "\n")
    }

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
        if let first = arguments.first, !command.subcommands.isEmpty {
            if let subcommand = command.subcommands.first(where: { $0.name == first }) {
                return run(subcommand, path: path + [first], Array(arguments.dropFirst()))
            }
            if first == "help" { return run(command, path: path, Array(arguments.dropFirst()) + ["--help"]) }
        }
        let shown = (["stc"] + path).joined(separator: " ")
        do {
            switch try command.syntax.scan(arguments) {
            case .help:
                Console.out(command.help)
                return 0
            case .arguments(let scanned):
                return try command.run(scanned)
            }
        } catch let error as UsageError {
            Console.error("\(shown): \(error.message)\nRun '\(shown) --help' for usage.")
            return 2
        } catch {
            Console.error("\(shown): \(error)")
            return 2
        }
    }
}
