import Conformance
import Foundation
import ShippedVectors
import StrictJSON
import _CommandSupport

/// `stc conformance add`: records a new case whose expectation the reference computes.
enum ConformanceAddCommand {
    static let help = HelpPage(
        "stc conformance add",
        usage: ["--op OP --input JSON [--suite FILE] [--id ID] [--tag TAG]... [--source TEXT] [--vectors PATH]..."],
        description: """
            Records a new conformance case whose expectation the reference computes now, so that a string that broke
            an app in the field becomes a permanent case for every implementation. Review the recorded expectation:
            if the reference is wrong, fix the reference and the case together.

            The file is rewritten atomically with one case per line. A case with the same op and input as an existing
            case, or an id already in use, is refused. A case added to corpus/conformance is built into stc (and run
            by a plain `stc conformance`) from the next build on.
            """,
        options: [
            .init("--op OP", "the operation (selection.decode, url.encode, …; see `stc adapter --help`)"),
            .init(
                "--input JSON",
                """
                the operation's input object, as JSON text. `@FILE` reads the JSON from FILE and `-` from standard
                input (handy for a multi-kilobyte stored selection)
                """),
            .init(
                "--suite FILE",
                """
                the suite file to add to (created when missing). Required, except at the root of stc's own
                repository, where the default is corpus/conformance/field-reports.json, a file no generator
                rewrites. Avoid the generated suites: `python3 scripts/make-vectors.py` rewrites those.
                """),
            .init("--id ID", "the case id (default: <suite>/<op>-<hash of the input>); must be unused in every suite"),
            .init("--tag TAG", "a tag (repeatable; default: field-report). Add `field-bug-N`, `malformed`, … as fits."),
            .init("--source TEXT", "where the case comes from (default: \"field report\")"),
            .init(
                "--vectors PATH",
                """
                suites whose ids and inputs must not be repeated besides --suite's own: a file, a directory of
                *.json suites, or `shipped`, the suites built into stc (as for stc conformance). Repeatable.
                Default: shipped; with --vectors, exactly those named.
                """),
        ],
        exitCodes: [
            .init("0", "added"), .init("1", "refused (duplicate or id in use)"),
            .init("2", "usage error or unreadable files"),
        ],
        examples: """
            stc conformance add --op selection.decode --input '{"base64":"e30"}' --tag field-bug-1 \\
                                --source "crash report 2026-11, app launch"
            """)

    static let command = Command(
        "add", summary: "record a new vector whose expectation the reference computes",
        syntax: CommandSyntax(options: [
            .value("--op", "OP"), .value("--input", "JSON"), .value("--suite", "FILE"), .value("--id", "ID"),
            .value("--tag", "TAG", repeats: true), .value("--source", "TEXT"),
            .value("--vectors", "PATH", repeats: true),
        ]),
        help: help, run: main)

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        var vectors = arguments.values("--vectors")
        guard let op = arguments.value("--op") else { throw UsageError("--op is required") }
        guard let inputText = arguments.value("--input") else { throw UsageError("--input is required") }
        let inputBytes: [UInt8]
        if inputText == "-" {
            inputBytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else if inputText.hasPrefix("@") {
            guard let data = FileManager.default.contents(atPath: String(inputText.dropFirst())) else {
                throw UsageError("cannot read \(inputText.dropFirst())")
            }
            inputBytes = Array(data)
        } else {
            inputBytes = Array(inputText.utf8)
        }
        let input: JSONValue
        do {
            input = try JSONParser.value(inputBytes)
        } catch {
            throw UsageError("--input is not JSON: \(error)")
        }
        guard case .object = input else { throw UsageError("--input must be a JSON object (the operation's input)") }
        let suitePath = try arguments.value("--suite") ?? defaultSuite()

        // Load every suite (for ids and duplicates), and the target suite itself.
        if vectors.isEmpty { vectors = [ShippedVectors.keyword] }
        // A directory without suites yet is fine here: the new case may be the first.
        vectors = vectors.filter { path in
            guard path != ShippedVectors.keyword else { return true }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return true
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.contains { $0.hasSuffix(".json") }
        }
        let existing =
            vectors.isEmpty ? [] : try ConformanceCommand.loadVectors(vectors, command: "stc conformance add")
        let fileName = URL(fileURLWithPath: suitePath).deletingPathExtension().lastPathComponent
        var suite = Suite(
            name: fileName, description: "Cases recorded from field reports with `stc conformance add`.",
            file: suitePath, cases: [])
        if FileManager.default.fileExists(atPath: suitePath) {
            do {
                let loaded = try SuiteLoader.load(paths: [suitePath])
                if let first = loaded.first { suite = first }
            } catch {
                throw CommandFailure(ConformanceCommand.loadFailure("invalid suite \(suitePath):", error))
            }
        }
        let standardized = URL(fileURLWithPath: suitePath).standardizedFileURL.path
        let others = existing.filter { URL(fileURLWithPath: $0.file).standardizedFileURL.path != standardized }
        let newCase: ConformanceCase
        do {
            let request = VectorAuthoring.Request(
                op: op, input: input, id: arguments.value("--id"), tags: arguments.values("--tag"),
                source: arguments.value("--source") ?? "field report")
            newCase = try VectorAuthoring.makeCase(request, suite: suite.name, existing: others + [suite])
        } catch {
            if case .unknownOperation = error { throw UsageError(error.description) }
            if case .invalidId = error { throw UsageError(error.description) }
            Console.error("stc conformance add: refused: \(error.description)")
            return 1
        }
        suite.cases.append(newCase)
        do {
            try ReportFile.writeAtomically(SuiteWriter.bytes(suite), to: suitePath)
        } catch {
            throw CommandFailure("cannot write \(suitePath): \(error.description)")
        }
        let expect = Escape.controls(JSONWriter.string(newCase.expect.json))
        Console.out("added \(newCase.id) to \(suitePath)\n  expect: \(expect)")
        return 0
    }

    /// `corpus/conformance/field-reports.json` at the root of stc's repository; elsewhere there is no default: the
    /// shipped suites are built into stc, and a new case needs a real file.
    static func defaultSuite() throws(UsageError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: ShippedVectors.sourceDirectory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw UsageError(
                "give --suite FILE, the suite file to add to (the shipped suites are built into stc; the default,"
                    + " \(ShippedVectors.sourceDirectory)/field-reports.json, is for the root of stc's repository)")
        }
        return ShippedVectors.sourceDirectory + "/field-reports.json"
    }
}
