import Foundation
import Testing

@Suite struct InspectCommandTests {
    static let capture = PackagePaths.deviceCaptures.appendingPathComponent("all-categories.b64")
    static var captureAvailable: Bool { FileManager.default.fileExists(atPath: capture.path) }

    @Test(.enabled(if: captureAvailable, "device captures not found at ../shared/fixtures/device-selections"))
    func reportsADeviceCapture() throws {
        let run = try StcBinary.run(["inspect", Self.capture.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("categories    13"))
        #expect(run.stdout.contains("13 × 128 bytes"))
        #expect(run.stdout.contains("includeEntireCategory  false"))
        #expect(run.stdout.contains("(not canonical)"))
    }

    @Test func explainsGarbageOnStandardInputAndExitsOne() throws {
        let run = try StcBinary.run(["inspect", "-"], stdin: Data("!!\n".utf8))
        #expect(run.status == 1)
        #expect(run.stdout.contains("Invalid selection: base64"))
        #expect(run.stdout.contains("at byte 0 of the base64 text"))
    }

    @Test func pointsIntoTheJSONForSchemaErrors() throws {
        // {"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":7}
        let json = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":7}"#
        let run = try StcBinary.run(["inspect", Data(json.utf8).base64EncodedString()])
        #expect(run.status == 1)
        #expect(run.stdout.contains("Invalid selection: schema"))
        #expect(run.stdout.contains("at byte \(json.utf8.count - 2) of the decoded JSON"))
    }

    @Test func canonicalInputIsReportedAsSuchAndWarnsOnOddTokens() throws {
        let json =
            #"{"applicationTokens":[{"data":"AAAA"},{"data":"AAAA"}],"categoryTokens":[],"includeEntireCategory":false,"untokenizedApplicationIdentifiers":[],"untokenizedCategoryIdentifiers":[],"untokenizedWebDomainIdentifiers":[],"webDomainTokens":[]}"#
        let run = try StcBinary.run(["inspect", "--json", Data(json.utf8).base64EncodedString()])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""isCanonical": false"#))  // the duplicate makes it non-canonical
        #expect(run.stdout.contains("not 128 bytes"))
        #expect(run.stdout.contains("1 duplicate applications token"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try StcBinary.run(["inspect", "--bogus"]).status == 2)
        #expect(try StcBinary.run(["inspect", "a", "b"]).status == 2)
        #expect(try StcBinary.run(["no-such-command"]).status == 2)
        #expect(try StcBinary.run(["inspect", "--help"]).status == 0)
        #expect(try StcBinary.run(["--help"]).stdout.contains("inspect"))
    }
}

@Suite struct AdapterCommandTests {
    @Test func answersEveryLineInOrderAndSurvivesHostileInput() throws {
        let empty = Data(#"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]}"#.utf8)
            .base64EncodedString()
        let deep = Data(String(repeating: "[", count: 100_000).utf8).base64EncodedString()
        let badUTF8 = Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]).base64EncodedString()
        let lines = [
            #"{"id":"1","op":"selection.decode","input":{"base64":"\#(empty)"}}"#,
            #"{"id":"2","op":"selection.decode","input":{"base64":"\#(String(repeating: "A", count: 3 << 20))"}}"#,
            #"{"id":"3","op":"selection.decode","input":{"base64":"\#(deep)"}}"#,
            #"{"id":"4","op":"selection.decode","input":{"base64":"\#(badUTF8)"}}"#,
            "not json",
            #"{"id":5,"op":"no.such.op","input":{}}"#,
            #"{"id":"6","op":"selection.decode","input":{"base64":42}}"#,
            #"{"id":"7","op":"selection.equal","input":{"a":"\#(empty)","b":"\#(empty)"}}"#,
        ]
        let run = try StcBinary.run(["adapter"], stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(run.status == 0)
        let responses = run.stdout.split(separator: "\n").map(String.init)
        #expect(responses.count == lines.count)
        guard responses.count == 8 else { return }
        #expect(responses[0].contains(#""applications":0"#) && responses[0].contains(#""id":"1""#))
        #expect(responses[1] == #"{"error":"tooLarge","id":"2"}"#)
        #expect(responses[2] == #"{"error":"json","id":"3"}"#)
        #expect(responses[3] == #"{"error":"json","id":"4"}"#)
        #expect(responses[4] == #"{"error":"protocol","id":null}"#)
        #expect(responses[5] == #"{"id":5,"unsupported":true}"#)
        #expect(responses[6] == #"{"error":"badInput","id":"6"}"#)
        #expect(responses[7] == #"{"id":"7","output":{"equal":true}}"#)
    }
}

/// `stc inspect` on the storage formats of `SPEC.md` §1.1, with the example files of
/// `Examples/stored-selections/` (made by its `make-examples.py`).
@Suite struct InspectFormatsTests {
    static func example(_ name: String) -> String {
        PackagePaths.root.appendingPathComponent("Examples/stored-selections").appendingPathComponent(name).path
    }

