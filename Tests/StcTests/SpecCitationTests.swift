import Foundation
import Testing

/// Every citation of the contract in the repository names a section that `SPEC.md` defines, and the contract and
/// the license are there at all (a fresh clone has nothing outside the repository).
///
/// Rule: a citation is `SPEC` or `SPEC.md`, optionally in backticks or as a Markdown link (`[SPEC.md](../SPEC.md)`),
/// then a space and `§N` or `§N.M`; a list that follows directly (`, §M`, `–§M`, ` and §M`, ` or §M`) cites those
/// sections too. Sections of other documents (`RFC 4648 §3.5`) are not SPEC citations, and a bare `§N` is not
/// read as one. The sections are the numbers of SPEC.md's headings (`## §5 …`, `### §5.1 …`). Source: `SPEC.md`
/// (its opening says how to cite it).
///
/// ```swift
/// SpecCitations.sections(citedIn: "see `SPEC.md` §1, §5; RFC 4648 §3.5")   // ["1", "5"]
/// ```
@Suite struct SpecCitationTests {
    static let root = StcBinary.packageRoot

    /// Where citations are looked for: the code, its tests, the guides, examples, docs, scripts, the vectors'
    /// `source` fields, the fuzz package and the plugins.
    static let scannedDirectories = [
        "Sources", "Tests", "Guides", "Examples", "docs", "scripts", "corpus/conformance", "Fuzz", "Plugins",
    ]
    static let scannedFiles = ["README.md", "Package.swift"]

    @Test func specAndLicenseAreInTheRepository() throws {
        let spec = try String(contentsOf: Self.root.appendingPathComponent("SPEC.md"), encoding: .utf8)
        let sections = SpecCitations.sections(definedIn: spec)
        let expected = (1...7).map(String.init) + (1...8).map { "7.\($0)" }
        #expect(Set(expected).isSubset(of: Set(sections)), "SPEC.md lacks some of §1…§7, §7.1…§7.8: \(sections)")
        #expect(sections.count == Set(sections).count, "a section number heads two sections: \(sections)")

        let license = try String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
    }

    @Test func everyCitationNamesASectionOfSpec() throws {
        let spec = try String(contentsOf: Self.root.appendingPathComponent("SPEC.md"), encoding: .utf8)
        let sections = Set(SpecCitations.sections(definedIn: spec))
        var citations: [SpecCitations.Citation] = []
        for path in SpecCitations.files(under: Self.scannedDirectories, and: Self.scannedFiles, in: Self.root) {
            let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
            citations += SpecCitations.citations(in: Array(data), file: path)
        }
        // The matching must not silently match nothing: the repository cites SPEC far more often than this.
        #expect(citations.count >= 100, "only \(citations.count) SPEC citations found: is the matching broken?")
        #expect(Set(citations.map(\.file)).count >= 30, "citations found in too few files")
        for problem in SpecCitations.problems(citations, sections: sections) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func extractorReadsEveryForm() {
        let cases: [(line: String, sections: [String])] = [
            ("/// (`SPEC.md` §5).", ["5"]),
            ("The contract is SPEC.md §3, read it.", ["3"]),
            ("// Source: SPEC §1, §7.3.", ["1", "7.3"]),
            ("// Selection (SPEC §7.1–§7.4).", ["7.1", "7.4"]),
            ("see [SPEC.md](../SPEC.md) §5 for the protocol", ["5"]),
            ("see [`SPEC.md`](../SPEC.md) §2 and §3", ["2", "3"]),
            ("SPEC.md §5.2 or §5.3", ["5.2", "5.3"]),
            (#""source":"SPEC §4; RFC 3986 §2.1, §2.3"}"#, ["4"]),
            ("## Encoding (SPEC §4, RFC 3986 §2.1, §2.3)", ["4"]),
            ("canonical base64 (RFC 4648 §3.5), then §2", []),
            ("INSPECT §3 is not SPEC; nor is SPECS §3", []),
            ("`SPEC.md` §1–§4 define the answers, and §5 the shapes", ["1", "4"]),
            ("the end of a sentence: SPEC §6.", ["6"]),
        ]
        for (line, expected) in cases {
            #expect(SpecCitations.sections(citedIn: line) == expected, "\(line)")
        }
    }

    @Test func anUnknownSectionIsReportedWithFileAndLine() {
        let spec = "# Title\n\n## §1 One\n\n```\n## §8 inside a code block\n```\n\n### §5.2 Five, part two\n## 2. Two\n"
        #expect(SpecCitations.sections(definedIn: spec) == ["1", "5.2", "2"])
        // Built from pieces so that this file's own scan does not read the bad citation as one.
        let text = "fine: SPEC §5.2 and §2\n" + "bad: " + "SPEC" + " §1, §9\n"
        let citations = SpecCitations.citations(in: Array(text.utf8), file: "Sample.swift")
        #expect(citations.map(\.section) == ["5.2", "2", "1", "9"])
        #expect(
            SpecCitations.problems(citations, sections: ["1", "5.2", "2"])
                == ["Sample.swift:2: cites " + "SPEC" + " §9, which no heading of SPEC.md defines"])
    }
}

/// Finding `SPEC.md` citations in text and the sections `SPEC.md` defines (the rules are on
/// ``SpecCitationTests``).
enum SpecCitations {
    struct Citation: Equatable {
        /// The path from the package root.
        var file: String
        /// From 1.
        var line: Int
        /// `5`, `7.3`.
        var section: String
    }

