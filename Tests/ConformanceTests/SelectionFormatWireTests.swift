import StrictJSON
import Testing

@testable import Conformance
@testable import ScreenTimeReference

/// `SPEC.md` §5.2 and §5.3 for the formats: `format` with `base64` or `data`, `selection.encode`, and encode
/// answers judged by reading them back.
@Suite struct SelectionFormatWireTests {
    static let selectionJSON =
        #"{"applicationTokens":[{"data":"AQ=="}],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":true}"#
    static var stored: String { Base64.encode(Array(selectionJSON.utf8)) }

    static func perform(_ op: String, _ input: JSONValue) -> OperationOutcome {
        OperationTable.perform(op, input: input)
    }

    @Test func decodeReadsTheFormatThenItsMember() {
        let data = JSONValue.string(Base64.encode(Array(Self.selectionJSON.utf8)))
        guard case .output(let output) = Self.perform("selection.decode", ["format": "json", "data": data]) else {
            Issue.record("no output")
            return
        }
        #expect(output.objectValue?["applications"] == .number(1))
        #expect(output.objectValue?["includeEntireCategory"] == .bool(true))
        #expect(
            Self.perform("selection.decode", ["format": "base64-json", "base64": .string(Self.stored)])
                == .output(output))
        #expect(Self.perform("selection.decode", ["format": "nosuch", "data": data]) == .error("badInput"))
        #expect(Self.perform("selection.decode", ["format": 3, "data": data]) == .error("badInput"))
        #expect(Self.perform("selection.decode", ["format": "json", "base64": data]) == .error("badInput"))
        // `data` is transport only: non-canonical base64 is the request's fault, "" the empty stored value.
        #expect(Self.perform("selection.decode", ["format": "json", "data": "e30"]) == .error("badInput"))
        #expect(Self.perform("selection.decode", ["format": "json", "data": ""]) == .error("empty"))
        #expect(Self.perform("selection.decode", ["format": "json", "data": "W10="]) == .error("schema"))  // "[]"
    }

    @Test func aDocumentAnswersEverySelectionWithItsPath() throws {
        let document =
            #"{"a":\#(Self.selectionJSON),"b":{"applicationTokens":{},"categoryTokens":[],"webDomainTokens":[]}}"#
        let outcome = Self.perform(
            "selection.decode", ["format": "json-document", "data": .string(Base64.encode(Array(document.utf8)))])
        guard case .output(let output) = outcome, case .array(let entries)? = output.objectValue?["selections"] else {
            Issue.record("no selections: \(outcome)")
            return
        }
        #expect(entries.count == 2)
        #expect(entries[0].objectValue?["path"] == "/a")
        #expect(entries[0].objectValue?["applications"] == .number(1))
        #expect(entries[1] == ["path": "/b", "error": "schema"])
    }

    @Test func encodeAnswersEachFormatsMemberAndEveryAnswerReadsBack() throws {
        for format in SelectionFormat.allCases where format != .jsonDocument && !format.isPropertyList {
            let input: JSONValue = ["selection": .string(Self.stored), "format": .string(format.rawValue)]
            guard case .output(let output) = Self.perform("selection.encode", input) else {
                Issue.record("\(format): no output")
                continue
            }
            #expect(output.objectValue?[format.isBase64Text ? "base64" : "data"] != nil, "\(format)")
            let canonical = try FamilyActivitySelection(storedBase64: Self.stored).canonicalBase64
            let c = ConformanceCase(
                id: "t/\(format.rawValue)", suite: "t", op: "selection.encode", input: input,
                expect: .output(["canonical": .string(canonical)]), tags: [], source: "")
            #expect(Matcher.judge(c, .output(output)).status == .pass, "\(format)")
            // The field bug of §7.12: an encoder answering "" does not read back, and the report says why.
            let member = format.isBase64Text ? "base64" : "data"
            let empty = Matcher.judge(c, .output(.object([member: ""])))
            #expect(empty.status == .fail)
            #expect(empty.mismatch?.contains("does not read back as \(format.rawValue): empty") == true, "\(empty)")
            // An encoder that loses includeEntireCategory reads back as another selection.
            var lost = try FamilyActivitySelection(storedBase64: Self.stored)
            lost.includeEntireCategory = false
            let lossy = try SelectionWire.encodeOutput(lost, format)
            #expect(Matcher.judge(c, .output(lossy)).status == .fail)
        }
    }

    @Test func encodeDecodesItsSelectionFirstAndRefusesDocuments() {
        #expect(Self.perform("selection.encode", ["selection": "", "format": "json"]) == .error("empty"))
        #expect(Self.perform("selection.encode", ["selection": "e30", "format": "nosuch"]) == .error("base64"))
        #expect(
            Self.perform("selection.encode", ["selection": .string(Self.stored), "format": "json-document"])
                == .error("badInput"))
        #expect(Self.perform("selection.encode", ["selection": .string(Self.stored)]) == .error("badInput"))
    }
}
