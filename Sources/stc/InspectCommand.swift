import Foundation
import ScreenTimeReference
import StrictJSON
import _CommandSupport

/// `stc inspect`: what a developer pastes from a device log or an App Group dump.
enum InspectCommand {
    static let help = HelpPage(
        "stc inspect", usage: ["[--json] [--format FORMAT] [STRING | FILE | -]"],
        description: """
            Explains a stored FamilyActivitySelection in any storage format apps use (SPEC.md §1.1): base64 of
            JSON (the stored string), JSON, a JSON document holding selections (each shown at its JSON Pointer), a
            binary or XML property list, or base64 of a property list. The format is detected and named, or forced
            with --format. Then: counts per kind, includeEntireCategory, token sizes (with a warning for tokens
            that are not 128 bytes, the device size), duplicates collapsed, unknown keys, whether the input is
            already canonical, and the canonical form (the canonical string, and the canonical encoding in the
            input's format). For an invalid selection: the error code (empty, tooLarge, base64, json, plist,
            schema, token), what went wrong, and the byte offset where it went wrong, with the text around it. In
            a document, one bad selection is shown as an error at its path and the others as usual.

            The argument is read as a file when such a file exists, from standard input when it is '-' or absent,
            and as the string itself otherwise. One trailing newline is removed from base64 text read from a file
            or standard input; JSON and property lists are read as they are.
            """,
        options: [
            .init("--json", "print one JSON object instead of the report"),
            .init(
                "--format FORMAT",
                "read the input as FORMAT: base64-json, json, json-document, binary-plist, xml-plist, base64-plist"),
        ],
        exitCodes: [
            .init("0", "every selection is valid"), .init("1", "a selection, or the document, is invalid"),
            .init("2", "usage or I/O error"),
        ])

    static let command = Command(
        "inspect", summary: "explain a stored selection in any format (counts, tokens, canonical form, errors)",
        syntax: CommandSyntax(
            options: [.flag("--json"), .value("--format", "FORMAT")],
            positionals: .atMost(1, "give one string, file or '-', not several")),
        help: help, run: main)

    /// What was read, and how.
    enum Reading {
        case one(Result<SelectionDecoder.Report, SelectionDecodingError>)
        case document(Result<[SelectionDecoder.DocumentEntry], SelectionDecodingError>)

