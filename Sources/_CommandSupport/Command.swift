/// One command or subcommand of a tool (`stc`, `lab`): its name, what it takes, its help, and what it runs.
///
/// Rule: a command with subcommands runs one of them when the first argument names it; `help` there means
/// `--help` for what follows (`stc help fuzz run` is `stc fuzz run --help`). Every error is reported the same
/// way: `tool path: message`, then where the help is, exit code 2.
///
/// ```swift
/// let root = Command("lab", summary: "…", syntax: CommandSyntax(positionals: .any), help: "…",
///                    subcommands: [bench]) { _ in 2 }
/// exit(root.dispatch(Array(CommandLine.arguments.dropFirst())))
/// ```
public struct Command: Sendable {
    public let name: String
    /// One line for the parent's list of commands.
    public let summary: String
    public let syntax: CommandSyntax
    public let help: String
    public let subcommands: [Command]
    /// Runs with the scanned arguments and returns the exit code; throws ``UsageError`` or ``CommandFailure``.
    public let run: @Sendable (ScannedArguments) throws -> Int32

    /// - Parameters:
    ///   - name: the word that selects the command.
    ///   - summary: one line for the parent's list.
    ///   - syntax: the options and positionals it takes.
    ///   - help: the text `--help` prints.
    ///   - subcommands: the commands the first argument may name.
    ///   - run: what it does with the scanned arguments; returns the exit code.
    public init(
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

    /// A line per command: two spaces, the name padded to the longest, two spaces, the summary.
    /// - Parameter commands: the commands to list, in their order.
    /// - Returns: the lines, joined by newlines.
    public static func list(_ commands: [Command]) -> String {
        let width = commands.map(\.name.count).max() ?? 0
        return commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
            .joined(separator: "\n")
    }

    /// This command and every subcommand with its path after the tool's name (`["fuzz", "run"]`), this one first.
    public var all: [(path: [String], command: Command)] {
        func walk(_ command: Command, _ path: [String]) -> [(path: [String], command: Command)] {
            [(path, command)] + command.subcommands.flatMap { walk($0, path + [$0.name]) }
        }
        return walk(self, [])
    }

    /// Runs this command, the tool's root, with the arguments after the tool's name.
    /// - Parameter arguments: the command line without the executable.
    /// - Returns: the exit code: the command's own, or 2 for a usage error or a failure it threw.
    public func dispatch(_ arguments: [String]) -> Int32 { dispatch(path: [name], arguments) }

    func dispatch(path: [String], _ arguments: [String]) -> Int32 {
        if let first = arguments.first, !subcommands.isEmpty {
            if let subcommand = subcommands.first(where: { $0.name == first }) {
                return subcommand.dispatch(path: path + [first], Array(arguments.dropFirst()))
            }
            if first == "help" { return dispatch(path: path, Array(arguments.dropFirst()) + ["--help"]) }
        }
        let shown = path.joined(separator: " ")
        do {
            switch try syntax.scan(arguments) {
            case .help:
                Console.out(help)
                return 0
            case .arguments(let scanned):
                return try run(scanned)
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
