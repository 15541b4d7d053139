/// One `--help` page of `stc` or `lab`, and the one layout every command and subcommand prints it in.
///
/// The rule, for every page (the section order of man-pages(7): synopsis, description, options, exit status,
/// examples; the spelling of most `--help` texts: `Usage:`, sentence-case headings):
///
///     stc fuzz list: the fuzz targets: name, tab, summary (--long: and max_len)     the path: the summary
///
///     Usage: stc fuzz list [--long]                                                 one line per form
///
///     Prints every fuzz target, one a line: its name, a tab, and what it checks.    the description
///
///     Subcommands:                                                                  a group's subcommands
///     Options:                                                                      always; -h, --help last
///     Expected-failures files:                                                      further notes, if any
///     Exit codes:                                                                   always
///     Examples:                                                                     if any
///
/// Text is reflowed to ``width`` columns: the lines of a paragraph are joined and wrapped again, so the source
/// may wrap anywhere. A line that starts with a space is preformatted (a command, a list) and printed as it
/// is, and a `code span` is never broken. In a list (options, subcommands, exit codes) each term is indented
/// 2 and its text starts two columns after the widest term of the list; a term wider than ``termLimit``
/// stands on a line of its own, its text below it in that column. Usage forms wrap between their bracketed
/// groups, under the first argument. Option texts are lower-case phrases, as `stc --help` lists commands.
///
/// Example: `HelpPage("stc fuzz list", usage: ["[--long]"], description: "Prints every fuzz target…",
/// options: [.init("--long", "name, tab, max_len, tab, summary")], exitCodes: [.init("0", "printed")])`.
public struct HelpPage: Sendable {
    /// A term and its text: an option (`--seed S`), a subcommand, an exit code.
    public struct Item: Sendable {
        public let term: String
        public let text: String
        public init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// A further section between the options and the exit codes: a heading, text, and a list.
    public struct Section: Sendable {
        /// Sentence case, without the colon: `Expected-failures files`.
        public let title: String
        public let text: String
        public let items: [Item]
        public init(_ title: String, text: String = "", items: [Item] = []) {
            self.title = title
            self.text = text
            self.items = items
        }
    }

    /// The columns text is wrapped to.
    public static let width = 100
    /// The widest term that shares its line with its text.
    public static let termLimit = 20
    /// Ends every page's options.
    public static let helpOption = Item("-h, --help", "print this help")

    /// The headings in their order; ``Section`` headings come between `Options` and `Exit codes`.
    public static let commandsHeading = "Commands"
    public static let subcommandsHeading = "Subcommands"
    public static let optionsHeading = "Options"
    public static let exitCodesHeading = "Exit codes"
    public static let examplesHeading = "Examples"

    /// The command as typed: `stc fuzz run`.
    public let command: String
    /// The forms of the command line, each without the command: `TARGET [--time S]`.
    public let usage: [String]
    public let description: String
    /// `Commands` for `stc` itself, `Subcommands` for a group.
    public let commandsHeading: String
    public let commands: [Item]
    public let options: [Item]
    public let sections: [Section]
    public let exitCodes: [Item]
    /// Command lines, one a line, printed as they are (indented 2, never reflowed).
    public let examples: String

    public init(
        _ command: String, usage: [String], description: String, commandsHeading: String = subcommandsHeading,
        commands: [Item] = [], options: [Item] = [], sections: [Section] = [], exitCodes: [Item], examples: String = ""
    ) {
        precondition(!exitCodes.isEmpty, "\(command): every page says its exit codes")
        self.command = command
        self.usage = usage
        self.description = description
        self.commandsHeading = commandsHeading
        self.commands = commands
        self.options = options
        self.sections = sections
        self.exitCodes = exitCodes
        self.examples = examples
    }

