import Foundation

/// One `stc` subcommand.
struct Command: Sendable {
    let name: String
    let summary: String
    /// Runs with the arguments after the command name; returns the exit code.
    let run: @Sendable ([String]) -> Int32
}

/// The subcommands, their dispatch and the top-level help.
enum CommandTable {
    static let version = "0.1.0"

    static let commands: [Command] = [
        Command(name: "conformance", summary: "run the conformance vectors against the reference and adapters", run: ConformanceCommand.main),
        Command(name: "inspect", summary: "explain a stored selection string (counts, tokens, canonical form, errors)", run: InspectCommand.main),
        Command(name: "fuzz", summary: "libFuzzer workflow: list, run, replay the corpus, add a regression, merge", run: FuzzCommand.main),
        Command(name: "adapter", summary: "serve the reference over the adapter protocol on stdin/stdout", run: AdapterCommand.main),
        Command(name: "check", summary: "run the reference's named properties (generated cases, shrinking, regressions)", run: CheckCommand.main),
        Command(name: "bench", summary: "measure the hot paths against Foundation and the performance targets", run: BenchCommand.main),
    ]

    static var help: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            stc \(version): reference conformance and fuzz suite for Apple's Screen Time APIs

            Usage: stc <command> [options]     stc <command> --help for a command's options

            Commands:
            \(lines.joined(separator: "\n"))

            Exit codes: 0 success, 1 a check failed (invalid input, failing case), 2 usage or I/O error.
            """
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Console.error(help)
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                return command.run(["--help"])
            }
            Console.out(help)
            return 0
        case "--version":
            Console.out("stc \(version)")
            return 0
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                Console.error("stc: unknown command '\(first)'. Commands: \(commands.map(\.name).joined(separator: ", ")).")
                return 2
            }
            return command.run(Array(arguments.dropFirst()))
        }
    }
}