    /// The file extensions scanned: source, scripts and text, never binary corpus files.
    static let textExtensions: Set<String> = ["swift", "md", "py", "sh", "mjs", "js", "json", "txt"]

    /// The text files under `directories` and the `files` that exist, as paths from `root`, sorted. Hidden files and
    /// directories (`.build`) and symbolic links (`Sources/ShippedVectors/Suites` is `corpus/conformance` again)
    /// are skipped.
    static func files(under directories: [String], and files: [String], in root: URL) -> [String] {
        let manager = FileManager.default
        var paths = files.filter { manager.fileExists(atPath: root.appendingPathComponent($0).path) }
        for directory in directories {
            let base = root.appendingPathComponent(directory)
            guard
                let walk = manager.enumerator(
                    at: base, includingPropertiesForKeys: [.isSymbolicLinkKey, .isRegularFileKey],
                    options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walk {
                let values = try? url.resourceValues(forKeys: [.isSymbolicLinkKey, .isRegularFileKey])
                if values?.isSymbolicLink == true {
                    walk.skipDescendants()
                    continue
                }
                guard values?.isRegularFile == true, textExtensions.contains(url.pathExtension) else { continue }
                let relative = url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count)
                paths.append(directory + relative)
            }
        }
        return paths.sorted()
    }

    /// The section numbers of `spec`'s headings, in order: a line of `#`s, a space, an optional `§`, then the
    /// number (`## §5 Conformance`, `### §7.1 …`, `## 2. Two`). Lines inside fenced code blocks are not headings.
    static func sections(definedIn spec: String) -> [String] {
        var sections: [String] = []
        var inFence = false
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence, line.hasPrefix("#") else { continue }
            var rest = line.drop(while: { $0 == "#" })
            guard rest.first == " " else { continue }
            rest = rest.drop(while: { $0 == " " })
            if rest.first == "§" { rest = rest.dropFirst() }
            let bytes = ArraySlice(Array(rest.utf8))
            if let heading = number(in: bytes, at: bytes.startIndex) { sections.append(heading.number) }
        }
        return sections
    }

    /// Every citation in a file's bytes, line by line.
    static func citations(in bytes: [UInt8], file: String) -> [Citation] {
        var found: [Citation] = []
        var lineNumber = 0
        for line in bytes.split(separator: newline, omittingEmptySubsequences: false) {
            lineNumber += 1
            for section in sections(citedIn: line) {
                found.append(Citation(file: file, line: lineNumber, section: section))
            }
        }
        return found
    }

