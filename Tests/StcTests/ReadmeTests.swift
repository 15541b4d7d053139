import Foundation
import Testing
import _CommandSupport

@testable import stc

/// README.md stays true to the code: its layout names every module, its commands table is `stc`'s commands, every
/// count it states is the code's, its sample outputs are what the commands print, and its links lead to files.
///
/// Rule (issue 30, item 10): a claim the README makes about the code is computed from the code here, or it is not
/// made. The counts checked, each against what `stc` itself reports:
/// - vectors (`N vectors`): the cases of the shipped suites, from `stc conformance`'s opening line;
/// - named properties (`N named properties`, `N properties`, `all N`): the lines of `stc check --list`;
/// - property families (`N families`): the distinct name prefixes (`shield.` …) of `stc check --list`, which is
///   also the number of `Properties/ReferenceProperties+<Family>.swift` files ("one file per family");
/// - libFuzzer targets (`N libFuzzer targets`): the lines of `stc fuzz list`, whose names the Fuzzing section
///   lists;
/// - field bugs (`N field bugs`): the distinct `field-bug-N` tags of `corpus/conformance/*.json`.
/// The sample outputs of `stc conformance` (suites, cases, assumptions, operations, per-suite rows) are checked
/// line by line against a real run. Any other number of such things in the README's prose fails
/// ``noCountGoesUnchecked()``: add it to ``claims`` or drop it.
///
/// ```swift
/// Readme.section("Layout", of: "# T\n## Layout\nSources/A\n## CI\n")   // "Sources/A\n"
/// ```
@Suite struct ReadmeTests {
    static let root = StcBinary.packageRoot
    static let text: String = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    // MARK: Layout