    /// The page, titled `command: summary`, without a final newline (``Console/out(_:)`` adds it).
    public func render(summary: String) -> String {
        var blocks = ["\(command): \(summary)", renderUsage()]
        if !description.isEmpty { blocks.append(Self.reflow(description, indent: 0)) }
        if !commands.isEmpty { blocks.append(Self.section(commandsHeading, items: commands)) }
        blocks.append(Self.section(Self.optionsHeading, items: options + [Self.helpOption]))
        for section in sections { blocks.append(Self.section(section.title, text: section.text, items: section.items)) }
        blocks.append(Self.section(Self.exitCodesHeading, items: exitCodes))
        if !examples.isEmpty {
            let lines = examples.split(separator: "\n").map { "  " + $0 }
            blocks.append(([Self.examplesHeading + ":"] + lines).joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n")
    }

    /// `Usage: ` and each form after the command, wrapped between bracketed groups under the form's first word.
    private func renderUsage() -> String {
        let lead = "Usage: "
        var lines: [String] = []
        for (k, form) in usage.enumerated() {
            let start = (k == 0 ? lead : String(repeating: " ", count: lead.count)) + command
            let hanging = String(repeating: " ", count: start.count + 1)
            var line = start
            for group in Self.usageGroups(form) {
                if line.count + 1 + group.count > Self.width, line.count > start.count {
                    lines.append(line)
                    line = hanging + group
                } else {
                    line += " " + group
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The words of a usage form, a bracketed or parenthesized group kept whole: `[--time S | --cases N]`.
    static func usageGroups(_ form: String) -> [String] {
        var groups: [String] = []
        var current = ""
        var depth = 0
        for character in form {
            if character == " ", depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if "[(".contains(character) { depth += 1 }
            if "])".contains(character) { depth = max(0, depth - 1) }
            current.append(character)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// A heading, then its text indented 2, then its list.
    public static func section(_ title: String, text: String = "", items: [Item] = []) -> String {
        var parts = ["\(title):"]
        if !text.isEmpty { parts.append(reflow(text, indent: 2)) }
        if !items.isEmpty { parts.append(list(items)) }
        return parts.joined(separator: "\n")
    }

    /// The items, each term indented 2 and each text in one column (see the type's rule).
    public static func list(_ items: [Item]) -> String {
        let termWidth = items.map(\.term.count).filter { $0 <= termLimit }.max() ?? 0
        let column = 2 + termWidth + 2
        var lines: [String] = []
        for item in items {
            let text = reflow(item.text, indent: column).split(separator: "\n", omittingEmptySubsequences: false)
            let term = "  " + item.term
            guard item.term.count <= termWidth, let first = text.first else {
                lines.append(term)
                lines += text.map(String.init)
                continue
            }
            lines.append(term.padding(toLength: column, withPad: " ", startingAt: 0) + first.dropFirst(column))
            lines += text.dropFirst().map(String.init)
        }
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }

    /// The words of a line, split at spaces outside backticks: a `code span` is never broken.
    public static func words(_ line: Substring) -> [Substring] {
        var words: [Substring] = []
        var start = line.startIndex
        var inCode = false
        for index in line.indices {
            if line[index] == "`" { inCode.toggle() }
            if line[index] == " ", !inCode {
                if start < index { words.append(line[start..<index]) }
                start = line.index(after: index)
            }
        }
        if start < line.endIndex { words.append(line[start...]) }
        return words
    }

    /// `text` reflowed to ``width`` with every line indented by `indent`: paragraphs (blank-line separated) are
    /// joined and wrapped again; a line that starts with a space is kept as it is.
    public static func reflow(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var words: [Substring] = []
        func flush() {
            var line = ""
            for word in words {
                if !line.isEmpty, indent + line.count + 1 + word.count > width {
                    lines.append(margin + line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            if !line.isEmpty { lines.append(margin + line) }
            words = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
                lines.append("")
            } else if line.hasPrefix(" ") {
                flush()
                lines.append(margin + line)
            } else {
                words += Self.words(line)
            }
        }
        flush()
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trailingSpacesRemoved: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
