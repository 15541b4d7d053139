import StrictJSON
import Testing

@testable import Conformance

@Suite struct InputReaderTests {
    @Test func unknownOperationIsUnsupported() {
        #expect(OperationTable.perform("no.such.op", input: [:]) == .unsupported)
    }

    @Test func readerThrowsBadInputOnMissingOrMistypedMembers() throws {
        let reader = InputReader(["s": "x", "n": 1, "a": ["p", 2]])
        #expect(try reader.string("s") == "x")
        #expect(throws: BadInput.self) { try reader.string("missing") }
        #expect(throws: BadInput.self) { try reader.string("n") }
        #expect(throws: BadInput.self) { try reader.stringArray("a") }
        #expect(throws: BadInput.self) { try InputReader("not an object").string("s") }
    }

    @Test func smallObjectLookupAgreesWithTheDictionary() {
        // InputReader.lookup scans small objects instead of hashing; it must find exactly what the subscript finds.
        let nfc = "caf\u{E9}"
        let nfd = "cafe\u{301}"
        let keys = ["a", "b", "applicationCategories", "webDomainCategories", nfc, "", "x y", "missing"]
        for size in [0, 1, 2, 3, InputReader.smallObjectLimit, InputReader.smallObjectLimit + 1, 20] {
            var members: [String: JSONValue] = [:]
            for i in 0..<size { members[i < keys.count - 1 ? keys[i] : "k\(i)"] = .number(Double(i)) }
            for key in keys + [nfd, "k9", "k19", "A"] {
                #expect(InputReader.lookup(members, key) == members[key], "size \(size), key \(key)")
                #expect(InputReader(.object(members)).optional(key) == members[key])
                #expect(InputReader(.object(members)).has(key) == (members[key] != nil))
            }
        }
        #expect(InputReader("not an object").optional("a") == nil)
        #expect(!InputReader([1]).has("a"))
    }

    @Test func operationBodiesMapEveryErrorKindToItsCode() {
        // Operation(name:summary:body:) catches WireErrorCode and BadInput by concrete type before CodedError.
        struct Other: Error {}
        struct Coded: CodedError { var code: String { "limitExceeded" } }
        let cases: [(any Error, OperationOutcome)] = [
            (WireErrorCode("base64"), .error("base64")), (BadInput("x"), .error("badInput")),
            (Coded(), .error("limitExceeded")), (Other(), .error("badInput")),
        ]
        for (error, outcome) in cases {
            let op = Operation(name: "t", summary: "") { _ in throw error }
            #expect(op.perform([:]) == outcome)
        }
        #expect(Operation(name: "t", summary: "") { _ in ["ok": true] }.perform([:]) == .output(["ok": true]))
    }

    @Test func matcherPassAndFailAgreeWithTheMemberwiseRule() {
        // The pass fast path must pass exactly when every named member is present and JSON-equal.
        let actual: JSONValue = ["a": 1, "b": "x", "c": [1, 2]]
        let expectations: [([String: JSONValue], Bool)] = [
            ([:], true), (["a": 1], true), (["a": 1.0, "c": [1, 2]], true), (["a": 2], false), (["d": nil], false),
            (["a": 1, "b": "y"], false), (["c": [2, 1]], false), (["b": "x", "a": 1, "c": [1, 2]], true),
        ]
        for (members, passes) in expectations {
            let (status, mismatch) = Matcher.judge(.output(members), .output(actual))
            #expect(status == (passes ? .pass : .fail), "\(members)")
            #expect((mismatch == nil) == passes)
        }
    }

    @Test func performDispatchesToEveryOperationByName() {
        // perform(_:input:) goes through `indexByName`: positions in `all`, by the same names as `byName`.
        #expect(Set(OperationTable.indexByName.keys) == Set(OperationTable.byName.keys))
        #expect(OperationTable.indexByName.count == OperationTable.all.count)
        for (name, index) in OperationTable.indexByName { #expect(OperationTable.all[index].name == name) }
        let inputs: [JSONValue] = [
            [:], ["text": "a b"], ["encoded": "%41"], ["base64": "e30="], ["template": "{a}", "values": [:]],
        ]
        for op in OperationTable.all {
            for input in inputs {
                #expect(OperationTable.perform(op.name, input: input) == op.perform(input), "\(op.name) \(input)")
            }
        }
    }
}
