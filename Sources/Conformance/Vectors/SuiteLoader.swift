import Foundation
import StrictJSON

/// A problem in a suite file, with its position: `file:line:column: (byte N) message`.
public struct SuiteLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// Byte offset in the file, when the problem has a position.
    public var offset: Int?
    public var line: Int?
    public var column: Int?
    public var message: String

    /// A problem; each argument is the property of the same name.
    ///
    /// - Parameters:
    ///   - file: The suite file.
    ///   - offset: The byte offset, when the problem has a position.
    ///   - line: Its line, from 1.
    ///   - column: Its byte column, from 1.
    ///   - message: What is wrong.
    public init(file: String, offset: Int? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    public var location: String {
        guard let offset, let line, let column else { return file }
        return "\(file):\(line):\(column) (byte \(offset))"
    }

    public var description: String { "\(location): \(message)" }
}

/// Every problem found while loading suites (loading goes on after the first, so one run shows them all).
public struct SuiteLoadFailure: Error, Sendable, CustomStringConvertible {
    public var errors: [SuiteLoadError]
    /// A failure holding every problem found.
    ///
    /// - Parameter errors: The problems, in the order found.
    public init(_ errors: [SuiteLoadError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Reads suite files (`SPEC.md` §5) and checks them strictly.
///
/// Rules: the file is one JSON object with exactly `suite` (non-empty string), `schema` (the number 1),
/// `cases` (array) and optionally `description` (string). Each case is an object with exactly `id`, `op`, `input`,
/// `expect`, `tags` (array of strings) and `source` (string); `expect` is `{"error": CODE}` or `{"output": OBJECT}`,
/// never both. Unknown members are errors (they are nearly always typos). A key repeated in one object is an error.
/// Ids are non-empty, free of whitespace, control characters and `#`, and unique across every suite loaded together;
/// suite names are unique too.
public enum SuiteLoader {
    public static let schemaVersion = 1
    /// Stop collecting after this many problems.
    public static let maxErrors = 100

    /// Loads each path: a file, or a directory whose `*.json` files (not recursive, sorted by name) are suites.
    ///
    /// - Parameter paths: Files and directories.
    /// - Returns: The suites, in the order of `paths`.
    /// - Throws: ``SuiteLoadFailure`` with every problem of every path.
    public static func load(paths: [String]) throws(SuiteLoadFailure) -> [Suite] {
        try parse(read(paths: paths))
    }

    /// The bytes of each suite file that `paths` name (a file, or a directory's `*.json` files sorted by name),
    /// each file once, for ``parse(_:)``: a caller can put suites of its own beside them before parsing.
    ///
    /// - Parameter paths: Files and directories.
    /// - Returns: Each file's name and bytes.
    /// - Throws: ``SuiteLoadFailure`` when a path cannot be read.
    public static func read(paths: [String]) throws(SuiteLoadFailure) -> [(file: String, bytes: [UInt8])] {
        var errors: [SuiteLoadError] = []
        var files: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                errors.append(SuiteLoadError(file: path, message: "no such file or directory"))
                continue
            }
            if isDirectory.boolValue {
                guard let names = try? fm.contentsOfDirectory(atPath: path) else {
                    errors.append(SuiteLoadError(file: path, message: "cannot list the directory"))
                    continue
                }
                let suites = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
                if suites.isEmpty {
                    errors.append(SuiteLoadError(file: path, message: "the directory holds no *.json suite files"))
                }
                let base = path.hasSuffix("/") ? path : path + "/"
                files.append(contentsOf: suites.map { base + $0 })
            } else {
                files.append(path)
            }
        }
        var sources: [(file: String, bytes: [UInt8])] = []
        for file in files where !sources.contains(where: { $0.file == file }) {
            guard let data = fm.contents(atPath: file) else {
                errors.append(SuiteLoadError(file: file, message: "cannot read the file"))
                continue
            }
            sources.append((file, [UInt8](data)))
        }
        if !errors.isEmpty { throw SuiteLoadFailure(errors) }
        return sources
    }

    /// Parses already-read suite files and checks ids and suite names across all of them.
    ///
    /// - Parameter sources: Each file's name and bytes.
    /// - Returns: The suites, in the order given.
    /// - Throws: ``SuiteLoadFailure`` with every problem of every file.
    public static func parse(_ sources: [(file: String, bytes: [UInt8])]) throws(SuiteLoadFailure) -> [Suite] {
        var errors: [SuiteLoadError] = []
        var suites: [Suite] = []
        // id → (source index, suite index in `suites`, case index)
        var seenIds: [String: (source: Int, caseIndex: Int)] = [:]
        var seenSuites: [String: Int] = [:]
        for (sourceIndex, source) in sources.enumerated() {
            var fileErrors: [SuiteLoadError] = []
            guard let suite = parseSuite(source.bytes, file: source.file, errors: &fileErrors) else {
                errors.append(contentsOf: fileErrors)
                continue
            }
            errors.append(contentsOf: fileErrors)
            if let first = seenSuites[suite.name] {
                errors.append(
                    error(
                        source.file, source.bytes, [.key("suite")],
                        "duplicate suite name \"\(suite.name)\" (also in \(sources[first].file))"))
            } else {
                seenSuites[suite.name] = sourceIndex
            }
            for (caseIndex, c) in suite.cases.enumerated() {
                if let first = seenIds[c.id] {
                    let firstSource = sources[first.source]
                    let firstError = error(
                        firstSource.file, firstSource.bytes, [.key("cases"), .index(first.caseIndex), .key("id")], "")
                    errors.append(
                        error(
                            source.file, source.bytes, [.key("cases"), .index(caseIndex), .key("id")],
                            "duplicate case id \"\(c.id)\" (first defined at \(firstError.location))"))
                } else {
                    seenIds[c.id] = (sourceIndex, caseIndex)
                }
            }
            suites.append(suite)
            if errors.count >= maxErrors { break }
        }
        if !errors.isEmpty { throw SuiteLoadFailure(Array(errors.prefix(maxErrors))) }
        return suites
    }

    /// Parses one suite file's bytes. `nil` when the file is unusable; `errors` holds every problem found.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The name errors show.
    ///   - errors: Where each problem found is added.
    /// - Returns: The suite, or `nil`.
    public static func parseSuite(_ bytes: [UInt8], file: String, errors: inout [SuiteLoadError]) -> Suite? {
        let parsed: JSONParser.Parsed
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            let (line, column) = JSONLocator.lineAndColumn(of: error.offset, in: bytes)
            errors.append(
                SuiteLoadError(
                    file: file, offset: error.offset, line: line, column: column,
                    message: "not valid JSON: \(error.reason.rawValue)"))
            return nil
        }
        if let duplicate = parsed.firstDuplicateKeyOffset {
            let (line, column) = JSONLocator.lineAndColumn(of: duplicate, in: bytes)
            errors.append(
                SuiteLoadError(
                    file: file, offset: duplicate, line: line, column: column,
                    message: "a key is repeated in one object"))
            return nil
        }
        func fail(_ path: [JSONPathComponent], _ message: String) {
            errors.append(error(file, bytes, path, message))
        }
        guard case .object(let top) = parsed.value else {
            fail([], "a suite file must be a JSON object, not \(parsed.value.typeName)")
            return nil
        }
        for key in top.keys.sorted() where !["suite", "schema", "description", "cases"].contains(key) {
            fail([.key(key)], "unknown member \"\(key)\" (a suite has suite, schema, description, cases)")
        }
        var ok = true
        var name = ""
        switch top["suite"] {
        case .string(let s) where !s.isEmpty: name = s
        case nil:
            fail([], "missing \"suite\" (the suite's name)")
            ok = false
        case let other?:
            fail([.key("suite")], "\"suite\" must be a non-empty string, not \(describe(other))")
            ok = false
        }
        switch top["schema"] {
        case .number(let n) where n == Double(schemaVersion): break
        case nil:
            fail([], "missing \"schema\" (must be \(schemaVersion))")
            ok = false
        case let other?:
            fail(
                [.key("schema")], "unsupported \"schema\" \(describe(other)); this runner reads schema \(schemaVersion)"
            )
            ok = false
        }
        var description = ""
        switch top["description"] {
        case nil: break
        case .string(let s): description = s
        case let other?: fail([.key("description")], "\"description\" must be a string, not \(other.typeName)")
        }
        guard case .array(let rawCases)? = top["cases"] else {
            if let other = top["cases"] {
                fail([.key("cases")], "\"cases\" must be an array, not \(other.typeName)")
            } else {
                fail([], "missing \"cases\"")
            }
            return nil
        }
        guard ok else { return nil }
        var cases: [ConformanceCase] = []
        cases.reserveCapacity(rawCases.count)
        for (index, raw) in rawCases.enumerated() {
            if let c = parseCase(raw, suite: name, path: [.key("cases"), .index(index)], fail: fail) {
                cases.append(c)
            }
            if errors.count >= maxErrors { break }
        }
        guard cases.count == rawCases.count else { return nil }
        return Suite(name: name, description: description, file: file, cases: cases)
    }

