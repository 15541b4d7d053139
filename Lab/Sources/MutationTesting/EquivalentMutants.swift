import Foundation

/// The checked-in list of mutants argued equivalent: no test can kill them, because the program they make
/// behaves as the original does.
///
/// Rules: one mutant per line, its stable id (``Mutant/id``), then whitespace, then the argument in one line;
/// `#` starts a comment line; blank lines are ignored. Every entry needs an argument, an id may appear once, and
/// every id must name a mutant the reference has now (``checked(against:)``): a list that names a mutant which
/// is gone is stale, and an error, so that an argument never outlives the code it was about.
///
/// ```text
/// Sources/ScreenTimeSelection/Token+Hashing.swift:constant:1a2b3c4d  a mixing constant: only bucket spread changes
/// ```
public struct EquivalentMutants: Sendable, Equatable {
    /// One entry: the argument, and the line it is on.
    public struct Entry: Sendable, Equatable {
        public var argument: String
        public var line: Int
    }

    /// Stable id → entry.
    public private(set) var entries: [String: Entry]
    /// The file the list came from, for errors.
    public var file: String

    public init(entries: [String: Entry] = [:], file: String = EquivalentMutants.defaultPath) {
        self.entries = entries
        self.file = file
    }

    /// Where the list lives in the package.
    public static let defaultPath = "Lab/Mutation/equivalent.txt"

    public func argument(for id: String) -> String? { entries[id]?.argument }
    public func contains(_ id: String) -> Bool { entries[id] != nil }
    /// The listed ids, sorted.
    public var ids: [String] { entries.keys.sorted() }

    /// Parses the list's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(MutationError) -> EquivalentMutants {
        var entries: [String: Entry] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let id = String(line.prefix { !$0.isWhitespace })
            let argument = line.dropFirst(id.count).trimmingCharacters(in: .whitespaces)
            let parts = id.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].hasSuffix(".swift"), MutationOperator(rawValue: String(parts[1])) != nil,
                !parts[2].isEmpty
            else {
                throw .equivalents(
                    file: file, line: index + 1, message: "'\(id)' is not a mutant id (FILE.swift:OPERATOR:HASH)")
            }
            guard !argument.isEmpty else {
                throw .equivalents(file: file, line: index + 1, message: "\(id) has no argument for its equivalence")
            }
            if let earlier = entries[id] {
                throw .equivalents(
                    file: file, line: index + 1, message: "\(id) is listed twice (first on line \(earlier.line))")
            }
            entries[id] = Entry(argument: argument, line: index + 1)
        }
        return EquivalentMutants(entries: entries, file: file)
    }

    /// Reads the list at `path`; a missing file is an empty list unless `required`.
    public static func load(_ path: String, required: Bool = false) throws(MutationError) -> EquivalentMutants {
        guard required || FileManager.default.fileExists(atPath: path) else { return EquivalentMutants(file: path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .io("cannot read \(path)") }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// The list, after checking that every id names one of `mutants`; the first stale entry (by line) is the
    /// error.
    public func checked(against mutants: [Mutant]) throws(MutationError) -> EquivalentMutants {
        let known = Set(mutants.map(\.id))
        let stale = entries.filter { !known.contains($0.key) }.sorted { $0.value.line < $1.value.line }
        if let (id, entry) = stale.first {
            throw .equivalents(
                file: file, line: entry.line,
                message: "\(id) names no mutant of the reference now (the code changed): remove the entry, or "
                    + "argue again for the mutant that replaced it" + (stale.count > 1 ? " (\(stale.count) stale)" : "")
            )
        }
        return self
    }
}