    @Test func layoutNamesEverySourcesModuleExactlyOnce() throws {
        let layout = try #require(Readme.section("Layout", of: Self.text), "README.md has no ## Layout section")
        let modules = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path
        )
        .filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: Self.root.appendingPathComponent("Sources/\(name)").path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        #expect(modules.count >= 10, "only \(modules.count) directories found under Sources/")
        let named = Readme.sourcesModules(in: layout)
        for module in modules.sorted() {
            let count = named.filter { $0 == module }.count
            #expect(count == 1, "README layout names Sources/\(module) \(count) times (once expected)")
        }
        for name in Set(named).subtracting(modules).sorted() {
            Issue.record("README layout names Sources/\(name), which is not a directory under Sources/")
        }
    }

    @Test func layoutListsTheRepositorysTopLevelParts() throws {
        let layout = try #require(Readme.section("Layout", of: Self.text))
        let lines = layout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        for part in [
            "SPEC.md", "LICENSE", "Package.swift", "Plugins/", "Tests/", "Fuzz/", "Lab/", "corpus/", "Examples/",
            "Guides/", "docs/", "docs/results/", "scripts/",
        ] {
            #expect(lines.contains(part), "README layout has no line for \(part)")
        }
        // Each reference of docs/ is named on the docs/ line.
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        #expect(!docs.isEmpty)
        for doc in docs.sorted() {
            #expect(layout.contains(doc), "README layout does not name docs/\(doc)")
        }
    }

    // MARK: Commands

    @Test func commandsTableIsExactlyStcsCommands() throws {
        let section = try #require(Readme.section("Commands", of: Self.text), "README.md has no ## Commands section")
        let rows = Readme.commandRows(in: section)
        #expect(!rows.isEmpty, "no `| \\`stc …\\` |` rows in the Commands table")
        let commands = CommandTable.commands.map(\.name)
        #expect(Set(rows.compactMap(\.first)) == Set(commands), "table \(rows), stc --help \(commands)")
        // A row naming a subcommand (`stc conformance add`) names one stc has.
        let paths = Set(CommandTable.root.all.map(\.path))
        for row in rows where !paths.contains(row) {
            Issue.record("README's commands table has `stc \(row.joined(separator: " "))`, which stc does not have")
        }
        // And the table is what the binary's help lists, not only what the table in the code says.
        let help = try StcBinary.run(["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        for command in commands {
            #expect(help.stdout.contains("\n  \(command)  "), "stc --help does not list \(command)")
        }
    }

    // MARK: Counts

    /// What the code says, once per test run.
    struct Facts {
        var vectors = 0
        var properties = 0
        var families = 0
        var propertyFiles = 0
        var fuzzTargets: [String] = []
        var fieldBugs = 0

        static func compute() throws -> Facts {
            var facts = Facts()
            let conformance = try StcBinary.run(["conformance"])
            let opening = try #require(
                conformance.stdout.firstMatch(of: #/(\d+) suite\(s\), (\d+) case\(s\)/#), "\(conformance.stdout)")
            facts.vectors = Int(opening.2)!

            let list = try StcBinary.run(["check", "--list"])
            #expect(list.status == 0, "\(list.stderr)")
            let names = list.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first }
            facts.properties = names.count
            facts.families = Set(names.compactMap { $0.split(separator: ".").first }).count
            facts.propertyFiles = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("Sources/ScreenTimeProperties/Properties").path
            ).filter { $0.hasPrefix("ReferenceProperties+") && $0.hasSuffix(".swift") }.count

            let fuzz = try StcBinary.run(["fuzz", "list"])
            #expect(fuzz.status == 0, "\(fuzz.stderr)")
            facts.fuzzTargets = fuzz.stdout.split(separator: "\n").compactMap {
                $0.split(separator: "\t").first.map(String.init)
            }

            let suites = root.appendingPathComponent("corpus/conformance")
            var tags: Set<String> = []
            for file in try FileManager.default.contentsOfDirectory(atPath: suites.path) where file.hasSuffix(".json") {
                let data = try Data(contentsOf: suites.appendingPathComponent(file))
                let suite = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                for case let entry as [String: Any] in suite["cases"] as? [Any] ?? [] {
                    tags.formUnion(
                        (entry["tags"] as? [String] ?? []).filter { $0.wholeMatch(of: #/field-bug-\d+/#) != nil })
                }
            }
            facts.fieldBugs = tags.count
            return facts
        }
    }

    /// A number the README states about the code: the pattern finds it (its first capture), `value` is the truth.
    struct Claim: Sendable {
        var what: String
        /// A regular expression whose first capture is the number.
        var pattern: String
        var value: @Sendable (Facts) -> Int

        var regex: Regex<(Substring, Substring)> { try! Regex(pattern, as: (Substring, Substring).self) }
    }

    static let number = Readme.numberPattern
    static let claims: [Claim] = [
        Claim(what: "vectors", pattern: "\\b(\(number)) vectors\\b", value: { $0.vectors }),
        Claim(
            what: "properties", pattern: "\\b(\(number)) (?:named )?properties\\b",
            value: { $0.properties }),
        Claim(
            what: "properties (all N)", pattern: "\\ball (\(number)), deep\\b",
            value: { $0.properties }),
        Claim(what: "families", pattern: "\\b(\(number)) families\\b", value: { $0.families }),
        Claim(
            what: "libFuzzer targets", pattern: "\\b(\(number)) libFuzzer targets\\b",
            value: { $0.fuzzTargets.count }),
        Claim(
            what: "field bugs", pattern: "\\b(\(number)) field bugs\\b", value: { $0.fieldBugs }),
    ]

    @Test func everyCountIsTheCodes() throws {
        let facts = try Facts.compute()
        #expect(facts.vectors > 0 && facts.properties > 0 && facts.fuzzTargets.count > 0 && facts.fieldBugs > 0)
        #expect(
            facts.families == facts.propertyFiles,
            "one file per family: \(facts.families) families, \(facts.propertyFiles) files")
        for claim in Self.claims {
            let matches = Self.text.matches(of: claim.regex)
            #expect(!matches.isEmpty, "README no longer states the number of \(claim.what): drop its claim here")
            for match in matches {
                let stated = Readme.value(of: String(match.1))
                #expect(
                    stated == claim.value(facts),
                    "README says \"\(match.0)\"; the code has \(claim.value(facts)) \(claim.what)")
            }
        }
        // The Fuzzing section names the targets `stc fuzz list` has, and only those.
        let fuzzing = try #require(Readme.section("Fuzzing", of: Self.text))
        let opening = fuzzing.split(separator: "\n\n").first.map(String.init) ?? ""
        let listed = opening.matches(of: #/`([a-z][a-z-]*)`/#).map { String($0.1) }.filter { $0 != "stc" }
        #expect(Set(listed) == Set(facts.fuzzTargets), "README lists \(listed); stc fuzz list: \(facts.fuzzTargets)")
    }

    @Test func noCountGoesUnchecked() {
        for problem in Readme.uncheckedCounts(in: Self.text, checked: Self.claims.map(\.regex)) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func theUncheckedCountGuardFindsACount() {
        let sample =
            "It has 12 named, documented deviations, all 43, deep, 563 vectors. Exit 0 when every case passes.\n"
        let problems = Readme.uncheckedCounts(in: sample, checked: Self.claims.map(\.regex))
        #expect(
            problems.count == 1 && problems.first?.contains("12 named, documented deviations") == true, "\(problems)")
        #expect(Readme.value(of: "Nine") == 9 && Readme.value(of: "563") == 563 && Readme.value(of: "thirteen") == 13)
    }

    // MARK: Sample outputs

    /// The sample outputs and the runs that print them: a fenced block whose first line starts with `marker` shows
    /// the output of `arguments`.
    static let samples: [(marker: String, arguments: [String])] = [
        ("stc conformance: ", ["conformance"]),
        (
            "== python (",
            [
                "conformance", "--no-reference", "--filter", "url-decode/*", "--adapter",
                "python3 Examples/python-adapter/adapter.py", "--name", "python",
            ]
        ),
    ]

    @Test(arguments: samples.indices) func sampleOutputIsWhatTheCommandPrints(index: Int) throws {
        let sample = Self.samples[index]
        let block = try #require(
            Readme.fencedBlocks(in: Self.text).first { $0.hasPrefix(sample.marker) },
            "README has no sample output starting \(sample.marker)")
        let run = try StcBinary.run(sample.arguments)
        let actual = run.stdout.split(separator: "\n").map(Readme.normalized)
        var next = actual.startIndex
        for line in block.split(separator: "\n").map(Readme.normalized) where !line.isEmpty && line != "…" {
            guard let found = actual[next...].firstIndex(of: line) else {
                Issue.record(
                    "README sample line not in `stc \(sample.arguments.joined(separator: " "))`'s output (in order): \(line)\n\(run.stdout)"
                )
                continue
            }
            next = found + 1
        }
    }

    // MARK: Links

    @Test func everyRelativeLinkResolves() {
        let links = Readme.relativeLinks(in: Self.text)
        #expect(links.count >= 10, "only \(links.count) relative links found: is the matching broken?")
        let anchors = Set(Readme.headingAnchors(in: Self.text))
        for link in links {
            let (path, anchor) = Readme.split(link)
            if path.isEmpty {
                #expect(anchors.contains(anchor ?? ""), "README links #\(anchor ?? ""), which no heading makes")
            } else {
                #expect(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                    "README links \(link), which is not in the repository")
            }
        }
    }

    @Test func everyQuotedPathExists() {
        let paths = Readme.quotedPaths(in: Self.text)
        #expect(paths.count >= 10, "only \(paths.count) quoted paths found: is the matching broken?")
        for path in paths {
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                "README quotes `\(path)`, which is not in the repository")
        }
    }

    @Test func helpersReadTheirForms() {
        let readme = """
            # Title
            ## Layout
            ```
            Sources/A                x, Sources/B/Sub, Lab/Sources/C
            Sources/_D, Sources/A
            ```
            See [the spec](SPEC.md), [CI](#ci), [web](https://example.com) and `Guides/X.md`, `corpus/<t>/`.
            ## CI
            text
            """
        let layout = Readme.section("Layout", of: readme) ?? ""
        #expect(Readme.sourcesModules(in: layout) == ["A", "B", "_D", "A"])
        #expect(Readme.relativeLinks(in: readme) == ["SPEC.md", "#ci"])
        #expect(Readme.headingAnchors(in: readme).contains("ci"))
        #expect(Readme.quotedPaths(in: readme) == ["Guides/X.md"])
        #expect(Readme.commandRows(in: "| `stc a` | x |\n| `stc a b` | y |\n| other | z |") == [["a"], ["a", "b"]])
        #expect(Readme.normalized("  == x: OK in 62 ms") == "== x: OK in _ ms")
    }
}

