import ScreenTimeReference
import StrictJSON
import Testing

@testable import Conformance

@Suite struct OperationTableEncodingTests {
    @Test func encodingOperationsAreInTheTable() {
        for name in ["url.encode", "url.decode", "template.render"] {
            #expect(OperationTable.byName[name] != nil, "\(name)")
        }
    }

    // MARK: url.encode

    @Test(arguments: [
        ("Tom & Jerry", "Tom%20%26%20Jerry"),
        ("Café", "Caf%C3%A9"),
        ("C++", "C%2B%2B"),
        ("!'()*", "%21%27%28%29%2A"),
        ("", ""),
    ])
    func urlEncode(text: String, encoded: String) {
        #expect(
            OperationTable.perform("url.encode", input: ["text": .string(text)])
                == .output(["encoded": .string(encoded)]))
    }

    // MARK: url.decode

    @Test func urlDecode() {
        #expect(OperationTable.perform("url.decode", input: ["encoded": "Caf%c3%A9+"]) == .output(["text": "Café+"]))
        #expect(OperationTable.perform("url.decode", input: ["encoded": "%00"]) == .output(["text": "\u{0}"]))
    }

    @Test(arguments: [
        ("%", "invalidPercentEncoding"),
        ("%4G", "invalidPercentEncoding"),
        ("a b", "invalidPercentEncoding"),
        ("Café", "invalidPercentEncoding"),
        ("%C3", "invalidUTF8"),
        ("%ED%A0%80", "invalidUTF8"),
        ("%FF", "invalidUTF8"),
    ])
    func urlDecodeErrors(encoded: String, code: String) {
        #expect(OperationTable.perform("url.decode", input: ["encoded": .string(encoded)]) == .error(code))
    }

    // MARK: template.render

    @Test func templateRender() {
        let input: JSONValue = [
            "template": "{applicationName|This app} is blocked by {owner}. {asNumber:} {{x}}",
            "values": ["applicationName": nil, "owner": "", "x": "{owner}"],
        ]
        #expect(
            OperationTable.perform("template.render", input: input)
                == .output([
                    "text": "This app is blocked by . {asNumber:} {{owner}}", "missing": ["applicationName", "owner"],
                ])
        )
        #expect(
            OperationTable.perform("template.render", input: ["template": "{a}", "values": ["a": "日本"]])
                == .output(["text": "日本", "missing": []])
        )
    }

    /// The values object converted with `mapValues` against the member-by-member conversion it replaced.
    @Test func templateValuesAsBeforeMapValues() {
        let templates = ["{a} {b|fb} {c} {missing}", "plain", "{日本|x}{a}"]
        let valueSets: [[String: JSONValue]] = [
            [:], ["a": "1"], ["a": nil, "b": "", "c": "三"], ["日本": "y", "b": nil],
            Dictionary(uniqueKeysWithValues: (0..<20).map { ("k\($0)", $0 % 3 == 0 ? .null : .string("v\($0)")) }),
        ]
        for template in templates {
            for members in valueSets {
                var values = [String: String?](minimumCapacity: members.count)
                for (key, value) in members { values[key] = .some(value.stringValue) }
                let rendering = ShieldTextTemplate(template).render(values)
                let expected: JSONValue = [
                    "text": .string(rendering.text), "missing": .array(rendering.missing.map { .string($0) }),
                ]
                #expect(
                    OperationTable.perform(
                        "template.render", input: ["template": .string(template), "values": .object(members)])
                        == .output(expected), "\(template) \(members)")
            }
        }
    }

    // MARK: badInput

    static let badInputs: [(String, JSONValue)] = [
        ("url.encode", [:]),
        ("url.encode", ["text": 1]),
        ("url.encode", ["text": nil]),
        ("url.encode", "text"),
        ("url.decode", [:]),
        ("url.decode", ["encoded": ["%41"]]),
        ("url.decode", ["text": "%41"]),
        ("template.render", ["values": [:]]),
        ("template.render", ["template": "{a}"]),
        ("template.render", ["template": 3, "values": [:]]),
        ("template.render", ["template": "{a}", "values": ["a"]]),
        ("template.render", ["template": "{a}", "values": nil]),
        ("template.render", ["template": "{a}", "values": ["a": 1]]),
        ("template.render", ["template": "{a}", "values": ["a": true]]),
        ("template.render", ["template": "{a}", "values": ["a": ["x"]]]),
        ("template.render", ["template": "{a}", "values": ["a": ["b": "c"]]]),
        ("template.render", ["template": "{a}", "values": ["ok": "x", "a": 2.5]]),
    ]

    @Test(arguments: badInputs)
    func badInput(op: String, input: JSONValue) {
        #expect(OperationTable.perform(op, input: input) == .error("badInput"), "\(op) \(input)")
    }

    @Test func extraInputMembersAreIgnored() {
        #expect(
            OperationTable.perform("url.encode", input: ["text": "a b", "extra": 1]) == .output(["encoded": "a%20b"]))
    }
}
