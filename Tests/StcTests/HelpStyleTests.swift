import Foundation
import Testing

@testable import _CommandSupport
@testable import stc

/// Every `--help` page follows the one layout of ``HelpPage``, and a subcommand that does not exist is a usage
/// error even with `--help`. The pages are found as a user finds them: the commands `stc --help` lists, then
/// the subcommands each group's page lists.
@Suite struct HelpStyleTests {
    /// A page's headings: lines at column 0 after an empty line, words and `,` `-` only, ending in `:`.
    static func headings(_ lines: [Substring]) -> [(index: Int, title: String)] {
        lines.indices.compactMap { k in
            let line = lines[k]
            guard k > 0, lines[k - 1].isEmpty, line.hasSuffix(":"), line.count <= 60,
                line.dropLast().allSatisfy({ $0.isLetter || " ,-".contains($0) }), line.first?.isUppercase == true
            else { return nil }
            return (k, String(line.dropLast()))
        }
    }

    /// The lines of the section under a heading: up to the next empty line.
    static func body(_ lines: [Substring], after heading: Int) -> [Substring] {
        Array(lines[(heading + 1)...].prefix { !$0.isEmpty })
    }

    /// The names a `Commands:` or `Subcommands:` section lists.
    static func listedNames(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard
            let heading = headings(lines).first(where: {
                [HelpPage.commandsHeading, HelpPage.subcommandsHeading].contains($0.title)
            })
        else { return [] }
        return body(lines, after: heading.index).filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Every page reachable from `stc --help`, by walking the lists of commands and subcommands.
    static func reachablePaths() throws -> [[String]] {
        var found: [[String]] = []
        var pending: [[String]] = [[]]
        while let path = pending.popLast() {
            found.append(path)
            let help = try StcBinary.run(path + ["--help"]).stdout
            pending += listedNames(help).map { path + [$0] }
        }
        return found
    }

    @Test func theListsReachEveryCommandAndNoOther() throws {
        let reached = Set(try Self.reachablePaths().map { $0.joined(separator: " ") })
        let declared = Set(CommandTable.all.map { $0.path.joined(separator: " ") })
        #expect(reached == declared)
    }

    /// Every declared page (the set `stc --help` and the groups' pages list, as the test above shows).
    @Test(arguments: CommandTable.all.map(\.path))
    func helpFollowsTheOneLayout(path: [String]) throws {
        let shown = (["stc"] + path).joined(separator: " ")
        let command = try #require(CommandTable.all.first { $0.path == path }?.command, "\(shown) is not declared")
        let run = try StcBinary.run(path + ["--help"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(shown) --help: exit \(run.status), \(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count > 3, "\(shown) --help is too short")

        // The summary, then the usage.
        #expect(lines[0] == "\(shown): \(command.summary)", "\(shown): first line \(lines[0])")
        #expect(lines[1].isEmpty)
        #expect(lines[2].hasPrefix("Usage: \(shown)"), "\(shown): \(lines[2])")
        for line in lines where line.count > HelpPage.width {
            Issue.record("\(shown): a line wider than \(HelpPage.width) columns: \(line)")
        }
        // No heading in capitals (USAGE:, OPTIONS:, EXIT STATUS:) anywhere.
        for line in lines where line.first?.isLetter == true && line.contains(":") {
            let head = line.prefix { $0 != ":" }
            #expect(
                head.count < 2 || head.contains { $0.isLowercase } || head.contains { !$0.isLetter && $0 != " " },
                "\(shown): heading in capitals: \(line)")
        }

        // The sections, in the one order, each a list or text indented 2.
        let headings = Self.headings(lines)
        let titles = headings.map(\.title)
        let rank: (String) -> Int = { title in
            switch title {
            case HelpPage.commandsHeading, HelpPage.subcommandsHeading: 0
            case HelpPage.optionsHeading: 1
            case HelpPage.exitCodesHeading: 3
            case HelpPage.examplesHeading: 4
            default: 2
            }
        }
        #expect(titles.map(rank) == titles.map(rank).sorted(), "\(shown): sections out of order: \(titles)")
        #expect(titles.filter { $0 == HelpPage.optionsHeading }.count == 1, "\(shown): \(titles)")
        #expect(titles.filter { $0 == HelpPage.exitCodesHeading }.count == 1, "\(shown): \(titles)")
        let listsCommands = titles.contains(path.isEmpty ? HelpPage.commandsHeading : HelpPage.subcommandsHeading)
        #expect(listsCommands == !command.subcommands.isEmpty, "\(shown): \(titles)")
        for (index, title) in headings {
            let body = Self.body(lines, after: index)
            #expect(body.first?.hasPrefix("  ") == true, "\(shown): \(title) is empty or not indented 2")
            #expect(body.allSatisfy { $0.hasPrefix("  ") }, "\(shown): \(title) has a line not indented")
        }
        let lists =
            [HelpPage.commandsHeading, HelpPage.subcommandsHeading, HelpPage.optionsHeading]
            + [HelpPage.exitCodesHeading]
        for (index, title) in headings where lists.contains(title) || title.hasPrefix("Options of") {
            Self.expectAligned(Self.body(lines, after: index), "\(shown): \(title)")
        }
        let options = try #require(headings.first { $0.title == HelpPage.optionsHeading })
        #expect(Self.body(lines, after: options.index).last?.hasPrefix("  -h, --help  ") == true)
    }

    /// In a list, every text starts in one column: after each term of a line `  TERM  TEXT`, and at the indent
    /// of every other line, or beyond it (a preformatted line); a term alone on its line is wider.
    static func expectAligned(_ body: [Substring], _ shown: String) {
        var columns: Set<Int> = []
        var termsAlone: [Substring] = []
        var continuations: [Int] = []
        for line in body {
            let indent = line.prefix { $0 == " " }.count
            if indent == 2 {
                let rest = line.dropFirst(2)
                guard let gap = rest.range(of: "  ") else {
                    termsAlone.append(rest)
                    continue
                }
                let textStart = rest[gap.upperBound...].prefix { $0 == " " }.count
                columns.insert(2 + rest.distance(from: rest.startIndex, to: gap.upperBound) + textStart)
            } else {
                continuations.append(indent)
            }
        }
        #expect(columns.count <= 1, "\(shown): texts start in columns \(columns.sorted())")
        guard let column = columns.first ?? continuations.min() else { return }
        #expect(continuations.allSatisfy { $0 >= column }, "\(shown): a line left of column \(column)")
        for term in termsAlone {
            #expect(2 + term.count + 2 > column, "\(shown): '\(term)' fits the column but stands alone")
        }
    }

    // MARK: Unknown commands and subcommands

    @Test(arguments: [
        ["nosuch"], ["nosuch", "--help"], ["help", "nosuch"], ["fuzz", "nosuch"], ["fuzz", "nosuch", "--help"],
        ["help", "fuzz", "nosuch"], ["conformance", "nosuch", "--help"], ["conformance", "help", "nosuch"],
    ])
    func anUnknownSubcommandIsAUsageErrorEvenWithHelp(arguments: [String]) throws {
        let group = arguments.filter { $0 != "help" && $0 != "nosuch" && $0 != "--help" }
        let command = try #require(CommandTable.all.first { $0.path == group }?.command)
        let shown = (["stc"] + group).joined(separator: " ")
        let names = command.subcommands.map(\.name).joined(separator: ", ")
        let message =
            group.isEmpty
            ? "unknown command 'nosuch'. Commands: \(names)."
            : "unknown subcommand 'nosuch'. Subcommands: \(names)."
        let run = try StcBinary.run(arguments)
        #expect(run.status == 2, "\(arguments): exit \(run.status)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "\(shown): \(message)\nRun '\(shown) --help' for usage.\n")
    }

    /// A group's own options and help still work, and `help` forwards to the subcommand's page.
    @Test func aGroupStillTakesOptionsAndHelp() throws {
        #expect(try StcBinary.run(["--version"]).stdout == "stc \(CommandTable.version)\n")
        #expect(try StcBinary.run(["fuzz", "--help", "nosuch"]).status == 0, "--help before the word asks for help")
        #expect(try StcBinary.run(["help", "fuzz", "run"]).stdout == StcBinary.run(["fuzz", "run", "--help"]).stdout)
        let bare = try StcBinary.run(["fuzz"])
        #expect(bare.status == 2 && bare.stdout.isEmpty && bare.stderr.hasPrefix("stc fuzz: "))
    }

    // MARK: The layout, on pages made here

    static let page = HelpPage(
        "stc demo", usage: ["[--alpha A] [--time S | --cases N] [--beta B] [--gamma G] [--delta D] [--epsilon E] END"],
        description: """
            One paragraph
            wrapped anywhere in the source.
              a preformatted line
            """,
        options: [
            .init("--alpha A", "short"),
            .init("--a-term-wider-than-the-limit X", "below its term"),
            .init("--beta B", "first line\n  kept as it is"),
        ],
        sections: [.init("Notes", text: "Some text.")],
        exitCodes: [.init("0", "fine"), .init("2", "usage error")],
        examples: "stc demo --alpha 1")

    @Test func aPageRendersInTheOneLayout() {
        #expect(
            Self.page.render(summary: "a demo")
                == """
                stc demo: a demo

                Usage: stc demo [--alpha A] [--time S | --cases N] [--beta B] [--gamma G] [--delta D] [--epsilon E]
                                END

                One paragraph wrapped anywhere in the source.
                  a preformatted line

                Options:
                  --alpha A   short
                  --a-term-wider-than-the-limit X
                              below its term
                  --beta B    first line
                                kept as it is
                  -h, --help  print this help

                Notes:
                  Some text.

                Exit codes:
                  0  fine
                  2  usage error

                Examples:
                  stc demo --alpha 1
                """)
    }

    @Test func reflowWrapsAtTheWidthAndKeepsBracketsWhole() {
        let words = Array(repeating: "word", count: 60).joined(separator: " ")
        let wrapped = HelpPage.reflow(words, indent: 4).split(separator: "\n")
        #expect(wrapped.count > 1)
        #expect(wrapped.allSatisfy { $0.count <= HelpPage.width && $0.hasPrefix("    word") })
        #expect(HelpPage.usageGroups("A [--b B | --c C] [D…]") == ["A", "[--b B | --c C]", "[D…]"])
    }
}