    @Test func namesAndExplainsRawJSON() throws {
        let run = try StcBinary.run(["inspect", Self.example("app-storage.json")])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Format: JSON (json, detected)"))
        #expect(run.stdout.contains("applications   2"))
        #expect(run.stdout.contains("Canonical json ("))
    }

    @Test func aDocumentShowsEverySelectionAndTheBadOneAtItsPath() throws {
        let run = try StcBinary.run(["inspect", Self.example("profiles.json")])
        #expect(run.status == 1)
        #expect(run.stdout.contains("Format: JSON document (json-document, detected): 3 selections at "))
        #expect(run.stdout.contains("1 of 3 invalid; the others still decode"))
        #expect(run.stdout.contains("Selection at /C47D2E19-8A3B-4F65-A1C0-9D5E6B2F7A84/selectedActivity"))
        #expect(run.stdout.contains("Invalid selection: token"))
        #expect(run.stdout.components(separatedBy: "  Valid selection").count == 3)
        let json = try StcBinary.run(["inspect", "--json", Self.example("profiles.json")])
        #expect(json.stdout.contains(#""format": "json-document""#))
        #expect(json.stdout.contains(#""path": "/8B1E4D02-5C7F-4A93-B6D8-2E9F1A7C4B60/selectedActivity""#))
    }

    @Test func namesBothPropertyListsAndTheyHoldTheSameSelection() throws {
        let binary = try StcBinary.run(["inspect", "--json", Self.example("selection.plist")])
        let xml = try StcBinary.run(["inspect", "--json", Self.example("selection.xml.plist")])
        #expect(binary.status == 0 && xml.status == 0)
        #expect(binary.stdout.contains(#""format": "binary-plist""#))
        #expect(xml.stdout.contains(#""format": "xml-plist""#))
        func canonical(_ text: String) -> Substring? {
            text.split(separator: "\n").first { $0.contains(#""canonical":"#) }
        }
        #expect(canonical(binary.stdout) != nil && canonical(binary.stdout) == canonical(xml.stdout))
        let text = try StcBinary.run(["inspect", Self.example("selection.plist")])
        #expect(text.stdout.contains("Format: binary property list (binary-plist, detected)"))
    }

    @Test func formatForcesTheReadingAndAnUnknownOneIsAUsageError() throws {
        let forced = try StcBinary.run(["inspect", "--format", "json", "e30="])
        #expect(forced.status == 1)
        #expect(forced.stdout.contains("Format: JSON (json, as --format says)"))
        #expect(forced.stdout.contains("Invalid selection: json"))
        let plist = try StcBinary.run(["inspect", "--format", "xml-plist", Self.example("selection.plist")])
        #expect(plist.stdout.contains("Invalid selection: plist"))
        let unknown = try StcBinary.run(["inspect", "--format", "yaml", "e30="])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'yaml' is not a format"))
    }
}
