import Foundation
import StrictJSON
import Testing

@testable import Conformance

@Suite struct SuiteLoaderTests {
    func errors(_ text: String, file: String = "t.json") -> [SuiteLoadError] {
        do {
            _ = try SuiteLoader.parse([(file, Array(text.utf8))])
            return []
        } catch {
            return error.errors
        }
    }

    let good = """
        {"suite": "s", "schema": 1, "cases": [
          {"id": "s/a", "op": "x", "input": {}, "expect": {"error": "e"}, "tags": [], "source": ""}
        ]}
        """

    @Test func loadsTheFixtureSuites() throws {
        let suites = try Fixtures.load("basic.json", "resilience.json")
        #expect(suites.map(\.name) == ["basic", "resilience"])
        #expect(suites[0].cases.count == 5)
        #expect(suites[0].cases[3].isAssumption)
        #expect(suites[0].cases[0].expect == .output(["value": "x"]))
        #expect(suites[0].cases[1].expect == .error("base64"))
    }

    @Test func loadsADirectory() throws {
        let suites = try SuiteLoader.load(paths: [Fixtures.root + "/suites"])
        #expect(suites.count == 2)
    }

    @Test func badJSONGivesLineColumnAndByteOffset() {
        let errs = errors("{\"suite\": \"s\",\n  \"schema\": 1,\n  \"cases\": [,]}")
        #expect(errs.count == 1)
        #expect(errs[0].line == 3)
        #expect(errs[0].column == 13)
        #expect(errs[0].offset == 42)
        #expect(errs[0].description.hasPrefix("t.json:3:13 (byte 42): not valid JSON"))
    }

    @Test func duplicateIdsAcrossFilesNameBothPlaces() {
        do {
            _ = try SuiteLoader.parse([
                ("a.json", Array(good.utf8)),
                ("b.json", Array(good.replacingOccurrences(of: "\"s\"", with: "\"t\"").utf8)),
            ])
            Issue.record("expected a duplicate id error")
        } catch {
            #expect(error.errors.count == 1)
            let message = error.errors[0].description
            #expect(message.hasPrefix("b.json:2:10"), "\(message)")
            #expect(message.contains("duplicate case id \"s/a\" (first defined at a.json:2:10"), "\(message)")
        }
    }

    @Test func missingAndMistypedMembersArePinpointed() {
        let text = """
            {"suite": "s", "schema": 1, "cases": [
              {"id": "s/a", "op": "x", "input": {}, "expect": {"error": "e"}, "tags": []},
              {"id": "s/b", "op": 3, "input": {}, "expect": {"error": "e", "output": {}}, "tags": [], "source": ""},
              {"id": "s c", "op": "x", "input": {}, "expect": {"output": []}, "tags": [1], "source": "", "tag": []}
            ]}
            """
        let messages = errors(text).map(\.description)
        #expect(messages.contains { $0.hasPrefix("t.json:2:3") && $0.contains("lacks \"source\"") }, "\(messages)")
        #expect(
            messages.contains { $0.hasPrefix("t.json:3:23") && $0.contains("\"op\" must be a non-empty string") },
            "\(messages)")
        #expect(messages.contains { $0.hasPrefix("t.json:3:49") && $0.contains("both") }, "\(messages)")
        #expect(messages.contains { $0.contains("id \"s c\" holds whitespace") }, "\(messages)")
        #expect(messages.contains { $0.contains("expect.output must be an object") }, "\(messages)")
        #expect(messages.contains { $0.contains("a tag must be a string") }, "\(messages)")
        #expect(messages.contains { $0.contains("unknown case member \"tag\"") }, "\(messages)")
    }

    @Test func topLevelRules() {
        #expect(errors("[]")[0].message.contains("must be a JSON object"))
        #expect(
            errors("{\"suite\": \"s\", \"schema\": 2, \"cases\": []}")[0].message.contains("unsupported \"schema\" 2"))
        #expect(errors("{\"suite\": \"s\", \"schema\": 1}")[0].message.contains("missing \"cases\""))
        #expect(errors("{\"suite\": \"\", \"schema\": 1, \"cases\": []}")[0].message.contains("non-empty"))
        #expect(
            errors("{\"suite\": \"s\", \"schema\": 1, \"cases\": [], \"suite\": \"t\"}")[0].message.contains("repeated")
        )
        #expect(
            errors("{\"suite\": \"s\", \"schema\": 1, \"cases\": [], \"extra\": 1}")[0].message.contains(
                "unknown member \"extra\""))
        #expect(errors(good).isEmpty)
    }

    @Test func missingPathsAndEmptyDirectoriesAreErrors() throws {
        #expect(throws: SuiteLoadFailure.self) { try SuiteLoader.load(paths: ["/nonexistent/vectors"]) }
        let empty = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: SuiteLoadFailure.self) { try SuiteLoader.load(paths: [empty]) }
    }

    @Test func locatorFindsNestedValues() {
        let bytes = Array("{\"a\": [1, {\"b\\u0041\": \"x\"}], \"c\": 2}".utf8)
        #expect(JSONLocator.offset(of: [.key("c")], in: bytes) == 34)
        #expect(JSONLocator.offset(of: [.key("a"), .index(1), .key("bA")], in: bytes) == 22)
        #expect(JSONLocator.offset(of: [.key("zz")], in: bytes) == 0)
    }
}
