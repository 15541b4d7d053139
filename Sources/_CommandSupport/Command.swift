/// One command or subcommand of a tool (`stc`, `lab`): its name, what it takes, its help, and what it runs.
///
/// Rule: a command with subcommands (a group) runs one of them when the first argument names it; `help` there
/// means `--help` for what follows (`stc help fuzz run` is `stc fuzz run --help`). A group takes no positionals
/// of its own, so any other first argument that is not an option is an unknown subcommand, a usage error even
/// with `--help` (`stc fuzz nosuch --help` exits 2): help for a command that does not exist would mislead. Every
/// error is reported the same way: `tool path: message`, then where the help is, exit code 2.
///
/// ```swift
/// let root = Command("lab", summary: "…", syntax: CommandSyntax(), help: page, subcommands: [bench]) { _ in 2 }
/// exit(root.dispatch(Array(CommandLine.arguments.dropFirst())))
/// ```
public struct Command: Sendable {
    public let name: String
    /// One line for the parent's list of commands, and the title of the help page.
    public let summary: String
    public let syntax: CommandSyntax
    public let page: HelpPage
    public let subcommands: [Command]
    /// Runs with the scanned arguments and returns the exit code; throws ``UsageError`` or ``CommandFailure``.
    public let run: @Sendable (ScannedArguments) throws -> Int32

    /// - Parameters:
    ///   - name: the word that selects the command.
    ///   - summary: one line for the parent's list.
    ///   - syntax: the options and positionals it takes.
    ///   - help: the page `--help` prints, in the one layout of ``HelpPage``.
    ///   - subcommands: the commands the first argument may name.
    ///   - run: what it does with the scanned arguments; returns the exit code.
    public init(
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
    public var help: String { page.render(summary: summary) }

    /// The subcommands as a help list: name and summary.
    public var subcommandItems: [HelpPage.Item] { subcommands.map { HelpPage.Item($0.name, $0.summary) } }

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
        let shown = path.joined(separator: " ")
        if let first = arguments.first, !subcommands.isEmpty, first == "-" || !first.hasPrefix("-") {
            if let subcommand = subcommands.first(where: { $0.name == first }) {
                return subcommand.dispatch(path: path + [first], Array(arguments.dropFirst()))
            }
            if first == "help" { return dispatch(path: path, Array(arguments.dropFirst()) + ["--help"]) }
            return Self.report(unknownSubcommand(first, root: path.count == 1), shown)
        }
        do {
            switch try syntax.scan(arguments) {
            case .help:
                Console.out(help)
                return 0
            case .arguments(let scanned):
                return try run(scanned)
            }
        } catch let error as UsageError {
            return Self.report(error, shown)
        } catch {
            Console.error("\(shown): \(error)")
            return 2
        }
    }

    /// `stc nosuch` and `stc fuzz nosuch`: the word, and the names it could have been.
    func unknownSubcommand(_ word: String, root: Bool) -> UsageError {
        let names = subcommands.map(\.name).joined(separator: ", ")
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
