import Testing
import StrictJSON
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
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
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
}
