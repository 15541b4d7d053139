import Foundation
import PropertyTesting
import Testing

@testable import FuzzHarnesses
@testable import ReferenceProperties

/// The corpus workflow behind `stc fuzz add` and `stc fuzz replay`, in-process on a temporary corpus root,
/// and the second implementations the `url` and `template` targets compare against.
@Suite struct FuzzCorpusTests {
    static func temporaryRoot() throws -> String {
        let root = NSTemporaryDirectory() + "fuzz-corpus-tests-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// A target with a known bug: it fails on any input that starts with "boom".
    static let planted = FuzzTarget(name: "planted", summary: "fails on inputs starting with boom") { bytes in
        bytes.starts(with: Array("boom".utf8)) ? HarnessFailure("planted bug", "\(bytes.count) bytes") : nil
    }

    @Test func addingAFailingInputMakesTheReplayFailAndAddingItAgainChangesNothing() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = FuzzCorpus(root: root)
        _ = try corpus.addSeed(Array("fine".utf8), target: "planted")
        #expect(FuzzCorpus.replay(Self.planted, files: corpus.seeds("planted") + corpus.regressions("planted")).allSatisfy { $0.failure == nil })

        let crash = Array("boom!".utf8)
        let (path, isNew) = try corpus.addRegression(crash, target: "planted")
        #expect(isNew)
        #expect(path == root + "/planted/regressions/" + FNV1a64.hex(crash))
        let outcomes = FuzzCorpus.replay(Self.planted, files: corpus.seeds("planted") + corpus.regressions("planted"))
        #expect(outcomes.count == 2)
        #expect(outcomes.filter { $0.failure != nil }.map(\.path) == [path])

        let again = try corpus.addRegression(crash, target: "planted")
        #expect(!again.isNew && again.path == path)
        #expect(corpus.regressions("planted").count == 1)
    }

    @Test func neverOverwritesAFileThatHasTheNameButOtherContent() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = FuzzCorpus(root: root)
        let bytes = Array("x".utf8)
        let dir = corpus.regressionDirectory("planted")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + FNV1a64.hex(bytes)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("other".utf8)))
        #expect(try !corpus.addRegression(bytes, target: "planted").isNew)
        #expect(FileManager.default.contents(atPath: path) == Data("other".utf8))
    }

    @Test func hiddenFilesAndDirectoriesAreNotInputs() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = FuzzCorpus(root: root)
        _ = try corpus.addSeed([1], target: "t")
        _ = FileManager.default.createFile(atPath: corpus.seedDirectory("t") + "/.tmp-x", contents: Data())
        _ = try corpus.addRegression([2], target: "t")
        #expect(corpus.seeds("t").count == 1)  // not .tmp-x, not regressions/
        #expect(corpus.regressions("t").count == 1)
    }

    // MARK: The second opinions inside the encoding targets

    @Test func theEncoderCheckRejectsLowerCaseHexAndKeptReservedBytes() {
        #expect(EncodingInvariants.checkEncoderOutput(Array("%C3%A9".utf8), of: [0xC3, 0xA9]) == nil)
        #expect(EncodingInvariants.checkEncoderOutput(Array("%c3%A9".utf8), of: [0xC3, 0xA9]) != nil)
        #expect(EncodingInvariants.checkEncoderOutput(Array("a b".utf8), of: Array("a b".utf8)) != nil)
        #expect(EncodingInvariants.checkEncoderOutput(Array("+".utf8), of: Array("+".utf8)) != nil)
        #expect(EncodingInvariants.checkEncoderOutput(Array("ab".utf8), of: Array("a".utf8)) != nil)
    }

    @Test(arguments: [
        ("Caf%C3%A9+%26", "Café+&"), ("%41%7e", "A~"), ("", ""),
    ])
    func theNaiveDecoderDecodes(input: String, expected: String) {
        guard case .decoded(let bytes) = EncodingInvariants.naiveDecode(Array(input.utf8)) else {
            Issue.record("rejected \(input)")
            return
        }
        #expect(bytes == Array(expected.utf8))
    }

    @Test(arguments: ["100%", "%4", "%G1", "a b", "é", "#"])
    func theNaiveDecoderRejectsBadEscapesAndRawCharacters(input: String) {
        guard case .rejected(let code) = EncodingInvariants.naiveDecode(Array(input.utf8)) else {
            Issue.record("accepted \(input)")
            return
        }
        #expect(code == .invalidPercentEncoding)
    }

    @Test(arguments: ["%C3%28", "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "%E6%97"])
    func theNaiveDecoderRejectsIllFormedUTF8(input: String) {
        guard case .rejected(let code) = EncodingInvariants.naiveDecode(Array(input.utf8)) else {
            Issue.record("accepted \(input)")
            return
        }
        #expect(code == .invalidUTF8)
    }

    /// The naive renderer on the examples SPEC §4 and the reference's documentation give.
    @Test(arguments: [
        ("{applicationName|This app} is blocked. {{oops}", [String: String?](), "This app is blocked. {", ["applicationName", "oops"]),
        ("{{a}}", ["a": "Mail"], "{Mail}", []),
        ("{{a}}", [:], "{}", ["a"]),
        ("{a|x{b}}", ["b": "B"], "{a|xB}", []),  // `{a|x` is literal: `a` is no placeholder
        ("{ } {} {|x} {asNumber:} { key }", [:], "{ } {} {|x} {asNumber:} { key }", []),
        ("{a}{b}{a}", ["b": "", "a": nil], "", ["a", "b"]),
        ("{a} {b}", ["a": "{b}", "b": "X"], "{b} X", []),
        ("{k|a|b}", [:], "a|b", ["k"]),
    ] as [(String, [String: String?], String, [String])])
    func theNaiveRendererFollowsTheSpec(template: String, values: [String: String?], text: String, missing: [String]) {
        let result = EncodingInvariants.NaiveTemplate.render(EncodingInvariants.NaiveTemplate.parse(Array(template.utf8)), values)
        #expect(String(decoding: result.text, as: UTF8.self) == text)
        #expect(result.missing == missing)
    }

    @Test func theTemplateInputSplitsAtNULIntoKeyValueItems() {
        let (template, values) = EncodingInvariants.splitTemplateInput(Array("{a}{b}\u{0}a=x=y\u{0}b\u{0}c=".utf8))
        #expect(template == "{a}{b}")
        #expect(values.count == 3)
        #expect(values["a"] == .some("x=y"))
        #expect(values["b"] == .some(nil))
        #expect(values["c"] == .some(""))
    }

    @Test func theEncodingTargetsAreListed() {
        #expect(FuzzTargets.named("url") != nil)
        #expect(FuzzTargets.named("template") != nil)
    }
}
