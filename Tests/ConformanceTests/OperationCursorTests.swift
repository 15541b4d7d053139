import StrictJSON
import Testing

@testable import Conformance

/// ``OperationTable/Cursor`` (the last operation remembered) against ``OperationTable/perform(_:input:)``.
@Suite struct OperationCursorTests {
    static let requests: [(String, JSONValue)] = [
        ("url.encode", ["text": "a b"]),
        ("url.encode", ["text": "c/d"]),
        ("url.decode", ["encoded": "%41"]),
        ("no.such.op", ["text": "a"]),
        ("no.such.op", [:]),
        ("url.encode", ["text": "again"]),
        ("", [:]),
        ("url.decode", ["encoded": "%"]),
        // The same name in a string of its own (not the literal's storage), then a near miss.
        (String("url.decode".utf8.map { Character(Unicode.Scalar($0)) }), ["encoded": "x%20y"]),
        ("url.decodE", ["encoded": "x"]),
        ("template.render", ["template": "{a}", "values": ["a": "1"]]),
        ("template.render", ["template": "{a}", "values": ["a": 1]]),
        ("shield.evaluate", ["stores": [], "activity": ["kind": "application", "token": "t", "category": "c"]]),
        ("url.encode", 3),
    ]

    @Test func sameAnswersAsTheTableForEveryOrder() {
        // Every request after every other (and after itself): each pair of a remembered and a new name.
        for first in Self.requests {
            for second in Self.requests {
                var cursor = OperationTable.Cursor()
                for (op, input) in [first, second, second, first] {
                    #expect(
                        cursor.perform(op, input: input) == OperationTable.perform(op, input: input),
                        "\(first.0) \(second.0)")
                }
            }
        }
    }

    @Test func theReferenceImplementationAnswersLikeTheTable() {
        let cases = Self.requests.enumerated().map { index, request in
            ConformanceCase(id: "c\(index)", suite: "s", op: request.0, input: request.1, expect: .error("x"))
        }
        let answers = InProcessImplementation().answer(cases + cases.reversed(), progress: { _ in })
        let expected = (cases + cases.reversed()).map { Answer(OperationTable.perform($0.op, input: $0.input)) }
        #expect(answers == expected)
    }
}