        var isValid: Bool {
            switch self {
            case .one(let result):
                if case .success = result { return true }
                return false
            case .document(let result):
                guard case .success(let entries) = result else { return false }
                return entries.allSatisfy { if case .success = $0.result { true } else { false } }
            }
        }
    }

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let json = arguments.flag("--json")
        var forced: SelectionFormat?
        if let name = arguments.value("--format") {
            guard let format = SelectionFormat(rawValue: name) else {
                throw UsageError(
                    "--format: '\(name)' is not a format; formats: "
                        + SelectionFormat.allCases.map(\.rawValue).joined(separator: ", "))
            }
            forced = format
        }
        var input = try Input.read(arguments.positionals.first ?? "-")
        let (format, reading) = read(&input, forced: forced)
        if json {
            Console.out(
                JSONWriter.string(jsonReport(input, format, forced != nil, reading), options: .init(pretty: true)))
        } else {
            Console.out(textReport(input, format, forced != nil, reading))
        }
        return reading.isValid ? 0 : 1
    }

    /// Reads `input` as `forced`, or as the format it looks like; JSON is one selection when its top level is one,
    /// a document otherwise.
    static func read(_ input: inout Input, forced: SelectionFormat?) -> (SelectionFormat, Reading) {
        var format = forced ?? SelectionFormat.detect(input.rawBytes)
        // Only base64 text loses a final newline (there it would be a base64 error); in JSON and XML it is
        // whitespace, and in a binary list it is data.
        if format.isBase64Text { input.removeFinalNewline() }
        if format == .json && forced == nil {
            if case .success(let entries) = Result(catching: { () throws(SelectionDecodingError) in
                try SelectionDecoder.decodeDocument(input.bytes)
            }), !(entries.count == 1 && entries[0].path.isEmpty) {
                format = .jsonDocument
            }
        }
        if format == .jsonDocument {
            return (
                format,
                .document(
                    Result { () throws(SelectionDecodingError) in try SelectionDecoder.decodeDocument(input.bytes) })
            )
        }
        return (
            format,
            .one(
                Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(input.bytes, format: format) }
            )
        )
    }

    struct Input {
        /// The bytes as read.
        var rawBytes: [UInt8]
        /// The bytes decoded: without their final newline for text formats.
        var bytes: [UInt8]
        var origin: String
        var removedNewline = false

        static func read(_ source: String) throws(CommandFailure) -> Input {
            if source == "-" {
                let bytes = Console.readAllStandardInput()
                return Input(rawBytes: bytes, bytes: bytes, origin: "standard input")
            }
            if FileManager.default.fileExists(atPath: source) {
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw CommandFailure("cannot read file '\(source)'")
                }
                return Input(rawBytes: Array(data), bytes: Array(data), origin: "file \(source)")
            }
            return Input(rawBytes: Array(source.utf8), bytes: Array(source.utf8), origin: "argument")
        }

        /// Removes one final newline (`\n` or `\r\n`) from a file or standard input.
        mutating func removeFinalNewline() {
            guard origin != "argument", bytes.last == 0x0A else { return }
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
            removedNewline = true
        }
    }

    static let kinds: [(SelectionTokenKind, String)] = [
        (.application, "applications"), (.category, "categories"), (.webDomain, "webDomains"),
    ]

    static func warnings(_ report: SelectionDecoder.Report) -> [String] {
        var warnings: [String] = []
        for (kind, label) in kinds {
            let odd = (report.tokenByteCounts[kind] ?? []).filter { $0 != ApplicationToken.deviceByteCount }
            if !odd.isEmpty {
                let sizes = odd.map(String.init).joined(separator: ", ")
                warnings.append(
                    "\(odd.count) of the \(label) tokens are not \(ApplicationToken.deviceByteCount) bytes "
                        + "(device tokens are): sizes \(sizes)")
            }
            let duplicates = report.duplicateCount(of: kind)
            if duplicates > 0 {
                warnings.append("\(duplicates) duplicate \(label) token(s) collapsed (a selection is a set)")
            }
        }
        if report.includeEntireCategoryMissing {
            warnings.append(
                "includeEntireCategory is missing and reads as false (assumption: encodings from before iOS 15.2)")
        }
        if !report.unknownKeys.isEmpty {
            warnings.append("unknown keys ignored: \(report.unknownKeys.joined(separator: ", "))")
        }
        return warnings
    }

    static func textReport(_ input: Input, _ format: SelectionFormat, _ forced: Bool, _ reading: Reading) -> String {
        var lines: [String] = []
        let note = input.removedNewline ? " (trailing newline removed)" : ""
        lines.append("Input: \(input.bytes.count) bytes from \(input.origin)\(note)")
        let how = forced ? "as --format says" : "detected"
        switch reading {
        case .one(let result):
            lines.append("Format: \(format.displayName) (\(format.rawValue), \(how))")
            lines.append(contentsOf: selectionLines(input, format, result, indent: ""))
        case .document(.failure(let error)):
            lines.append("Format: \(format.displayName) (\(format.rawValue), \(how))")
            lines.append(contentsOf: errorLines(input, format, error, prefix: "Invalid document", indent: ""))
        case .document(.success(let entries)):
            let paths = entries.map { $0.path.isEmpty ? "\"\" (the top level)" : $0.path }
            let list = entries.isEmpty ? "" : " at " + paths.joined(separator: ", ")
            lines.append(
                "Format: \(format.displayName) (\(format.rawValue), \(how)): \(entries.count) selection"
                    + "\(entries.count == 1 ? "" : "s")\(list)")
            let bad = entries.filter { if case .failure = $0.result { true } else { false } }.count
            if bad > 0 {
                lines.append(
                    "\(bad) of \(entries.count) invalid; the others still decode (SPEC.md §1.3: one bad selection "
                        + "never hides another)")
            }
            for entry in entries {
                lines.append("")
                lines.append(
                    "Selection at \(entry.path.isEmpty ? "\"\"" : entry.path) (bytes \(entry.range.lowerBound)…\(entry.range.upperBound - 1)):"
                )
                lines.append(contentsOf: selectionLines(input, .json, entry.result, indent: "  ", document: true))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One selection's report: valid with its counts and canonical forms, or its error.
    static func selectionLines(
        _ input: Input, _ format: SelectionFormat, _ result: Result<SelectionDecoder.Report, SelectionDecodingError>,
        indent: String, document: Bool = false
    ) -> [String] {
        var lines: [String] = []
        switch result {
        case .failure(let error):
            lines.append(contentsOf: errorLines(input, format, error, prefix: "Invalid selection", indent: indent))
        case .success(let report):
            let s = report.selection
            let canonical = s.canonicalBase64
            let encoded = (try? s.encoded(as: format)) ?? []
            let isCanonical = !document && encoded == input.bytes
            lines.append(
                indent
                    + (document
                        ? "Valid selection"
                        : "Valid selection\(isCanonical ? " (already canonical)" : " (not canonical)")"))
            for (kind, label) in kinds {
                let sizes = report.tokenByteCounts[kind] ?? []
                let sizeText = sizes.isEmpty ? "" : "  token sizes: " + summarize(sizes)
                let padded = label.padding(toLength: 12, withPad: " ", startingAt: 0)
                let count = String(s.count(of: kind))
                lines.append(
                    "\(indent)  \(padded)\(String(repeating: " ", count: max(0, 4 - count.count)))\(count)\(sizeText)")
            }
            lines.append("\(indent)  includeEntireCategory  \(s.includeEntireCategory)")
            let untokenized =
                s.untokenizedApplicationIdentifiers.count + s.untokenizedCategoryIdentifiers.count
                + s.untokenizedWebDomainIdentifiers.count
            if untokenized > 0 { lines.append("\(indent)  untokenized identifiers  \(untokenized)") }
            for warning in warnings(report) { lines.append("\(indent)warning: \(warning)") }
            lines.append("\(indent)Canonical (\(canonical.utf8.count) chars):")
            lines.append(indent + canonical)
            if format != .base64JSON && !document {
                if case .failure(let error) = Result(catching: { () throws(SelectionEncodingError) in
                    try s.encoded(as: format)
                }) {
                    lines.append("Canonical \(format.rawValue): none (\(error))")
                } else if format == .binaryPlist {
                    lines.append("Canonical \(format.rawValue) (\(encoded.count) bytes, shown as base64):")
                    lines.append(Base64.encode(encoded))
                } else {
                    lines.append("Canonical \(format.rawValue) (\(encoded.count) bytes):")
                    lines.append(String(decoding: encoded, as: UTF8.self))
                }
            }
        }
        return lines
    }

    /// An error's code, its sentence, and the bytes around its offset in the layer it counts in.
    static func errorLines(
        _ input: Input, _ format: SelectionFormat, _ error: SelectionDecodingError, prefix: String, indent: String
    ) -> [String] {
        var lines = ["\(indent)\(prefix): \(error.code.rawValue)", "\(indent)  \(error.detail)"]
        if error.code == .empty {
            lines.append(
                "\(indent)  (an app that decodes this to an empty selection shows \"0 apps blocked\": "
                    + "surface the error instead)")
        } else if error.layer != .stored {
            let inner = format.isBase64Text ? (Base64.decode(input.bytes) ?? []) : input.bytes
            let what = format.isBase64Text ? "decoded \(error.layer.rawValue)" : error.layer.rawValue
            lines.append("\(indent)  at byte \(error.offset) of the \(what) (\(inner.count) bytes):")
            lines.append(contentsOf: excerpt(inner, at: error.offset).map { indent + $0 })
        } else {
            lines.append(
                "\(indent)  at byte \(error.offset) of the \(format.isBase64Text ? "base64 text" : "stored bytes"):")
            lines.append(contentsOf: excerpt(input.bytes, at: error.offset).map { indent + $0 })
        }
        return lines
    }

    /// "13 × 128 bytes" or "2 × 128, 1 × 16 bytes".
    static func summarize(_ sizes: [Int]) -> String {
        var counts: [Int: Int] = [:]
        for size in sizes { counts[size, default: 0] += 1 }
        return counts.keys.sorted(by: >).map { "\(counts[$0] ?? 0) × \($0)" }.joined(separator: ", ") + " bytes"
    }

    /// The text around `offset`, printable, with a caret under the offending byte.
    static func excerpt(_ bytes: [UInt8], at offset: Int) -> [String] {
        let start = max(0, offset - 30)
        let end = min(bytes.count, offset + 30)
        var shown = ""
        var caret = 0
        for i in start..<max(start, end) {
            if i == offset { caret = shown.count }
            let b = bytes[i]
            let piece =
                (0x20..<0x7F).contains(b)
                ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            shown += piece
        }
        if offset >= end { caret = shown.count }
        let prefix = start > 0 ? "…" : ""
        let suffix = end < bytes.count ? "…" : ""
        return ["    \(prefix)\(shown)\(suffix)", "    \(String(repeating: " ", count: prefix.count + caret))^"]
    }

    static func jsonReport(_ input: Input, _ format: SelectionFormat, _ forced: Bool, _ reading: Reading) -> JSONValue {
        var report: [String: JSONValue]
        switch reading {
        case .one(let result):
            report = selectionJSON(input, format, result, document: false)
        case .document(.failure(let error)):
            report = ["valid": false, "error": errorJSON(error)]
        case .document(.success(let entries)):
            report = [
                "valid": .bool(reading.isValid),
                "selections": .array(
                    entries.map { entry in
                        var one = selectionJSON(input, .json, entry.result, document: true)
                        one["path"] = .string(entry.path)
                        return .object(one)
                    }),
            ]
        }
        report["format"] = .string(format.rawValue)
        report["formatDetected"] = .bool(!forced)
        return .object(report)
    }

    static func errorJSON(_ error: SelectionDecodingError) -> JSONValue {
        let layer: JSONValue =
            switch error.layer {
            case .stored: "base64"
            case .json: "json"
            case .propertyList: "plist"
            }
        return [
            "code": .string(error.code.rawValue), "detail": .string(error.detail),
            "offset": .number(Double(error.offset)), "offsetIn": layer,
        ]
    }

    static func selectionJSON(
        _ input: Input, _ format: SelectionFormat, _ result: Result<SelectionDecoder.Report, SelectionDecodingError>,
        document: Bool
    ) -> [String: JSONValue] {
        switch result {
        case .failure(let error):
            return ["valid": false, "error": errorJSON(error)]
        case .success(let report):
            let s = report.selection
            let canonical = s.canonicalBase64
            var counts: [String: JSONValue] = [:]
            var duplicates: [String: JSONValue] = [:]
            var sizes: [String: JSONValue] = [:]
            for (kind, label) in kinds {
                counts[label] = .number(Double(s.count(of: kind)))
                duplicates[label] = .number(Double(report.duplicateCount(of: kind)))
                sizes[label] = .array((report.tokenByteCounts[kind] ?? []).map { .number(Double($0)) })
            }
            var out: [String: JSONValue] = [
                "valid": true, "counts": .object(counts), "duplicates": .object(duplicates),
                "tokenByteCounts": .object(sizes), "includeEntireCategory": .bool(s.includeEntireCategory),
                "unknownKeys": .array(report.unknownKeys.map(JSONValue.string)),
                "canonical": .string(canonical),
                "warnings": .array(warnings(report).map(JSONValue.string)),
            ]
            if !document {
                let encoded = (try? s.encoded(as: format)) ?? []
                out["isCanonical"] = .bool(encoded == input.bytes)
                if format != .base64JSON {
                    out["canonicalInFormat"] = .string(
                        format == .binaryPlist ? Base64.encode(encoded) : String(decoding: encoded, as: UTF8.self))
                }
            }
            return out
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
