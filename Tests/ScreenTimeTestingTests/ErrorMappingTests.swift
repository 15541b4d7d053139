import Conformance
import Testing

@testable import ScreenTimeTesting

/// A user's error types become the spec's codes through their mapping; anything unmapped is an error with an
/// unknown code, shown as what was thrown.
@Suite struct ErrorMappingTests {
    /// The reference's URL decoding, throwing errors of its own as a user's code would.
    static let decoding = planted { implementation in
        implementation.decodeURLComponent = { encoded in
            do throws(PercentDecodingError) {
                return try PercentEncoding.decodeComponent(encoded)
            } catch {
                throw error.code == .invalidUTF8 ? KitTestError.badBytes : LinkError.malformed(at: error.offset)
            }
        }
    }

    @Test func mappedErrorsAnswerTheirCodes() {
        var mapped = Self.decoding
        mapped.errorCode = { error in
            switch error {
            case is LinkError: return "invalidPercentEncoding"
            case KitTestError.badBytes: return "invalidUTF8"
            default: return nil
            }
        }
        let result = ConformanceCheck(operations: [.urlDecode]).run(mapped, relativeTo: "")
        #expect(result.passed, "\(result.issues.map(\.text))")
        #expect(result.statuses.count == shippedIDs("url.decode") { _ in true }.count)
    }

    @Test func anUnmappedErrorIsAnUnknownCodeShownAsThrown() throws {
        var halfMapped = Self.decoding
        halfMapped.errorCode = { $0 is LinkError ? "invalidPercentEncoding" : nil }
        let result = ConformanceCheck(operations: [.urlDecode]).run(halfMapped, relativeTo: "")
        let expected = shippedIDs("url.decode") { $0.expect == .error("invalidUTF8") }
        #expect(!expected.isEmpty)
        #expect(failingIDs(result) == expected)
        let issue = try #require(result.issues.first { $0.subject.map(expected.contains) == true })
        #expect(issue.text.contains(#"actual:   {"error":"unknown error: KitTestError.badBytes"}"#), "\(issue.text)")
        #expect(
            issue.text.contains("diff:     expected error invalidUTF8, got error unknown error: KitTestError.badBytes"))
    }

    @Test func theReferencesOwnErrorsNeedNoMapping() {
        #expect(
            ThrownErrorCode.code(
                of: ShieldLimitExceeded(storeIndex: 0, set: .applications, count: 51), mapping: { _ in nil })
                == "limitExceeded")
        #expect(ThrownErrorCode.code(of: BadInput("x"), mapping: { _ in nil }) == "badInput")
        // The user's mapping comes first.
        #expect(ThrownErrorCode.code(of: BadInput("x"), mapping: { _ in "json" }) == "json")
    }

    @Test func anUnknownErrorIsNamedByItsTypeAndCase() {
        #expect(ThrownErrorCode.describe(KitTestError.badBytes) == "KitTestError.badBytes")
        #expect(ThrownErrorCode.describe(LinkError.malformed(at: 3)) == "LinkError.malformed(at: 3)")
        #expect(ThrownErrorCode.describe(Oops(line: 3)) == "Oops(line: 3)")
    }
}

enum LinkError: Error {
    case malformed(at: Int)
}

struct Oops: Error {
    var line: Int
}
