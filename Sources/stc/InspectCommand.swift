import Foundation
import ScreenTimeReference
import StrictJSON
import _CommandSupport

/// `stc inspect`: what a developer pastes from a device log or an App Group dump.
enum InspectCommand {
    static let help = HelpPage(
        "stc inspect", usage: ["[--json] [STRING | FILE | -]"],
        description: """
            Explains a stored FamilyActivitySelection string (base64 of the JSON iOS writes): counts per kind,
            includeEntireCategory, token sizes (with a warning for tokens that are not 128 bytes, the device size),
            duplicates collapsed, unknown keys, whether the input is already canonical, and the canonical string.
            For an invalid string: the error code (empty, tooLarge, base64, json, schema, token), what went wrong,
            and the byte offset where it went wrong, with the text around it.

            The argument is read as a file when such a file exists, from standard input when it is '-' or absent,
            and as the string itself otherwise. One trailing newline is removed from files and standard input.
            """,
        options: [.init("--json", "print one JSON object instead of the report")],
        exitCodes: [.init("0", "valid selection"), .init("1", "invalid selection"), .init("2", "usage or I/O error")])

    static let command = Command(
        "inspect", summary: "explain a stored selection string (counts, tokens, canonical form, errors)",
        syntax: CommandSyntax(
            options: [.flag("--json")], positionals: .atMost(1, "give one string, file or '-', not several")),
        help: help, run: main)

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let json = arguments.flag("--json")
        let input = try Input.read(arguments.positionals.first ?? "-")
        let result = Result { () throws(SelectionDecodingError) -> SelectionDecoder.Report in
            try SelectionDecoder.decode(input.bytes)
        }
        if json {
            Console.out(JSONWriter.string(jsonReport(input, result), options: .init(pretty: true)))
        } else {
            Console.out(textReport(input, result))
        }
        if case .success = result { return 0 }
        return 1
    }

    struct Input {
        var bytes: [UInt8]
        var origin: String
        var removedNewline: Bool

        static func read(_ source: String) throws(CommandFailure) -> Input {
            var bytes: [UInt8]
            let origin: String
            if source == "-" {
                bytes = Console.readAllStandardInput()
                origin = "standard input"
            } else if FileManager.default.fileExists(atPath: source) {
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw CommandFailure("cannot read file '\(source)'")
                }
                bytes = Array(data)
                origin = "file \(source)"
            } else {
                return Input(bytes: Array(source.utf8), origin: "argument", removedNewline: false)
            }
            var removed = false
            if bytes.last == 0x0A {
                bytes.removeLast()
                if bytes.last == 0x0D { bytes.removeLast() }
                removed = true
            }
            return Input(bytes: bytes, origin: origin, removedNewline: removed)
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

    static func textReport(_ input: Input, _ result: Result<SelectionDecoder.Report, SelectionDecodingError>) -> String
    {
        var lines: [String] = []
        let note = input.removedNewline ? " (trailing newline removed)" : ""
        lines.append("Input: \(input.bytes.count) bytes from \(input.origin)\(note)")
        switch result {
        case .failure(let error):
            lines.append("Invalid selection: \(error.code.rawValue)")
            lines.append("  \(error.detail)")
            if error.code == .empty {
                lines.append(
                    "  (an app that decodes this to an empty selection shows \"0 apps blocked\": "
                        + "surface the error instead)")
            } else if error.offsetIsInJSON {
                let json = Base64.decode(input.bytes) ?? []
                lines.append("  at byte \(error.offset) of the decoded JSON (\(json.count) bytes):")
                lines.append(contentsOf: excerpt(json, at: error.offset))
            } else {
                lines.append("  at byte \(error.offset) of the base64 text:")
                lines.append(contentsOf: excerpt(input.bytes, at: error.offset))
            }
        case .success(let report):
            let s = report.selection
            let canonical = s.canonicalBase64
            let isCanonical = Array(canonical.utf8) == input.bytes
            lines.append("Valid selection\(isCanonical ? " (already canonical)" : " (not canonical)")")
            for (kind, label) in kinds {
                let sizes = report.tokenByteCounts[kind] ?? []
                let sizeText = sizes.isEmpty ? "" : "  token sizes: " + summarize(sizes)
                let padded = label.padding(toLength: 12, withPad: " ", startingAt: 0)
                let count = String(s.count(of: kind))
                lines.append("  \(padded)\(String(repeating: " ", count: max(0, 4 - count.count)))\(count)\(sizeText)")
            }
            lines.append("  includeEntireCategory  \(s.includeEntireCategory)")
            let untokenized =
                s.untokenizedApplicationIdentifiers.count + s.untokenizedCategoryIdentifiers.count
                + s.untokenizedWebDomainIdentifiers.count
            if untokenized > 0 { lines.append("  untokenized identifiers  \(untokenized)") }
            for warning in warnings(report) { lines.append("warning: \(warning)") }
            lines.append("Canonical (\(canonical.utf8.count) chars):")
            lines.append(canonical)
        }
        return lines.joined(separator: "\n")
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

    static func jsonReport(
        _ input: Input, _ result: Result<SelectionDecoder.Report, SelectionDecodingError>
    ) -> JSONValue {
        switch result {
        case .failure(let error):
            return [
                "valid": false,
                "error": [
                    "code": .string(error.code.rawValue), "detail": .string(error.detail),
                    "offset": .number(Double(error.offset)), "offsetIn": error.offsetIsInJSON ? "json" : "base64",
                ],
            ]
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
            return [
                "valid": true, "counts": .object(counts), "duplicates": .object(duplicates),
                "tokenByteCounts": .object(sizes), "includeEntireCategory": .bool(s.includeEntireCategory),
                "unknownKeys": .array(report.unknownKeys.map(JSONValue.string)),
                "canonical": .string(canonical), "isCanonical": .bool(Array(canonical.utf8) == input.bytes),
                "warnings": .array(warnings(report).map(JSONValue.string)),
            ]
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
