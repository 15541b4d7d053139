import Foundation
import Testing
import _CommandSupport

@testable import stc

/// `stc --help` and every command's and subcommand's `--help`, run as the built binary, against golden files
/// in Tests/StcTests/Goldens/ (one per help text, named for the command path: `stc-fuzz-run.txt`).
///
/// When a help text changes on purpose, regenerate the goldens and review their diff:
///
///     STC_UPDATE_GOLDENS=1 swift test --filter HelpGoldenTests
@Suite struct HelpGoldenTests {
    static let regenerate = "STC_UPDATE_GOLDENS=1 swift test --filter HelpGoldenTests"
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var updating: Bool { ProcessInfo.processInfo.environment["STC_UPDATE_GOLDENS"] == "1" }
    static let paths = CommandTable.all.map(\.path)

    static func fileName(_ path: [String]) -> String { (["stc"] + path).joined(separator: "-") + ".txt" }

    @Test(arguments: paths)
    func helpMatchesItsGolden(path: [String]) throws {
        let run = try StcBinary.run(path + ["--help"])
        let shown = (["stc"] + path + ["--help"]).joined(separator: " ")
        #expect(run.status == 0 && run.stderr.isEmpty, "\(shown): exit \(run.status), \(run.stderr)")
        let golden = Self.directory.appendingPathComponent(Self.fileName(path))
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(run.stdout.utf8).write(to: golden, options: .atomic)
            return
        }
        guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
            Issue.record("no golden for \(shown) at \(golden.path); create it with: \(Self.regenerate)")
            return
        }
        if run.stdout != expected {
            Issue.record(
                """
                \(shown) differs from Goldens/\(Self.fileName(path)) (- golden, + now):
                \(Self.diff(expected, run.stdout))
                If the new text is right, regenerate the goldens with: \(Self.regenerate)
                """)
        }
    }

    /// `stc help PATH…` prints what `stc PATH… --help` prints.
    @Test(arguments: paths.filter { !$0.isEmpty })
    func helpCommandForwards(path: [String]) throws {
        #expect(try StcBinary.run(["help"] + path).stdout == StcBinary.run(path + ["--help"]).stdout)
    }

    /// Every golden belongs to a command: a command removed or renamed takes its golden with it.
    @Test func noGoldenIsStale() throws {
        let names = Set(Self.paths.map(Self.fileName))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".txt")
        }
        for file in files where !names.contains(file) {
            if Self.updating {
                try FileManager.default.removeItem(at: Self.directory.appendingPathComponent(file))
            } else {
                Issue.record("Goldens/\(file) belongs to no command; remove it, or run: \(Self.regenerate)")
            }
        }
    }

    /// The lines of `new` against those of `old`: ` ` kept, `-` only in old, `+` only in new (a longest common
    /// subsequence, which is plenty for a help text).
    static func diff(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append("  " + a[i])
                i += 1
                j += 1
            } else if i < a.count, j == b.count || common[i + 1][j] >= common[i][j + 1] {
                lines.append("- " + a[i])
                i += 1
            } else {
                lines.append("+ " + b[j])
                j += 1
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// What the help texts say about options agrees with what the commands declare.
@Suite struct HelpTextTests {
    /// The options a help text names, each with the word after it: in its usage lines (from `Usage:` to the
    /// first empty line) and in its option lines (an option at the start of a line indented 1 to 4 spaces).
    static func namedOptions(_ help: String) -> [(name: String, next: String?)] {
        var found: [(name: String, next: String?)] = []
        var inUsage = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Usage:") { inUsage = true }
            if line.isEmpty { inUsage = false }
            let indent = line.prefix { $0 == " " }.count
            let isOptionLine = (1...4).contains(indent) && line.dropFirst(indent).hasPrefix("--")
            guard inUsage || isOptionLine else { continue }
            // Words, and the brackets and bars of a usage line as words of their own: `[--json] [FILE]` gives
            // --json no placeholder.
            let words = line.map { "[]|".contains($0) ? " \($0) " : " (),`:'".contains($0) ? " " : String($0) }
                .joined().split(separator: " ").map(String.init)
            for (k, word) in words.enumerated() where word.hasPrefix("--") && word.count > 2 && word != "--help" {
                let name = String(word.prefix { $0 != "=" && $0 != "." && $0 != "…" })
                found.append((name, k + 1 < words.count ? words[k + 1] : nil))
            }
        }
        return found
    }

    static func isPlaceholder(_ word: String?) -> Bool {
        guard let word, let first = word.first else { return false }
        return first.isUppercase && word.allSatisfy { $0.isUppercase || $0 == "…" || $0 == "." || $0 == "-" }
    }

    @Test(arguments: CommandTable.all.map(\.path))
    func helpNamesTheDeclaredOptionsAndNoOthers(path: [String]) throws {
        let command = try #require(CommandTable.all.first { $0.path == path }?.command)
        let declared = Dictionary(uniqueKeysWithValues: command.syntax.options.map { ($0.name, $0) })
        // A group's help may describe options its subcommands share.
        let ofSubcommands = Set(command.subcommands.flatMap { $0.syntax.options.map(\.name) })
        let named = Self.namedOptions(command.help)
        let shown = (["stc"] + path).joined(separator: " ")
        for name in declared.keys where !named.contains(where: { $0.name == name }) {
            Issue.record("\(shown) --help does not mention \(name)")
        }
        for (name, next) in named {
            guard let option = declared[name] else {
                #expect(ofSubcommands.contains(name), "\(shown) --help names \(name), which it does not take")
                continue
            }
            // Where the help gives a placeholder, it is the declared one; a flag has none.
            if Self.isPlaceholder(next) || !option.takesValue {
                #expect(
                    next == option.placeholder || !Self.isPlaceholder(next) && !option.takesValue,
                    "\(shown) --help: \(name) \(next ?? "") but \(name) \(option.placeholder ?? "(a flag)") is declared"
                )
            }
        }
    }
}
