import Conformance
import Exploration
import Foundation
import ScreenTimeReference
import StrictJSON
import Testing

/// The reference with one operation answered by `broken` instead: an implementation with exactly one planted bug.
func planted(_ op: String, _ broken: @escaping @Sendable (JSONValue) -> OperationOutcome) -> InProcessImplementation {
    InProcessImplementation(name: "planted", summary: "the reference with \(op) broken") { name, input in
        name == op ? broken(input) : OperationTable.perform(name, input: input)
    }
}

/// A run over the operations `ops` only, deterministic.
func explore(
    _ implementation: Implementation, _ ops: [String], cases: Int = 3_000, seed: UInt64 = 1, shrinkBudget: Int = 2_000
) -> ExploreResult {
    let operations = ops.compactMap(ExploredOperations.named)
    let configuration = ExploreConfiguration(
        operations: operations, seed: seed, limit: .cases(cases), shrinkBudget: shrinkBudget)
    return Explorer(implementation, configuration).run()
}

/// The reference's output for `op` with one member of it changed.
func referenceOutput(_ op: String, _ input: JSONValue, change: (inout [String: JSONValue]) -> Void) -> OperationOutcome
{
    guard case .output(.object(var members)) = OperationTable.perform(op, input: input) else {
        return OperationTable.perform(op, input: input)
    }
    change(&members)
    return .output(.object(members))
}

/// Each planted field bug (SPEC §7) is reported as exactly one finding, named for what differs, and shrunk to the
/// smallest case that shows it.
@Suite struct PlantedBugTests {
    @Test func lowerCaseHexInURLEncodingShrinksToOneCharacter() throws {
        // Field bug 7: hex digits in lower case.
        let broken = planted("url.encode") { input in
            referenceOutput("url.encode", input) {
                $0["encoded"] = $0["encoded"]?.stringValue.map { .string(lowerHex($0)) }
            }
        }
        let result = explore(broken, ["url.encode"])
        #expect(result.findings.map(\.key) == ["url.encode: output differs in encoded"])
        let example = try #require(result.findings.first?.first)
        // One character whose escape has a hex letter (the generators' first such is "e\u{301}").
        let text = try #require(example.minimal.input["text"]?.stringValue)
        #expect(text.count == 1, "\(text.debugDescription)")
        #expect(PercentEncodingLetters.hasHexLetter(text), "\(text.debugDescription)")
    }

    @Test func aMissingNameRenderedLiterallyShrinksToOnePlaceholder() throws {
        // Field bug 8: a placeholder without a value rendered as its own key.
        let broken = planted("template.render") { input in
            guard let template = input["template"]?.stringValue, case .object(let values) = input["values"] ?? .null
            else { return OperationTable.perform("template.render", input: input) }
            let missingKey = template.contains("{K}") && values["K"] == nil
            return referenceOutput("template.render", input) { members in
                if missingKey, let text = members["text"]?.stringValue { members["text"] = .string(text + "K") }
            }
        }
        let result = explore(broken, ["template.render"])
        #expect(result.findings.map(\.key) == ["template.render: output differs in text"])
        let example = try #require(result.findings.first?.first)
        #expect(example.minimal.input == ["template": "{K}", "values": [:]], "\(example.minimal.input)")
    }

    @Test func shieldsClearedOnNotDeterminedShrinksToOneObservation() throws {
        // Field bug 6: a transient notDetermined read as denied, which clears the shields.
        let broken = planted("auth.policy") { input in
            guard case .array(let observations) = input["observations"] ?? .null else {
                return OperationTable.perform("auth.policy", input: input)
            }
            let misread = observations.map { $0 == "notDetermined" ? JSONValue.string("denied") : $0 }
            return OperationTable.perform("auth.policy", input: ["observations": .array(misread)])
        }
        let result = explore(broken, ["auth.policy"])
        #expect(!result.findings.isEmpty)
        for finding in result.findings {
            #expect(finding.key.hasPrefix("auth.policy: output differs in "), "\(finding.key)")
        }
        let both = try #require(
            result.findings.first { $0.key == "auth.policy: output differs in actions, shieldsActive" })
        #expect(both.first.minimal.input == ["observations": ["notDetermined"]], "\(both.first.minimal.input)")
    }

    @Test func aSwallowedDecodeErrorIsOneFindingPerCheckItSkips() throws {
        // Field bug 2: a decode failure answered as an empty selection ("0 apps blocked"). Every error the
        // reference answers is then an output: one finding per check the implementation skipped.
        let broken = planted("selection.decode") { input in
            let answer = OperationTable.perform("selection.decode", input: input)
            guard case .error = answer else { return answer }
            return OperationTable.perform(
                "selection.decode",
                input: [
                    "base64": .string(
                        "eyJhcHBsaWNhdGlvblRva2VucyI6W10sImNhdGVnb3J5VG9rZW5zIjpbXSwid2ViRG9tYWluVG9rZW5zIjpbXX0=")
                ])
        }
        let result = explore(broken, ["selection.decode"], cases: 600, shrinkBudget: 200)
        #expect(result.findings.count >= 4, "\(result.findings.map(\.key))")
        for finding in result.findings {
            #expect(finding.key.hasPrefix("selection.decode: expected error "), "\(finding.key)")
            #expect(finding.key.hasSuffix("got output or a later error"), "\(finding.key)")
        }
        // The empty string is the smallest case of `empty` (without a format: a format names its own finding).
        let empty = try #require(
            result.findings.first { $0.key.hasPrefix("selection.decode: expected error empty (the string is empty)") })
        #expect(empty.first.minimal.input == ["base64": ""])
    }
}

