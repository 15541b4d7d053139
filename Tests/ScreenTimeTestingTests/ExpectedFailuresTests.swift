import Foundation
import ScreenTimeTesting
import Testing

/// An expected-failures list is strict both ways, as `stc conformance --expect-failures` is.
@Suite struct ExpectedFailuresTests {
    static let lowerHex = planted { $0.encodeURLComponent = lowerHexEncoding }
    static let failing = failingIDs(ConformanceCheck().run(lowerHex, relativeTo: ""))

    @Test func listedFailuresAreKnownIssuesAndPass() throws {
        let result = ConformanceCheck(expectedFailures: .entries(Array(Self.failing))).run(
            Self.lowerHex, relativeTo: "")
        #expect(!Self.failing.isEmpty)
        #expect(result.passed, "\(result.issues.filter { !$0.isKnown }.map(\.text))")
        #expect(result.issues.allSatisfy(\.isKnown) && Set(result.issues.compactMap(\.subject)) == Self.failing)
        let issue = try #require(result.issues.first { $0.subject == "url-encode/non-ascii-letter-encoded" })
        #expect(
            issue.text
                == #"FAIL url-encode/non-ascii-letter-encoded  [url.encode]  (listed in expectedFailures): encoded: expected "Caf%C3%A9", got "Caf%c3%a9""#,
            "\(issue.text)")
    }

    @Test func aListedCaseThatPassesFails() throws {
        let passing = "url-encode/unreserved-kept"
        let result = ConformanceCheck(expectedFailures: .entries(Array(Self.failing) + [passing]))
            .run(Self.lowerHex, relativeTo: "")
        #expect(!result.passed)
        let issue = try #require(result.issues.first { $0.subject == passing && !$0.isKnown })
        #expect(issue.text.hasPrefix("UNEXPECTED PASS \(passing)"), "\(issue.text)")
        #expect(issue.text.hasSuffix("listed in expectedFailures, passes now: remove the line"), "\(issue.text)")
    }

    @Test func aListedIdThatNamesNoCaseFails() throws {
        let result = ConformanceCheck(expectedFailures: .entries(Array(Self.failing) + ["url-encode/no-such-case"]))
            .run(Self.lowerHex, relativeTo: "")
        #expect(!result.passed)
        let issue = try #require(result.issues.first { $0.subject == "url-encode/no-such-case" })
        #expect(issue.text.hasPrefix("UNKNOWN url-encode/no-such-case: listed in expectedFailures line "))
    }

    @Test func aListFileIsReadFromTheTestsDirectory() throws {
        let name = "expected-failures-\(UUID().uuidString).txt"
        let path = testDirectory + "/" + name
        try ("# the planted lower-case hex\n" + Self.failing.sorted().joined(separator: "\n") + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = ConformanceCheck(expectedFailures: .file(name)).run(Self.lowerHex, relativeTo: testDirectory)
        #expect(result.passed, "\(result.issues.map(\.text))")
        #expect(result.issues.count == Self.failing.count)
        let missing = ConformanceCheck(expectedFailures: .file("no-such-list.txt")).run(.reference, relativeTo: "/")
        #expect(
            missing.issues.map(\.text) == [
                "reference: the check could not start: /no-such-list.txt: cannot read the expected-failures file"
            ])
    }

    /// Listed cases of operations the check does not run are neither expected nor unknown.
    @Test func listedCasesLeftOutByTheOperationsAreNeither() {
        let result = ConformanceCheck(operations: [.urlDecode], expectedFailures: .entries(Array(Self.failing)))
            .run(Self.lowerHex, relativeTo: "")
        #expect(result.passed && result.issues.isEmpty, "\(result.issues.map(\.text))")
    }

    @Test func tagsSelectTheCasesThatHaveAnyOfThem() {
        let result = ConformanceCheck(tags: ["field-bug-7"]).run(Self.lowerHex, relativeTo: "")
        let tagged = Set(shippedCases.filter { $0.tags.contains("field-bug-7") }.map(\.id))
        #expect(Set(result.statuses.keys) == tagged)
        #expect(failingIDs(result) == Self.failing.intersection(tagged))
    }
}