    private static let caseKeys: Set<String> = ["id", "op", "input", "expect", "tags", "source"]

    private static func parseCase(
        _ raw: JSONValue, suite: String, path: [JSONPathComponent],
        fail: ([JSONPathComponent], String) -> Void
    ) -> ConformanceCase? {
        guard case .object(let members) = raw else {
            fail(path, "a case must be an object, not \(raw.typeName)")
            return nil
        }
        var ok = true
        for key in members.keys.sorted() where !caseKeys.contains(key) {
            fail(path + [.key(key)], "unknown case member \"\(key)\" (a case has id, op, input, expect, tags, source)")
            ok = false
        }
        func string(_ key: String, allowEmpty: Bool) -> String? {
            switch members[key] {
            case .string(let s) where allowEmpty || !s.isEmpty: return s
            case nil: fail(path, "case lacks \"\(key)\"")
            case let other?:
                fail(
                    path + [.key(key)],
                    "\"\(key)\" must be a\(allowEmpty ? "" : " non-empty") string, not \(describe(other))")
            }
            ok = false
            return nil
        }
        let id = string("id", allowEmpty: false)
        if let id,
            let bad = id.unicodeScalars.first(where: {
                $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "#"
            })
        {
            fail(
                path + [.key("id")],
                "id \"\(id)\" holds \(bad == "#" ? "#" : "whitespace or a control character") (U+\(String(bad.value, radix: 16, uppercase: true))), which an expected-failures line cannot hold"
            )
            ok = false
        }
        let op = string("op", allowEmpty: false)
        let source = string("source", allowEmpty: true)
        let input = members["input"]
        if input == nil {
            fail(path, "case lacks \"input\"")
            ok = false
        }
        var tags: [String] = []
        switch members["tags"] {
        case .array(let elements):
            for (i, e) in elements.enumerated() {
                if let s = e.stringValue {
                    tags.append(s)
                } else {
                    fail(path + [.key("tags"), .index(i)], "a tag must be a string, not \(e.typeName)")
                    ok = false
                }
            }
        case nil:
            fail(path, "case lacks \"tags\" (an array of strings, may be empty)")
            ok = false
        case let other?:
            fail(path + [.key("tags")], "\"tags\" must be an array of strings, not \(other.typeName)")
            ok = false
        }
        var expect: Expectation?
        switch members["expect"] {
        case .object(let e):
            let expectPath = path + [.key("expect")]
            for key in e.keys.sorted() where key != "error" && key != "output" {
                fail(expectPath + [.key(key)], "unknown member \"\(key)\" in expect (it has either error or output)")
                ok = false
            }
            switch (e["error"], e["output"]) {
            case (.string(let code)?, nil) where !code.isEmpty: expect = .error(code)
            case (let code?, nil):
                fail(expectPath + [.key("error")], "expect.error must be a non-empty string, not \(describe(code))")
            case (nil, .object(let output)?): expect = .output(output)
            case (nil, let output?):
                fail(expectPath + [.key("output")], "expect.output must be an object, not \(output.typeName)")
            case (nil, nil): fail(expectPath, "expect has neither \"error\" nor \"output\"")
            case (_?, _?): fail(expectPath, "expect has both \"error\" and \"output\"; it must have exactly one")
            }
        case nil: fail(path, "case lacks \"expect\"")
        case let other?: fail(path + [.key("expect")], "\"expect\" must be an object, not \(other.typeName)")
        }
        guard ok, let id, let op, let source, let input, let expect else { return nil }
        return ConformanceCase(id: id, suite: suite, op: op, input: input, expect: expect, tags: tags, source: source)
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s.isEmpty ? "an empty string" : "\"\(s.prefix(40))\""
        case .number, .bool, .null: return value.description
        default: return value.typeName
        }
    }

    private static func error(_ file: String, _ bytes: [UInt8], _ path: [JSONPathComponent], _ message: String)
        -> SuiteLoadError
    {
        let offset = JSONLocator.offset(of: path, in: bytes)
        let (line, column) = JSONLocator.lineAndColumn(of: offset, in: bytes)
        return SuiteLoadError(file: file, offset: offset, line: line, column: column, message: message)
    }
}
