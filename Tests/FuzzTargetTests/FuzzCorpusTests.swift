import Foundation
import PropertyTesting
import ScreenTimeReference
import Testing
import _TestSupport

@testable import ScreenTimeProperties
@testable import _EncodingFuzzTargets
@testable import _FuzzCorpus

/// The corpus workflow behind `stc fuzz add` and `stc fuzz replay`, in-process on a temporary corpus root,
/// and the second implementations the `url` and `template` targets compare against.
@Suite struct FuzzCorpusTests {
    static func temporaryRoot() throws -> String {
        TemporaryDirectory.make("fuzz-corpus-tests").path
    }

    /// A target with a known bug: it fails on any input that starts with "boom".
    static let planted = FuzzTarget(name: "planted", summary: "fails on inputs starting with boom", maxLength: 64) {
        bytes in
        bytes.starts(with: Array("boom".utf8)) ? HarnessFailure("planted bug", "\(bytes.count) bytes") : nil
    }

    @Test func addingAFailingInputMakesTheReplayFailAndAddingItAgainChangesNothing() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = FuzzCorpus(root: root)
        _ = try corpus.addSeed(Array("fine".utf8), target: "planted")
        #expect(
            FuzzCorpus.replay(Self.planted, files: corpus.seeds("planted") + corpus.regressions("planted")).allSatisfy {
                $0.failure == nil
            })

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

    /// `asFuzzer` runs what libFuzzer runs (here a fuzz body that finds nothing, beside a body that fails on
    /// "boom"), and `repetitions` runs each input that many times, stopping at its first failing run.
    @Test func replayRunsTheFuzzBodyAndRepeats() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = FuzzCorpus(root: root)
        let boom = try corpus.addSeed(Array("boom".utf8), target: "counted").path
        let fine = try corpus.addSeed(Array("fine".utf8), target: "counted").path
        let runs = RunCounter()
        let target = FuzzTarget(
            name: "counted", summary: "counts its runs", maxLength: 64,
            body: { bytes in
                runs.add("body")
                return bytes.starts(with: Array("boom".utf8)) ? HarnessFailure("planted bug") : nil
            },
            fuzzBody: { _ in
                runs.add("fuzz")
                return nil
            })
        let asFuzzer = FuzzCorpus.replay(target, files: [boom, fine], asFuzzer: true, repetitions: 5)
        #expect(asFuzzer.allSatisfy { $0.failure == nil })
        #expect(runs.take() == ["fuzz": 10])
        let asBody = FuzzCorpus.replay(target, files: [boom, fine], repetitions: 5)
        #expect(asBody.map { $0.failure != nil } == [true, false])
        #expect(runs.take() == ["body": 6], "the failing input stops after its first run")
        #expect(FuzzCorpus.replay(target, files: [fine], repetitions: 0).count == 1)
        #expect(runs.take() == ["body": 1], "fewer than one repetition runs once")
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

    /// The naive deep-link parser of the `deeplink` target, on one input per error of `DeepLink(parsing:)`.
    @Test(arguments: [
        ("", DeepLinkError.invalidScheme(offset: 0)), ("1app://x", .invalidScheme(offset: 0)),
        ("my_app://x", .invalidScheme(offset: 2)), ("myapp", .invalidScheme(offset: 5)),
        ("myapp:/x", .invalidScheme(offset: 5)), ("myapp://", .invalidHost(offset: 8)),
        ("myapp://a/b", .invalidHost(offset: 9)), ("myapp://a?", .invalidQuery(offset: 10)),
        ("myapp://a?x", .invalidQuery(offset: 10)), ("myapp://a?=1", .invalidQuery(offset: 10)),
        ("myapp://a?x=1&", .invalidQuery(offset: 14)), ("myapp://a?x=1&%78=2", .duplicateName("x")),
        ("myapp://a?x=a b", .invalidComponent(PercentDecodingError(.unencodedCharacter, at: 1), componentOffset: 12)),
        ("myapp://a?%ZZ=1", .invalidComponent(PercentDecodingError(.malformedEscape, at: 0), componentOffset: 10)),
    ])
    func theNaiveDeepLinkParserRejects(input: String, error: DeepLinkError) {
        #expect(EncodingInvariants.naiveDeepLink(Array(input.utf8)) == .rejected(error))
        #expect(EncodingInvariants.checkDeepLink(Array(input.utf8)) == nil)
    }

    @Test func theNaiveDeepLinkParserDecodesAndLowerCasesTheScheme() {
        let parsed = EncodingInvariants.naiveDeepLink(Array("My+App://open?app=Caf%C3%A9&q=a=b+c&e=".utf8))
        let items = [("app", "Café"), ("q", "a=b+c"), ("e", "")].map { DeepLink.QueryItem(name: $0, value: $1) }
        #expect(parsed == .link(scheme: "my+app", host: "open", items: items))
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
    @Test(
        arguments: [
            (
                "{applicationName|This app} is blocked. {{oops}", [String: String?](), "This app is blocked. {",
                ["applicationName", "oops"]
            ),
            ("{{a}}", ["a": "Mail"], "{Mail}", []),
            ("{{a}}", [:], "{}", ["a"]),
            ("{a|x{b}}", ["b": "B"], "{a|xB}", []),  // `{a|x` is literal: `a` is no placeholder
            ("{ } {} {|x} {asNumber:} { key }", [:], "{ } {} {|x} {asNumber:} { key }", []),
            ("{a}{b}{a}", ["b": "", "a": nil], "", ["a", "b"]),
            ("{a} {b}", ["a": "{b}", "b": "X"], "{b} X", []),
            ("{k|a|b}", [:], "a|b", ["k"]),
        ] as [(String, [String: String?], String, [String])])
    func theNaiveRendererFollowsTheSpec(template: String, values: [String: String?], text: String, missing: [String]) {
        let result = EncodingInvariants.NaiveTemplate(Array(template.utf8)).render(values)
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

    @Test func theHarnessStringsAreStringDecoding() {
        // Ill-formed UTF-8 of every kind (truncated, overlong, surrogates, past U+10FFFF, stray continuation
        // bytes), and random bytes: repaired exactly as String(decoding:as:) repairs them.
        var inputs: [[UInt8]] = [
            [], [0x41], [0xC3], [0xC3, 0x28], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0x80, 0x80, 0x41], [0xFF], Array("日本語".utf8) + [0xE6, 0x97], Array(repeating: 0xF0, count: 40),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            inputs.append(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        }
        for input in inputs {
            let made = input.withUnsafeBufferPointer(EncodingInvariants.string)
            #expect(Array(made.utf8) == Array(String(decoding: input, as: UTF8.self).utf8), "\(input)")
        }
    }

    @Test func theEncoderCheckSaysWhereTheOutputIsWrong() {
        #expect(
            EncodingInvariants.checkEncoderOutput(Array("%c3%A9".utf8), of: [0xC3, 0xA9])?.invariant
                == "encoder did not write %XX (upper-case hex) for a reserved byte")
        #expect(
            EncodingInvariants.checkEncoderOutput(Array("a%20".utf8), of: Array("a".utf8))?.invariant
                == "encoder wrote extra bytes")
        #expect(
            EncodingInvariants.checkEncoderOutput(Array("".utf8), of: Array("a".utf8))?.invariant
                == "encoder did not keep an unreserved byte")
        #expect(EncodingInvariants.checkEncoderOutput([], of: []) == nil)
    }

    @Test func theNaiveParserKeepsKeysInOrderOfFirstAppearance() {
        let naive = EncodingInvariants.NaiveTemplate(Array("{b}{a|x}{{b}} {c|}{ a}{a}".utf8))
        #expect(naive.keys == ["b", "a", "c"])
    }

    @Test func theNaiveUnparserRenamesKeysInPlaceholdersOnly() {
        func unparse(_ template: String, _ renaming: [String: String]) -> String {
            var template = template
            let longest = renaming.values.map(\.utf8.count).max() ?? 0
            return template.withUTF8 {
                EncodingInvariants.NaiveTemplate.unparse($0, longestName: longest) { renaming[$0] }
            }
        }
        #expect(unparse("{b}{a|x}{{b}} {c|}{ a}{a}", ["a": "zz0"]) == "{b}{zz0|x}{{b}} {c|}{ a}{zz0}")
        // The most a renaming can add: every placeholder as short as can be, every name long.
        #expect(unparse("{a}{a}{a}", ["a": "zz12345"]) == "{zz12345}{zz12345}{zz12345}")
        #expect(unparse("", ["a": "zz0"]) == "")
        #expect(unparse("{a", ["a": "zz0"]) == "{a")
    }

    @Test func standInsAreNULDecimalNUL() {
        for n in Array(0..<2000) + [9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000, 123_456_789] {
            #expect(Array(EncodingInvariants.standIn(n).utf8) == Array(("\u{0}" + String(n) + "\u{0}").utf8), "\(n)")
        }
    }

    @Test func standInsAreSubstitutedBackAndAnythingElseMustMatch() {
        func matches(_ text: String, _ originals: [String], _ expected: String) -> Bool {
            var text = text
            var expected = expected
            return text.withUTF8 { t in expected.withUTF8 { EncodingInvariants.matchesSubstituted(t, originals, $0) } }
        }
        #expect(matches("a\u{0}0\u{0}b\u{0}1\u{0}", ["X", "{y}"], "aXb{y}"))
        #expect(!matches("a\u{0}0\u{0}b", ["X"], "aX"))
        #expect(!matches("a\u{0}01\u{0}", ["X", "Y"], "aY"))  // not a stand-in: stays as it is
        #expect(matches("a\u{0}01\u{0}", ["X", "Y"], "a\u{0}01\u{0}"))
        #expect(!matches("\u{0}2\u{0}", ["X", "Y"], "Y"))
        #expect(matches("\u{0}", [], "\u{0}"))
        #expect(!matches("ab", [], "abc"))
    }

    // MARK: The checkers still catch planted bugs

    /// A percent codec that is the reference except for one planted bug.
    enum PlantedCodec {
        /// encodeComponent(bytes:) writes lower-case hex: the `url` checker skips re-checking the bytes encoder's
        /// output on UTF-8 input because it must equal the text encoder's, so this shows that equality is checked.
        enum LowerCaseBytesEncoder: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String { ReferencePercentCodec.encodeComponent(text) }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes).lowercased()
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(text)
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(utf8: bytes)
            }
        }
        /// The text encoder keeps `+` (form encoding's habit).
        enum KeepsPlus: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String {
                ReferencePercentCodec.encodeComponent(text).replacingOccurrences(of: "%2B", with: "+")
            }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes)
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(text)
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(utf8: bytes)
            }
        }
        /// Both decoders turn `+` into a space.
        enum PlusIsSpace: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String { ReferencePercentCodec.encodeComponent(text) }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes)
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(text).replacingOccurrences(of: "+", with: " ")
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(utf8: bytes).replacingOccurrences(of: "+", with: " ")
            }
        }
        /// The decoders repair ill-formed UTF-8 instead of rejecting it.
        enum RepairsUTF8: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String { ReferencePercentCodec.encodeComponent(text) }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes)
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try decodeComponent(utf8: Array(text.utf8))
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                var out: [UInt8] = []
                var i = 0
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                        let byte = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
                    {
                        out.append(byte)
                        i += 3
                    } else {
                        out.append(bytes[i])
                        i += 1
                    }
                }
                return String(decoding: out, as: UTF8.self)
            }
        }
        /// Decoding errors point one byte too far.
        enum OffsetOffByOne: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String { ReferencePercentCodec.encodeComponent(text) }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes)
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try decodeComponent(utf8: Array(text.utf8))
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                do throws(PercentDecodingError) {
                    return try ReferencePercentCodec.decodeComponent(utf8: bytes)
                } catch {
                    throw PercentDecodingError(error.reason, at: error.offset + 1)
                }
            }
        }
        /// The text encoder drops `é`. Only decoded text can hold one when the input is escaped ASCII, so only
        /// the re-encoding of what decoded sees it: it shows that check still runs.
        enum DropsEAcute: PercentCodecUnderTest {
            static func encodeComponent(_ text: String) -> String {
                ReferencePercentCodec.encodeComponent(text.replacingOccurrences(of: "é", with: ""))
            }
            static func encodeComponent(bytes: [UInt8]) -> String {
                ReferencePercentCodec.encodeComponent(bytes: bytes)
            }
            static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(text)
            }
            static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
                try ReferencePercentCodec.decodeComponent(utf8: bytes)
            }
        }
    }

    @Test func theURLCheckerCatchesPlantedBugs() {
        func failure<Codec: PercentCodecUnderTest>(_ input: [UInt8], _ codec: Codec.Type) -> String? {
            #expect(EncodingInvariants.checkURL(input) == nil, "the reference passes \(input)")
            return EncodingInvariants.checkURL(input, codec: codec)?.invariant
        }
        #expect(
            failure(Array("é".utf8), PlantedCodec.LowerCaseBytesEncoder.self)
                == "encodeComponent(bytes:) and encodeComponent(_:) differ on UTF-8")
        #expect(
            failure([0xFF], PlantedCodec.LowerCaseBytesEncoder.self)
                == "encoder did not write %XX (upper-case hex) for a reserved byte")
        #expect(
            failure(Array("C++".utf8), PlantedCodec.KeepsPlus.self)
                == "encoder did not write %XX (upper-case hex) for a reserved byte")
        #expect(failure(Array("a+b".utf8), PlantedCodec.PlusIsSpace.self) == "decode(encode(s)) != s")
        #expect(failure(Array("%2B".utf8), PlantedCodec.PlusIsSpace.self) == "decode differs from the naive decoder")
        #expect(failure([0xC3, 0x28], PlantedCodec.RepairsUTF8.self) == "ill-formed UTF-8 decoded without an error")
        #expect(
            failure(Array("a b".utf8), PlantedCodec.OffsetOffByOne.self)
                == "unencodedCharacter points at a byte that may appear raw")
        #expect(
            failure(Array("%C3%A9".utf8), PlantedCodec.DropsEAcute.self) == "decode(encode(decode(x))) != decode(x)")
        #expect(
            failure(Array("a%".utf8), PlantedCodec.OffsetOffByOne.self) == "decoding error offset outside the input")
        // The naive decoder's UTF-8 check only runs when its bytes differ from what decoded: still caught.
        #expect(failure(Array("%C3%28".utf8), PlantedCodec.RepairsUTF8.self) == "decode accepted an invalid component")
        #expect(failure(Array("a b".utf8), PlantedCodec.RepairsUTF8.self) == "decode accepted an invalid component")
    }

    /// A shield-text template that is the reference except for one planted bug.
    struct PlantedTemplate<Bug: TemplateBug>: ShieldTextTemplateUnderTest {
        let base: ShieldTextTemplate
        init(_ text: String) { base = ShieldTextTemplate(text) }
        var keys: [String] { Bug.keys(base.keys) }
        func render(_ values: [String: String?]) -> ShieldTextTemplate.Rendering { Bug.render(base, values) }
    }

    protocol TemplateBug {
        static func keys(_ keys: [String]) -> [String]
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
    }

    /// Lists the first missing key twice (caught by the comparison with the naive list, which has no duplicates).
    enum DuplicateMissing: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: r.text, missing: r.missing + r.missing.prefix(1))
        }
    }

    /// Lists missing keys last-first.
    enum ReversedMissing: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: r.text, missing: r.missing.reversed())
        }
    }

    /// Renders the rendered text once more (values are re-scanned).
    enum Rescans: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: ShieldTextTemplate(r.text).render(values).text, missing: r.missing)
        }
    }

    /// Drops values that hold a NUL. Fuzzer values never do (NUL separates the items), so only the stand-in
    /// rendering can see this: it shows that check still runs.
    enum DropsValuesWithNUL: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values.mapValues { v in v.map { $0.contains("\u{0}") ? "" : $0 } })
            return .init(text: r.text, missing: template.render(values).missing)
        }
    }

    /// Shows the name of a missing key that starts with `zz`. Only the renaming check makes such names
    /// (`zz0`, …) for a template that has none: it shows that check still runs.
    enum LeaksZZNames: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: r.text + r.missing.filter { $0.hasPrefix("zz") }.joined(), missing: r.missing)
        }
    }

    /// Forgets the last key.
    enum ForgetsAKey: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { Array(keys.dropLast()) }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        { template.render(values) }
    }

    /// Lists the first key twice (the checker maps keys to positions: a duplicate must not slip through).
    enum DuplicatesAKey: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys + keys.prefix(1) }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        { template.render(values) }
    }

    /// Lists a key that is in no placeholder.
    enum AddsAKey: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys + ["extra"] }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        { template.render(values) }
    }

    /// Lists the keys last-first.
    enum ReversedKeys: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys.reversed() }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        { template.render(values) }
    }

    /// Drops the last byte of the text.
    enum DropsTheLastByte: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: String(decoding: r.text.utf8.dropLast(), as: UTF8.self), missing: r.missing)
        }
    }

    /// Lists a key that had a value as missing too.
    enum ListsAKeyWithAValue: TemplateBug {
        static func keys(_ keys: [String]) -> [String] { keys }
        static func render(_ template: ShieldTextTemplate, _ values: [String: String?]) -> ShieldTextTemplate.Rendering
        {
            let r = template.render(values)
            return .init(text: r.text, missing: r.missing + template.keys.filter { !r.missing.contains($0) })
        }
    }

    @Test func theTemplateCheckerCatchesPlantedBugs() {
        func failure<Bug: TemplateBug>(_ input: String, _: Bug.Type) -> String? {
            #expect(EncodingInvariants.checkTemplate(Array(input.utf8)) == nil, "the reference passes \(input)")
            return EncodingInvariants.checkTemplate(Array(input.utf8), as: PlantedTemplate<Bug>.self)?.invariant
        }
        #expect(failure("{a}{b}", DuplicateMissing.self) == "missing lists a key twice")
        #expect(
            failure("{a}{b}", ReversedMissing.self)
                == "missing is not the keys without a value in order of first appearance")
        #expect(failure("{a} {b}\u{0}a={b}\u{0}b=X", Rescans.self) == "rendering differs from the naive renderer")
        #expect(
            failure("{a}!\u{0}a=x", DropsValuesWithNUL.self)
                == "substituted text was re-scanned or depends on the values' text")
        #expect(failure("{k|fallback}", LeaksZZNames.self) == "the name of a key without a value shows in the output")
        // With both a value to stand in for and a key without a value, the two checks are made as one rendering:
        // each bug is still caught, and named.
        #expect(
            failure("{a}!{k|fallback}\u{0}a=x", DropsValuesWithNUL.self)
                == "substituted text was re-scanned or depends on the values' text")
        #expect(
            failure("{a}!{k|fallback}\u{0}a=x", LeaksZZNames.self)
                == "the name of a key without a value shows in the output")
        #expect(failure("{a}{b}", ForgetsAKey.self) == "keys differ from the naive parser")
        #expect(failure("{a}{b}", DuplicatesAKey.self) == "keys differ from the naive parser")
        #expect(failure("{a}", AddsAKey.self) == "keys differ from the naive parser")
        #expect(failure("{a}{b}{a}", ReversedKeys.self) == "keys differ from the naive parser")
        #expect(failure("x{a|fb}\u{0}a=A", DropsTheLastByte.self) == "rendering differs from the naive renderer")
        #expect(
            failure("{a}{b}\u{0}b=B", ListsAKeyWithAValue.self)
                == "missing is not the keys without a value in order of first appearance")
        // Past 8 keys the checker finds keys' positions with a dictionary: the same bugs are caught.
        let many = (0..<12).map { "{k\($0)|f}" }.joined() + "{k3}\u{0}k1=x\u{0}k5\u{0}k7="
        #expect(failure(many, DuplicatesAKey.self) == "keys differ from the naive parser")
        #expect(failure(many, ReversedKeys.self) == "keys differ from the naive parser")
        #expect(failure(many, AddsAKey.self) == "keys differ from the naive parser")
        #expect(failure(many, ForgetsAKey.self) == "keys differ from the naive parser")
        #expect(
            failure(many, ReversedMissing.self)
                == "missing is not the keys without a value in order of first appearance")
        #expect(failure(many, LeaksZZNames.self) == "the name of a key without a value shows in the output")
        #expect(
            failure(many, DropsValuesWithNUL.self) == "substituted text was re-scanned or depends on the values' text")
    }

    /// A ledger names a corpus file from the corpus's directory, so that the name holds on another clone.
    @Test func aCorpusFileIsRecordedFromTheCorpussDirectoryAndFoundAgain() {
        let corpus = FuzzCorpus(root: "/src/repo/corpus")
        let file = "/src/repo/corpus/url/regressions/0a1b2c3d4e5f6071"
        #expect(corpus.recordedName(file) == "corpus/url/regressions/0a1b2c3d4e5f6071")
        #expect(corpus.path(recordedAs: corpus.recordedName(file)) == file)
        #expect(FuzzCorpus(root: "/elsewhere/corpus").path(recordedAs: "corpus/url/x") == "/elsewhere/corpus/url/x")
        // Outside the corpus (a root that only starts the same, another directory) the path stays whole.
        #expect(corpus.recordedName("/src/repo/corpus2/url/x") == "/src/repo/corpus2/url/x")
        #expect(corpus.path(recordedAs: "/tmp/crash-1") == "/tmp/crash-1")
        let atTheTop = FuzzCorpus(root: "/corpus")
        #expect(atTheTop.recordedName("/corpus/url/x") == "corpus/url/x")
        #expect(atTheTop.path(recordedAs: "corpus/url/x") == "/corpus/url/x")
    }

    @Test func theEncodingTargetsAreListed() {
        #expect(FuzzTargets.named("url") != nil)
        #expect(FuzzTargets.named("template") != nil)
    }
}

/// How many times each body ran (the bodies are `@Sendable`).
private final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func add(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    func take() -> [String: Int] {
        lock.withLock {
            defer { counts = [:] }
            return counts
        }
    }
}