/// Reading README.md: its sections, code blocks, links and the numbers it states.
enum Readme {
    /// The text under `## title` up to the next `## ` heading, or nil.
    static func section(_ title: String, of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring("## \(title)")) else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    /// The module names of `Sources/<Name>` mentions, in order, one per mention; `Lab/Sources/…` is the lab's, not
    /// this package's.
    static func sourcesModules(in text: String) -> [String] {
        text.matches(of: #/(?:^|[^\w/.])Sources/([A-Za-z_][A-Za-z0-9_]*)/#.anchorsMatchLineEndings()).map {
            String($0.1)
        }
    }

    /// The command rows of a table: `| \`stc conformance add\` | …` gives `["conformance", "add"]`.
    static func commandRows(in text: String) -> [[String]] {
        text.matches(of: #/^\| `stc ([a-z -]+)` \|/#.anchorsMatchLineEndings()).map {
            $0.1.split(separator: " ").map(String.init)
        }
    }

    /// The contents of every fenced code block, without its fences.
    static func fencedBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The text outside fenced code blocks.
    static func prose(_ text: String) -> String {
        var inBlock = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inBlock.toggle()
                return false
            }
            return !inBlock
        }.joined(separator: "\n")
    }

    /// A line of output compared as the README shows it: durations vary, and so does column padding's width.
    static func normalized(_ line: Substring) -> String {
        line.replacing(#/in \d+(\.\d+)? m?s\b/#, with: "in _ ms").split(separator: " ").joined(separator: " ")
    }

    /// The targets of Markdown links that are neither absolute URLs nor mail addresses.
    static func relativeLinks(in text: String) -> [String] {
        prose(text).matches(of: #/\]\(([^)\s]+)\)/#).map { String($0.1) }.filter {
            !$0.contains("://") && !$0.hasPrefix("mailto:")
        }
    }

    /// A link's path and its `#anchor`.
    static func split(_ link: String) -> (path: String, anchor: String?) {
        guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
        return (String(link[..<hash]), String(link[link.index(after: hash)...]))
    }

    /// The anchors GitHub gives the headings: lower case, spaces as `-`, punctuation other than `-` and `_` dropped.
    static func headingAnchors(in text: String) -> [String] {
        prose(text).split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
            let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(
                title.compactMap { (character: Character) -> Character? in
                    if character == " " { return "-" }
                    return character.isLetter || character.isNumber || "-_".contains(character) ? character : nil
                })
        }
    }

    /// Paths of the repository quoted in backticks in the prose (`Guides/Exploring.md`, `scripts/check-plugin.sh`):
    /// the ones under a top-level directory, without placeholders (`<target>`), globs or an ellipsis.
    static func quotedPaths(in text: String) -> [String] {
        let top =
            "(?:Sources|Tests|Guides|Examples|docs|scripts|corpus|Fuzz|Lab|Plugins|\\.ci|\\.github|\\.clusterfuzzlite)"
        let pattern = try! Regex("`(\(top)/[^`\\s]*)`")
        return prose(text).matches(of: pattern).compactMap { match -> String? in
            let path = String(match.output[1].substring ?? "")
            return path.contains(where: { "<>*…$".contains($0) }) ? nil : path
        }
    }

    // MARK: Numbers

    static let words = [
        "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
        "eighteen": 18, "nineteen": 19, "twenty": 20, "twenty-one": 21, "twenty-two": 22, "twenty-three": 23,
        "twenty-four": 24, "twenty-five": 25, "twenty-six": 26, "twenty-seven": 27, "twenty-eight": 28,
        "twenty-nine": 29,
    ]

    /// A number as the README writes one: digits, or a word from two to twenty-nine ("one" is grammar, not a
    /// count), case-insensitive; the longest words first, so that "twenty-two" is read whole, never as its "two".
    static let numberPattern =
        "\\d[\\d,_]*|(?i:" + words.keys.sorted { ($0.count, $0) > ($1.count, $1) }.joined(separator: "|") + ")"

    /// The value of a number matched by ``numberPattern``.
    static func value(of number: String) -> Int? {
        words[number.lowercased()] ?? Int(number.filter(\.isNumber))
    }

    /// The things whose number the README must not state unchecked: what the code defines and could count.
    static let countedThings = [
        "vectors?", "cases?", "suites?", "propert(?:y|ies)", "famil(?:y|ies)", "targets?", "field bugs?", "bugs?",
        "operations?", "modules?", "products?", "commands?", "challenges?", "deviations?", "examples?",
        "adapters?", "files?", "lines?", "guides?", "closures?", "codes?", "rules?",
    ]

    /// Words that end a count's phrase: "exit 0 when every case passes" states no number of cases.
    static let grammar = "when|if|on|of|or|and|every|each|per|the|a|an|to|in|for|with"

    /// "N thing" (with up to two words between, as in "12 named, documented deviations") in the prose that no
    /// checked pattern covers.
    static func uncheckedCounts(in text: String, checked: [Regex<(Substring, Substring)>]) -> [String] {
        let prose = prose(text)
        let covered = checked.flatMap { prose.matches(of: $0).map(\.range) }
        let pattern = try! Regex(
            "\\b(?:\(numberPattern))(?:-line)?\\s+(?:(?!(?:\(grammar))\\b)[A-Za-z-]+,?\\s+){0,2}?(?:\(countedThings.joined(separator: "|")))\\b"
        )
        return prose.matches(of: pattern).filter { match in
            !covered.contains { $0.overlaps(match.range) }
        }.map { "README states \"\($0.output[0].substring ?? "")\": check the number in ReadmeTests.claims or drop it" }
    }
}
