import Foundation
import ScreenTimeProperties
import ScreenTimeReference
import Testing
import _DifferentialFuzzTargets

/// The differential harness's allow-list is exact: each documented deviation is detected for what it is, and an
/// input with none agrees between the two decoders.
@Suite struct SelectionDifferentialTests {
    static let e3 = #""applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]"#

    static func stored(_ json: [UInt8]) -> [UInt8] { Array(Data(json).base64EncodedString().utf8) }
    static func stored(_ json: String) -> [UInt8] { stored(Array(json.utf8)) }

    /// The same base64 with a pad bit set in the last character before the padding (same bytes to Foundation).
    static func padBitsSet(_ text: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = text
        guard let i = out.firstIndex(of: UInt8(ascii: "=")).map({ $0 - 1 }), let k = alphabet.firstIndex(of: out[i])
        else { return out }
        out[i] = alphabet[k + 1]
        return out
    }

    @Test(arguments: [
        (padBitsSet(stored("{\(e3)}")), SelectionDeviation.nonCanonicalBase64),
        (
            stored(#"{"applicationTokens":[{"data":"QUFBQUFB=="}],"categoryTokens":[],"webDomainTokens":[]}"#),
            .nonCanonicalBase64
        ),
        (stored([0xEF, 0xBB, 0xBF] + Array("{\(e3)}".utf8)), .byteOrderMark),
        (stored(Array("{\(e3),\"x\":\"".utf8) + [0xFF] + Array("\"}".utf8)), .invalidUTF8),
        (stored("{\(e3),\"x\":\"\\ud800\"}"), .loneSurrogateEscape),
        (stored("{\(e3),\"x\":\"\\w\"}"), .invalidEscape),
        (stored("{\(e3),\"x\":\"a\u{01}\"}"), .unescapedControlCharacter),
        (
            stored("{\(e3),\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"),
            .nestingOver32
        ),
        (stored("{\(e3),\"x\":[1,]}"), .trailingComma),
        (stored("{\(e3),\"x\":01}"), .numberGrammar),
        (stored("{\(e3),\"x\":0.}"), .numberGrammar),
        (stored("{\(e3),\"applicationTokens\":[]}"), .duplicateKey),
        (stored("{\(e3),\"includeEntireCategory\":null}"), .nullOptionalMember),
        (stored(#"{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[]}"#), .tokenSize),
    ])
    func eachDeviationIsDetectedAsItself(input: [UInt8], deviation: SelectionDeviation) {
        let comparison = SelectionDifferential.compare(input)
        #expect(comparison.failure == nil, "\(comparison.failure.map(String.init(describing:)) ?? "")")
        #expect(comparison.deviations == [deviation])
        if case .success = comparison.ours { Issue.record("the reference accepted a deviating input") }
        #expect(comparison.foundation != nil, "Foundation no longer accepts this: the deviation may be gone")
    }

    /// Inputs with a structural deviation behind a lexical one, and every deviation each shows. The first two are
    /// what the fuzzer found: a repeated key behind a trailing comma, and one behind invalid UTF-8 with
    /// non-canonical token base64.
    static let mixedDeviations: [(json: [UInt8], deviations: Set<SelectionDeviation>)] = [
        (
            Array(
                #"{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[],"applicationTokens":[[],]}"#
                    .utf8),
            [.duplicateKey, .trailingComma, .tokenSize]
        ),
        (
            Array(#"{"x":[""#.utf8) + [0xC8, 0x9D, 0xFF]
                + Array(#""],"categoryTokens":[{"data":"AAABEHqrutLSO+gs="}],"#.utf8)
                + Array(#""applicationTokens":[],"webDomainTokens":[],"webDomainTokens":[]}"#.utf8),
            [.invalidUTF8, .duplicateKey, .nonCanonicalBase64]
        ),
        (Array("{\(e3),\"\\u0061pplicationTokens\":[],\"x\":01}".utf8), [.duplicateKey, .numberGrammar]),
        (Array("{\(e3),\"includeEntireCategory\":null,\"x\":\"\\w\"}".utf8), [.nullOptionalMember, .invalidEscape]),
    ]

    /// A structural deviation is still seen when a lexical one stops the strict parser.
    @Test(arguments: mixedDeviations.indices)
    func structuralDeviationsBehindLexicalOnes(index: Int) {
        let (json, expected) = Self.mixedDeviations[index]
        let input = Self.stored(json)
        let comparison = SelectionDifferential.compare(input)
        #expect(comparison.failure == nil, "\(comparison.failure.map(String.init(describing:)) ?? "")")
        #expect(SelectionDifferential.detectDeviations(input) == expected)
    }

    @Test func cleanInputsAgreeWithoutDeviations() {
        let token = Data((0..<128).map { UInt8($0) }).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
        for json in [
            "{\(Self.e3)}",
            #"{"applicationTokens":[{"data":"\#(token)"}],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":true,"x":[-0,1.5e3,"\u00e9"]}"#,
        ] {
            let comparison = SelectionDifferential.compare(Self.stored(json))
            #expect(comparison.failure == nil)
            #expect(comparison.deviations.isEmpty)
            if case .failure(let e) = comparison.ours { Issue.record("rejected a clean input: \(e)") }
        }
        // Both reject plain garbage: agreement, no deviation needed.
        #expect(SelectionDifferential.compare(Array("!!".utf8)).failure == nil)
    }

    @Test func everyDeviationHasASeed() throws {
        let names = try FileManager.default.contentsOfDirectory(
            atPath: CorpusReplayTests.corpus.appendingPathComponent("selection-differential").path)
        #expect(names.filter { $0.hasPrefix("deviation-") }.count >= 11)
    }
}
