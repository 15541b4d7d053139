import Conformance
import Exploration
import StrictJSON
import Testing

@testable import ScreenTimeTesting

/// The closures of the storage formats (`SPEC.md` §1.1 … §1.3, §5.2): a correct one passes, and the field bugs
/// of §7.9 … §7.12 planted in one are caught. The judgments here go through the JSON formats, which need no
/// property-list reader or writer.
@Suite struct SelectionFormatClosureTests {
    static let jsonFormats: Set<String> = ["base64-json", "json", "json-document"]

    /// How `implementation` departs from the reference on `input` of `op`, as the explorer names it.
    static func discrepancy(_ implementation: ScreenTimeImplementation, _ op: String, _ input: JSONValue) -> String? {
        guard let operation = ExploredOperations.named(op), let c = Explorer.makeCase(op, input, id: "t") else {
            return nil
        }
        let answer = Answer(WireOperations(implementation).perform(op, input))
        return Explorer.discrepancy(operation, c, answer)?.key
    }

    /// Generated inputs of `op` whose format (or its absence) needs no property list.
    static func jsonInputs(_ op: String, count: UInt64 = 600) -> [JSONValue] {
        guard let operation = ExploredOperations.named(op) else { return [] }
        return (0..<count).map { operation.input.generate(seed: $0) }.filter { input in
            guard let format = input["format"] else { return true }
            return format.stringValue.map { !$0.hasSuffix("plist") } ?? true
        }
    }

    static let includingEntireCategory: String = {
        var selection = FamilyActivitySelection(includeEntireCategory: true)
        selection.categoryTokens = [ActivityCategoryToken(bytes: Array(repeating: 7, count: 16))]
        return selection.canonicalBase64
    }()

    @Test func theReferenceClosuresMatchTheTableOnEveryJSONFormat() {
        for op in ["selection.decode", "selection.encode"] {
            for input in Self.jsonInputs(op) {
                #expect(Self.discrepancy(.reference, op, input) == nil, "\(op) \(input)")
            }
        }
    }

    @Test func anEncoderDroppingIncludeEntireCategoryIsCaught() {
        let dropping = planted { implementation in
            implementation.encodeSelection = { selection, format in
                var selection = selection
                selection.includeEntireCategory = false
                return try selection.encoded(as: format)
            }
        }
        for format in ["base64-json", "json"] {
            let input: JSONValue = ["selection": .string(Self.includingEntireCategory), "format": .string(format)]
            #expect(
                Self.discrepancy(dropping, "selection.encode", input) == "selection.encode: output differs in canonical"
            )
            #expect(Self.discrepancy(.reference, "selection.encode", input) == nil)
        }
    }

    /// Field bugs 10 and 12: `[]` from a failed `rawValue`, `""` from the React Native wrapper.
    @Test func anEncoderAnsweringAPlaceholderIsCaught() {
        for placeholder in [Array("[]".utf8), []] {
            let broken = planted { $0.encodeSelection = { _, _ in placeholder } }
            for format in ["base64-json", "json"] {
                let input: JSONValue = ["selection": .string(Self.includingEntireCategory), "format": .string(format)]
                #expect(
                    Self.discrepancy(broken, "selection.encode", input)
                        == "selection.encode: output differs in canonical", "\(format) \(placeholder)")
            }
        }
    }

    /// Field bug 9: one bad selection and the document reader answers nothing.
    @Test func aDocumentReaderAnsweringNothingForOneBadSelectionIsCaught() {
        let wiping = planted { implementation in
            let read = ScreenTimeImplementation.reference.decodeSelectionDocument!
            implementation.decodeSelectionDocument = { document in
                let entries = try read(document)
                return entries.contains { if case .failure = $0.selection { true } else { false } } ? [] : entries
            }
        }
        let result = ExplorationCheck(cases: 1_500, seed: 1, operations: [.selectionDecode]).run(wiping, relativeTo: "")
        #expect(result.findings.map(\.key) == ["selection.decode: output differs in selections"])
        let correct = ExplorationCheck(cases: 1_500, seed: 1, operations: [.selectionDecode]).run(
            .reference, relativeTo: "")
        #expect(correct.findings.isEmpty, "\(correct.findings.map(\.key))")
    }

    @Test func aDocumentEntrysErrorIsMappedLikeAThrownOne() {
        struct StoreError: Error {}
        var mine = ScreenTimeImplementation(name: "mine", errorCode: { $0 is StoreError ? "token" : nil })
        mine.decodeSelectionDocument = { _ in [SelectionDocumentEntry(path: "/a", selection: .failure(StoreError()))] }
        let input: JSONValue = ["format": "json-document", "data": .string(Base64.encode(Array("{}".utf8)))]
        #expect(
            WireOperations(mine).perform("selection.decode", input)
                == .output(["selections": [["path": "/a", "error": "token"]]]))
    }

    /// Each decode input goes to the closure for its format; one no closure answers is `unsupported`, and an
    /// unknown format is the wire's `badInput` whatever the closures.
    @Test func decodeInputsGoToTheClosureOfTheirFormat() {
        let plainOnly = ScreenTimeImplementation(
            name: "plain", decodeSelection: { try FamilyActivitySelection(storedBase64: $0) })
        let wire = WireOperations(plainOnly)
        let stored = Self.includingEntireCategory
        #expect(
            wire.perform("selection.decode", ["base64": .string(stored)])
                == OperationTable.perform(
                    "selection.decode", input: ["base64": .string(stored)]))
        let named: JSONValue = ["format": "base64-json", "base64": .string(stored)]
        #expect(wire.perform("selection.decode", named) == OperationTable.perform("selection.decode", input: named))
        let json: JSONValue = ["format": "json", "data": .string(Base64.encode(Array("{}".utf8)))]
        #expect(wire.perform("selection.decode", json) == .unsupported)
        #expect(wire.perform("selection.decode", ["format": "JSON", "data": ""]) == .error("badInput"))
        // The explorer sends such an implementation only the inputs it answers: no operation is dropped.
        let explored = ExplorationCheck(cases: 300, seed: 2, operations: [.selectionDecode]).run(
            plainOnly, relativeTo: "")
        #expect(explored.exploration?.unsupported == [], "\(explored.summary)")
        #expect(explored.findings.isEmpty, "\(explored.findings.map(\.key))")
    }

    @Test func theNewClosuresCountAsSupport() {
        let encoder = ScreenTimeImplementation(name: "e", encodeSelection: { try $0.encoded(as: $1) })
        #expect(encoder.supported == [.selectionEncode])
        let documents = ScreenTimeImplementation(name: "d", decodeSelectionDocument: { _ in [] })
        #expect(documents.supported == [.selectionDecode])
    }
}
