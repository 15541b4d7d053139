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
}
