import Conformance
import Foundation
import StrictJSON

/// `stc conformance add`: records a new case whose expectation the reference computes.
enum ConformanceAddCommand {
    static let usage = """
        USAGE: stc conformance add --op OP --input JSON [--suite FILE] [--id ID] [--tag TAG]... [--source TEXT]
                                   [--vectors PATH]...

        Records a new conformance case whose expectation the reference computes now, so that a string that broke
        an app in the field becomes a permanent case for every implementation. Review the recorded expectation:
        if the reference is wrong, fix the reference and the case together.

        OPTIONS:
          --op OP          The operation (selection.decode, url.encode, …; see `stc adapter --help`).
          --input JSON     The operation's input object, as JSON text. `@FILE` reads the JSON from FILE and `-`
                           from standard input (handy for a multi-kilobyte stored selection).
          --suite FILE     The suite file to add to (created when missing). Default:
                           corpus/conformance/field-reports.json, a file no generator rewrites. Avoid the
                           generated suites: `python3 scripts/make-vectors.py` rewrites those.
          --id ID          The case id (default: <suite>/<op>-<hash of the input>). Must be unused in every suite.
          --tag TAG        A tag (repeatable; default: field-report). Add `field-bug-N`, `malformed`, … as fits.
          --source TEXT    Where the case comes from (default: "field report").
          --vectors PATH   Suites whose ids and inputs must not be repeated (repeatable; default corpus/conformance).

        The file is rewritten atomically with one case per line. A case with the same op and input as an existing
        case, or an id already in use, is refused.

        EXIT STATUS: 0 added, 1 refused (duplicate or id in use), 2 usage error or unreadable files.

        EXAMPLE:
          stc conformance add --op selection.decode --input '{"base64":"e30"}' --tag field-bug-1 \\
                              --source "crash report 2026-11, app launch"
        """

    static func main(_ arguments: [String]) -> Int32 {
        let output = Output.standard
        var op: String?
        var inputText: String?
        var suitePath = "corpus/conformance/field-reports.json"
        var id: String?
        var tags: [String] = []
        var source = "field report"
        var vectors: [String] = []
        var i = 0
        func fail(_ message: String) -> Int32 {
            output.err("stc conformance add: \(message)\nRun 'stc conformance add --help' for usage.\n")
            return 2
        }
        while i < arguments.count {
            let a = arguments[i]
            if a == "-h" || a == "--help" {
                output.out(usage)
                return 0
            }
            guard ["--op", "--input", "--suite", "--id", "--tag", "--source", "--vectors"].contains(a) else {
                return fail("unknown argument \(a)")
            }
            guard i + 1 < arguments.count else { return fail("\(a) needs a value") }
            let v = arguments[i + 1]
            switch a {
            case "--op": op = v
            case "--input": inputText = v
            case "--suite": suitePath = v
            case "--id": id = v
            case "--tag": tags.append(v)
            case "--source": source = v
            default: vectors.append(v)
            }
            i += 2
        }
        guard let op else { return fail("--op is required") }
        guard let inputText else { return fail("--input is required") }
        let inputBytes: [UInt8]
        if inputText == "-" {
            inputBytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else if inputText.hasPrefix("@") {
            guard let data = FileManager.default.contents(atPath: String(inputText.dropFirst())) else {
                return fail("cannot read \(inputText.dropFirst())")
            }
            inputBytes = Array(data)
        } else {
            inputBytes = Array(inputText.utf8)
        }
        let input: JSONValue
        do {
            input = try JSONParser.value(inputBytes)
        } catch {
            return fail("--input is not JSON: \(error)")
        }
        guard case .object = input else { return fail("--input must be a JSON object (the operation's input)") }

        // Load every suite (for ids and duplicates), and the target suite itself.
        if vectors.isEmpty, FileManager.default.fileExists(atPath: ConformanceCommand.defaultVectorsPath) {
            vectors = [ConformanceCommand.defaultVectorsPath]
        }
        // A directory without suites yet is fine here: the new case may be the first.
        vectors = vectors.filter { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return true }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.contains { $0.hasSuffix(".json") }
        }
        var existing: [Suite] = []
        do {
            existing = try SuiteLoader.load(paths: vectors)
        } catch {
            output.err("stc conformance add: invalid vectors:\n")
            for e in error.errors { output.err("  \(Escape.controls(e.description))\n") }
            return 2
        }
        let fileName = URL(fileURLWithPath: suitePath).deletingPathExtension().lastPathComponent
        var suite = Suite(name: fileName, description: "Cases recorded from field reports with `stc conformance add`.", file: suitePath, cases: [])
        if FileManager.default.fileExists(atPath: suitePath) {
            do {
                let loaded = try SuiteLoader.load(paths: [suitePath])
                if let first = loaded.first { suite = first }
            } catch {
                output.err("stc conformance add: invalid suite \(suitePath):\n")
                for e in error.errors { output.err("  \(Escape.controls(e.description))\n") }
                return 2
            }
        }
        let standardized = URL(fileURLWithPath: suitePath).standardizedFileURL.path
        let others = existing.filter { URL(fileURLWithPath: $0.file).standardizedFileURL.path != standardized }
        let newCase: ConformanceCase
        do {
            newCase = try VectorAuthoring.makeCase(
                VectorAuthoring.Request(op: op, input: input, id: id, tags: tags, source: source), suite: suite.name,
                existing: others + [suite])
        } catch {
            if case .unknownOperation = error { return fail(error.description) }
            if case .invalidId = error { return fail(error.description) }
            output.err("stc conformance add: refused: \(error.description)\n")
            return 1
        }
        suite.cases.append(newCase)
        do {
            try ReportFile.writeAtomically(SuiteWriter.bytes(suite), to: suitePath)
        } catch {
            output.err("stc conformance add: cannot write \(suitePath): \(error.description)\n")
            return 2
        }
        output.out("added \(newCase.id) to \(suitePath)\n  expect: \(Escape.controls(JSONWriter.string(newCase.expect.json)))\n")
        return 0
    }
}
