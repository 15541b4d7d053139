import Foundation

/// A list of case ids that an implementation is known to fail (like protobuf's `failure_list_*.txt`).
///
/// Format: plain UTF-8 text, one case id per line; `#` starts a comment (to the end of the line); blank lines
/// and surrounding whitespace are ignored. A line holding more than one word is an error. The list is strict
/// both ways: a listed case that fails is an *expected failure* (it does not fail the run), a listed case that
/// passes is *unexpectedly passing* (it fails the run until its line is removed), and a listed id that names no
/// loaded case is *unknown* (it fails the run too: the list is stale). A listed case left out by `--filter` is
/// neither.
public struct ExpectedFailures: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var line: Int
    }

    public var file: String
    /// Every entry in file order, repeats included.
    public var entries: [Entry]
    public var ids: Set<String>

    /// Entries that repeat an earlier id (reported as notes; harmless).
    public var repeats: [Entry] {
        var seen: Set<String> = []
        return entries.filter { !seen.insert($0.id).inserted }
    }

    /// A list of the given ids, numbered from line 1.
    ///
    /// - Parameters:
    ///   - file: The name reports show for the list.
    ///   - ids: The case ids.
    public init(file: String = "", ids: [String]) {
        self.file = file
        self.entries = ids.enumerated().map { Entry(id: $0.element, line: $0.offset + 1) }
        self.ids = Set(ids)
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
    }

    /// Parses a list: one case id a line, `#` starts a comment, blank lines are skipped.
    ///
    /// - Parameters:
    ///   - text: The list's text.
    ///   - file: The name reports and errors show.
    /// - Returns: The list.
    /// - Throws: ``ParseError`` for a line that holds more than one id.
    public static func parse(_ text: String, file: String) throws(ParseError) -> ExpectedFailures {
        var entries: [Entry] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0.isWhitespace })
            if words.isEmpty { continue }
            guard words.count == 1 else {
                throw ParseError(
                    file: file, line: lineNumber,
                    message: "one case id per line (found \(words.count) words; use # for comments)")
            }
            entries.append(Entry(id: String(words[0]), line: lineNumber))
        }
        var list = ExpectedFailures(file: file, ids: [])
        list.entries = entries
        list.ids = Set(entries.map(\.id))
        return list
    }

    /// Reads and parses the list at `path`.
    ///
    /// - Parameter path: The list's file.
    /// - Returns: The list.
    /// - Throws: ``ParseError`` when the file cannot be read or a line is malformed.
    public static func load(path: String) throws(ParseError) -> ExpectedFailures {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ParseError(file: path, line: 0, message: "cannot read the expected-failures file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ParseError(file: path, line: 0, message: "the expected-failures file is not UTF-8")
        }
        return try parse(text, file: path)
    }
}