/// `encoded` with the two hex digits after each `%` in lower case: the letters of the text are left alone.
func lowerHex(_ encoded: String) -> String {
    var out = ""
    var hexLeft = 0
    for character in encoded {
        if hexLeft > 0 {
            out += character.lowercased()
            hexLeft -= 1
        } else {
            out.append(character)
            if character == "%" { hexLeft = 2 }
        }
    }
    return out
}

/// Whether the percent-encoding of `text` has a hex letter (A–F) in it.
enum PercentEncodingLetters {
    static func hasHexLetter(_ text: String) -> Bool {
        guard case .output(let output) = OperationTable.perform("url.encode", input: ["text": .string(text)]),
            let encoded = output["encoded"]?.stringValue
        else { return false }
        var index = encoded.startIndex
        while let percent = encoded[index...].firstIndex(of: "%") {
            let hex = encoded[encoded.index(after: percent)...].prefix(2)
            if hex.contains(where: { "ABCDEF".contains($0) }) { return true }
            index = encoded.index(after: percent)
        }
        return false
    }
}

/// The storage formats (`SPEC.md` §1.1 … §1.3): the planted field bugs of `selection.encode` and of documents are
/// found through the JSON formats (the property-list ones need the reader and writer of `StrictPropertyList`).
@Suite struct PlantedFormatBugTests {
    @Test func theFormatOperationsAreExplored() throws {
        let names = ExploredOperations.all.map(\.name)
        #expect(names.contains("selection.encode"))
        let encode = try #require(ExploredOperations.named("selection.encode"))
        var formats: Set<String> = []
        for seed in 0..<400 {
            if let format = encode.input.generate(seed: UInt64(seed))["format"]?.stringValue { formats.insert(format) }
        }
        #expect(formats.isSuperset(of: ["base64-json", "json", "json-document", "binary-plist", "xml-plist"]))
        let decode = try #require(ExploredOperations.named("selection.decode"))
        var decoded: Set<String> = []
        for seed in 0..<400 {
            if let format = decode.input.generate(seed: UInt64(seed))["format"]?.stringValue { decoded.insert(format) }
        }
        #expect(decoded.isSuperset(of: Set(SelectionFormat.allCases.map(\.rawValue))))
    }

    @Test func anEncoderDroppingIncludeEntireCategoryIsFound() throws {
        let broken = planted("selection.encode") { input in
            guard let text = input["selection"]?.stringValue, let name = input["format"]?.stringValue,
                let format = SelectionFormat(rawValue: name), format == .json || format == .base64JSON,
                var selection = try? SelectionDecoder.decode(Array(text.utf8)).selection
            else { return OperationTable.perform("selection.encode", input: input) }
            selection.includeEntireCategory = false
            return .output(try! SelectionWire.encodeOutput(selection, format))  // JSON holds every selection
        }
        let result = explore(broken, ["selection.encode"], cases: 600, shrinkBudget: 200)
        let keys = result.findings.map(\.key)
        #expect(keys.contains("selection.encode: output differs in canonical"), "\(keys)")
    }

    @Test func aDocumentReaderAnsweringNothingForOneBadSelectionIsFound() throws {
        // Field bug 9: `try? JSONDecoder().decode(...) ?? [:]`, one bad profile and every profile is gone.
        let broken = planted("selection.decode") { input in
            let answer = OperationTable.perform("selection.decode", input: input)
            guard input["format"]?.stringValue == "json-document", case .output(let output) = answer,
                case .array(let entries)? = output["selections"],
                entries.contains(where: { $0["error"] != nil })
            else { return answer }
            return .output(["selections": []])
        }
        let result = explore(broken, ["selection.decode"], cases: 1_500, shrinkBudget: 300)
        let keys = result.findings.map(\.key)
        #expect(keys == ["selection.decode: output differs in selections"], "\(keys)")
    }
}
