import ScreenTimeReference
import StrictJSON
import Testing

@testable import Conformance

/// Output objects made from an ``OutputShape`` against the same objects written as dictionary literals.
@Suite struct OutputShapeTests {
    /// Same value, same members (keys compared by code point as well as by `==`) and the same JSON text.
    func expectSame(
        _ made: JSONValue, _ literal: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(made == .object(literal), sourceLocation: sourceLocation)
        #expect(made.objectValue == literal, sourceLocation: sourceLocation)
        let madeKeys: [[Unicode.Scalar]] = (made.objectValue ?? [:]).keys.sorted(by: JSONWriter.codePointLess).map {
            Array($0.unicodeScalars)
        }
        let literalKeys: [[Unicode.Scalar]] = literal.keys.sorted(by: JSONWriter.codePointLess).map {
            Array($0.unicodeScalars)
        }
        #expect(madeKeys == literalKeys, sourceLocation: sourceLocation)
        #expect(JSONWriter.string(made) == JSONWriter.string(.object(literal)), sourceLocation: sourceLocation)
    }

    @Test func oneMember() {
        let shape = OutputShape("encoded")
        for text in ["", "a%20b", "日本", String(repeating: "x", count: 300)] {
            expectSame(shape.object([.string(text)]), ["encoded": .string(text)])
        }
    }

    @Test func severalMembersOfEveryType() {
        let shape = OutputShape("applications", "categories", "webDomains", "includeEntireCategory", "canonical")
        let values: [JSONValue] = [.number(3), .number(0), .number(1.5), .bool(true), .string("e30=")]
        expectSame(
            shape.object(values),
            [
                "applications": .number(3), "categories": .number(0), "webDomains": .number(1.5),
                "includeEntireCategory": .bool(true), "canonical": .string("e30="),
            ])
        let nested = OutputShape("text", "missing", "extra")
        expectSame(
            nested.object([.null, .array([.string("a"), .null]), .object(["k": .bool(false)])]),
            ["text": .null, "missing": .array([.string("a"), .null]), "extra": .object(["k": .bool(false)])])
    }

    @Test func eachObjectIsItsOwn() {
        let shape = OutputShape("a", "b")
        let first = shape.object([.number(1), .number(2)])
        let second = shape.object([.number(3), .number(4)])
        expectSame(first, ["a": .number(1), "b": .number(2)])
        expectSame(second, ["a": .number(3), "b": .number(4)])
    }

    @Test func nonASCIIAndCanonicallyEquivalentLookingKeys() {
        // "é" precomposed and decomposed are different keys by code point; the literal keeps one of them (Swift's
        // `==` calls them equal), so only distinct keys are tried here: both forms in separate shapes.
        let precomposed = OutputShape("caf\u{E9}", "x")
        expectSame(precomposed.object([.number(1), .number(2)]), ["caf\u{E9}": .number(1), "x": .number(2)])
        let decomposed = OutputShape("cafe\u{301}")
        expectSame(decomposed.object([.number(1)]), ["cafe\u{301}": .number(1)])
    }

    @Test func aWrongNumberOfValuesDoesNotTrap() {
        let shape = OutputShape("a", "b")
        expectSame(shape.object([.number(1)]), ["a": .number(1)])
        expectSame(shape.object([.number(1), .number(2), .number(3)]), ["a": .number(1), "b": .number(2)])
    }

    // MARK: The operations' outputs against the literals they replaced

    @Test func selectionOutputMatchesTheLiteral() throws {
        let stored = OperationTableSelectionTests.stored(["mail", "maps"], entire: true)
        let selection = try FamilyActivitySelection(storedBase64: stored)
        expectSame(
            SelectionWire.output(selection),
            [
                "applications": .number(Double(selection.applicationTokens.count)),
                "categories": .number(Double(selection.categoryTokens.count)),
                "webDomains": .number(Double(selection.webDomainTokens.count)),
                "includeEntireCategory": .bool(selection.includeEntireCategory),
                "canonical": .string(selection.canonicalBase64),
            ])
        expectSame(SelectionWire.equalOutput(true), ["equal": .bool(true)])
        expectSame(SelectionWire.equalOutput(false), ["equal": .bool(false)])
    }
}
