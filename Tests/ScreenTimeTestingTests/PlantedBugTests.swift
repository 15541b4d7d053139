import Conformance
import ScreenTimeTesting
import StrictJSON
import Testing

/// A bug planted in one closure fails exactly the shipped cases it should, each reported with its id, expected
/// and actual answers and the difference.
@Suite struct PlantedBugTests {
    @Test func lowerCaseHexFailsExactlyTheEscapesWithAHexLetter() throws {
        let result = ConformanceCheck().run(planted { $0.encodeURLComponent = lowerHexEncoding }, relativeTo: "")
        // Computed from the vectors alone: a case fails when its expected encoding has a letter in an escape.
        let expected = shippedIDs("url.encode") { c in
            guard case .output(let members) = c.expect, let encoded = members["encoded"]?.stringValue else {
                return false
            }
            return hasHexLetterInAnEscape(encoded)
        }
        #expect(!expected.isEmpty)
        #expect(failingIDs(result) == expected)
        #expect(Set(result.issues.compactMap(\.subject)) == expected)
        let issue = try #require(result.issues.first { $0.subject == "url-encode/non-ascii-letter-encoded" })
        #expect(issue.text.hasPrefix("FAIL url-encode/non-ascii-letter-encoded  [url.encode]"), "\(issue.text)")
        #expect(issue.text.contains(#"expected: {"output":{"encoded":"Caf%C3%A9"}}"#), "\(issue.text)")
        #expect(issue.text.contains(#"actual:   {"output":{"encoded":"Caf%c3%a9"}}"#), "\(issue.text)")
        #expect(issue.text.contains(#"diff:     encoded: expected "Caf%C3%A9", got "Caf%c3%a9""#), "\(issue.text)")
        // The summary comes first, with the counts.
        #expect(result.issues.first?.subject == nil)
        #expect(result.issues.first?.text.contains("FAILED — ") == true)
        #expect(result.issues.first?.text.contains("\(expected.count) fail") == true)
    }

    @Test func setIterationOrderFailsExactlyTheCasesWithSeveralTokens() {
        // Field bug 4, made deterministic: the stable order reversed.
        let reversed = planted { implementation in
            let order = ScreenTimeImplementation.reference.displayOrder!
            implementation.displayOrder = { selection, kind in try order(selection, kind).reversed() }
        }
        let result = ConformanceCheck().run(reversed, relativeTo: "")
        let expected = shippedIDs("selection.order") { c in
            guard case .output(let members) = c.expect else { return false }
            return (members["tokens"]?.arrayValue?.count ?? 0) > 1
        }
        #expect(!expected.isEmpty)
        #expect(failingIDs(result) == expected)
    }
}

/// Whether one of the two digits after some `%` is a letter.
func hasHexLetterInAnEscape(_ encoded: String) -> Bool {
    let characters = Array(encoded)
    return characters.indices.contains { i in
        characters[i] == "%" && characters[(i + 1)..<min(i + 3, characters.count)].contains(where: \.isLetter)
    }
}