    /// The sections one line cites, in order.
    static func sections(citedIn line: String) -> [String] { sections(citedIn: ArraySlice(Array(line.utf8))) }

    static func sections(citedIn line: ArraySlice<UInt8>) -> [String] {
        var found: [String] = []
        var index = line.startIndex
        while let start = find(spec, in: line, from: index) {
            index = start + spec.count
            if start > line.startIndex, isWordByte(line[start - 1]) { continue }
            var position = index
            if has(dotMD, in: line, at: position) { position += dotMD.count }
            if position < line.endIndex, line[position] == backtick { position += 1 }
            if has(linkMiddle, in: line, at: position) {
                guard let close = line[(position + linkMiddle.count)...].firstIndex(of: closingParenthesis) else {
                    continue
                }
                position = close + 1
            }
            guard position < line.endIndex, line[position] == space else { continue }
            while position < line.endIndex, line[position] == space { position += 1 }
            guard let first = citedSection(in: line, at: position) else { continue }
            found.append(first.number)
            var end = first.end
            // A list that follows directly cites more sections of the same document.
            while let next = afterListSeparator(in: line, at: end), let more = citedSection(in: line, at: next) {
                found.append(more.number)
                end = more.end
            }
            index = end
        }
        return found
    }

    /// One message per citation of a section that is not in `sections`: `file:line: cites SPEC §N, …`.
    static func problems(_ citations: [Citation], sections: Set<String>) -> [String] {
        citations.filter { !sections.contains($0.section) }.map {
            "\($0.file):\($0.line): cites SPEC §\($0.section), which no heading of SPEC.md defines"
        }
    }

    // MARK: Bytes

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let backtick = UInt8(ascii: "`")
    private static let closingParenthesis = UInt8(ascii: ")")
    private static let spec = Array("SPEC".utf8)
    private static let dotMD = Array(".md".utf8)
    private static let linkMiddle = Array("](".utf8)
    private static let sectionSign = Array("§".utf8)
    private static let listSeparators = [",", "–", "-", "and", "or"].map { Array($0.utf8) }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_")
    }

    private static func has(_ word: [UInt8], in line: ArraySlice<UInt8>, at index: Int) -> Bool {
        line.endIndex - index >= word.count && line[index..<(index + word.count)].elementsEqual(word)
    }

    private static func find(_ word: [UInt8], in line: ArraySlice<UInt8>, from index: Int) -> Int? {
        var index = index
        while index + word.count <= line.endIndex {
            if line[index] == word[0], has(word, in: line, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// `§N` or `§N.M…` at `index`: the number and the index after it.
    private static func citedSection(in line: ArraySlice<UInt8>, at index: Int) -> (number: String, end: Int)? {
        guard has(sectionSign, in: line, at: index) else { return nil }
        return number(in: line, at: index + sectionSign.count)
    }

    /// Digits, then `.digits` groups, at `index` (a `.` not followed by a digit ends the number: `§6.`).
    private static func number(in line: ArraySlice<UInt8>, at index: Int) -> (number: String, end: Int)? {
        func digitsEnd(_ from: Int) -> Int {
            var end = from
            while end < line.endIndex, line[end] >= 0x30, line[end] <= 0x39 { end += 1 }
            return end
        }
        var end = digitsEnd(index)
        guard end > index else { return nil }
        while end < line.endIndex, line[end] == UInt8(ascii: "."), digitsEnd(end + 1) > end + 1 {
            end = digitsEnd(end + 1)
        }
        return (String(decoding: line[index..<end], as: UTF8.self), end)
    }

    /// After `, `, `–`, `-`, ` and `, ` or ` at `index` (spaces around allowed): where the next item would start.
    private static func afterListSeparator(in line: ArraySlice<UInt8>, at index: Int) -> Int? {
        var position = index
        while position < line.endIndex, line[position] == space { position += 1 }
        guard let separator = listSeparators.first(where: { has($0, in: line, at: position) }) else { return nil }
        position += separator.count
        while position < line.endIndex, line[position] == space { position += 1 }
        return position
    }
}
