import Foundation  // only for the differential tests against Foundation's encoder
import PropertyTesting
import Testing

@testable import ScreenTimeReference

/// Random Unicode text: ASCII (controls and NUL included), Latin-1, the rest of the BMP and astral planes.
func randomUnicodeString(using rng: inout SplitMix64, maxLength: Int = 24) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...maxLength, using: &rng) {
        let value: UInt32
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: value = UInt32.random(in: 0...0x7F, using: &rng)
        case 1: value = UInt32.random(in: 0x80...0x7FF, using: &rng)
        case 2: value = UInt32.random(in: 0x800...0xFFFF, using: &rng)
        default: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
        }
        // Surrogate code points are not scalars; the generator skips them.
        if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
}

/// Names from every script, emoji, controls and NUL: the round-trip corpus.
let unicodeSamples: [String] = [
    "", "a", "Mail", "Google Maps", "AT&T", "Tom & Jerry", "C++", "Yahoo!", "Don't Starve (Pocket) *", "a/b", "why?",
    "100%", "%", "%20", "+", " ", "~-._", "=&#?/:@[]", "\"<>\\^`{|}", "Café", "Crème brûlée", "Ærø", "Straße",
    "Ελληνικά", "Русский", "Հայերեն", "עברית", "العربية", "فارسی", "हिन्दी", "বাংলা", "ਪੰਜਾਬੀ", "தமிழ்", "ไทย", "ລາວ",
    "ქართული", "ኢትዮጵያ", "ᏣᎳᎩ", "한국어", "日本語", "ニュース", "中文简体", "繁體中文", "𠜎𠜱𠝹", "Tiếng Việt", "ᠮᠣᠩᠭᠣᠯ",
    "😀", "👨‍👩‍👧‍👦", "🇯🇵", "🏳️‍🌈", "👍🏽", "e\u{301}", "\u{0}", "a\u{0}b", "\u{1}\u{1F}\u{7F}", "\t\n\r",
    "\u{80}\u{9F}", "\u{200B}\u{200D}\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}", "\u{D7FF}",
    "LINE\u{2028}SEP", "\u{202E}gnp.exe", String(repeating: "é", count: 1000),
]

@Suite struct PercentEncodingTests {
    // MARK: Encoding

    @Test(arguments: [
        ("", ""),
        ("Mail", "Mail"),
        ("A-Z_a.z~09", "A-Z_a.z~09"),
        ("Google Maps", "Google%20Maps"),
        ("AT&T", "AT%26T"),
        ("C++", "C%2B%2B"),
        ("Yahoo!", "Yahoo%21"),
        ("!'()*", "%21%27%28%29%2A"),
        ("a/b?c=d#e", "a%2Fb%3Fc%3Dd%23e"),
        ("100%", "100%25"),
        ("Café", "Caf%C3%A9"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
        ("العربية", "%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9"),
        ("📱", "%F0%9F%93%B1"),
        ("\u{0}\u{7F}", "%00%7F"),
        ("\u{10FFFF}", "%F4%8F%BF%BF"),
    ])
    func encodesKnownVectors(text: String, encoded: String) {
        #expect(PercentEncoding.encodeComponent(text) == encoded, "\(text.debugDescription)")
    }

    @Test func encodesEveryByteAsSpecified() {
        let all = (0...255).map(UInt8.init)
        let encoded = Array(PercentEncoding.encodeComponent(bytes: all).utf8)
        var expected: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in all {
            let keep =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || Array("-._~".utf8).contains(byte)
            if keep { expected.append(byte) } else { expected += [0x25, hex[Int(byte / 16)], hex[Int(byte % 16)]] }
        }
        #expect(encoded == expected)
        // Exactly 66 bytes are unreserved (26 + 26 + 10 + 4).
        #expect(all.filter(PercentEncoding.isUnreserved).count == 66)
    }

    @Test func hexIsUpperCase() {
        // Every byte whose hex has a letter digit: a lower-case producer (field bug 7) would differ here.
        #expect(PercentEncoding.encodeComponent("é") == "%C3%A9")
        #expect(PercentEncoding.encodeComponent("é") != "%c3%a9")
        #expect(PercentEncoding.encodeComponent(bytes: [0xAB, 0xCD, 0xEF, 0xFA]) == "%AB%CD%EF%FA")
    }

    @Test func outputAlphabetIsUnreservedPercentAndUpperHex() {
        var rng = SplitMix64(seed: 0xA1FA_BE7)
        let inputs = unicodeSamples + (0..<500).map { _ in randomUnicodeString(using: &rng) }
        let isUpperHex = { (b: UInt8) in (0x30...0x39).contains(b) || (0x41...0x46).contains(b) }
        for text in inputs {
            let out = Array(PercentEncoding.encodeComponent(text).utf8)
            var fault: String? = nil
            var i = 0
            while i < out.count, fault == nil {
                if out[i] == UInt8(ascii: "%") {
                    if i + 2 < out.count, isUpperHex(out[i + 1]), isUpperHex(out[i + 2]) {
                        // An escape never hides an unreserved byte: the encoding is minimal.
                        let byte = UInt8(String(decoding: out[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) ?? 0
                        if PercentEncoding.isUnreserved(byte) { fault = "unreserved byte escaped at \(i)" }
                    } else {
                        fault = "'%' not followed by two upper-case hex digits at \(i)"
                    }
                    i += 3
                } else {
                    if !PercentEncoding.isUnreserved(out[i]) { fault = "byte \(out[i]) kept at \(i)" }
                    i += 1
                }
            }
            #expect(fault == nil, "\(text.debugDescription): \(fault ?? "")")
        }
    }

    // MARK: Round trip

    @Test(arguments: unicodeSamples)
    func roundTripsSamples(text: String) throws {
        let encoded = PercentEncoding.encodeComponent(text)
        #expect(try PercentEncoding.decodeComponent(encoded) == text)
        // The same, byte for byte: String == would also accept a canonically equivalent string.
        #expect(Array(try PercentEncoding.decodeComponent(encoded).utf8) == Array(text.utf8))
    }

    @Test func roundTripsRandomUnicode() throws {
        var rng = SplitMix64(seed: 20_240_611)
        for _ in 0..<3000 {
            let text = randomUnicodeString(using: &rng, maxLength: 40)
            let decoded = try PercentEncoding.decodeComponent(PercentEncoding.encodeComponent(text))
            #expect(Array(decoded.utf8) == Array(text.utf8), "\(text.unicodeScalars.map { $0.value })")
        }
    }

    @Test func roundTripsLongText() throws {
        let text = String(repeating: "Tom & Jerry 日本 📱 ", count: 20_000)
        #expect(try PercentEncoding.decodeComponent(PercentEncoding.encodeComponent(text)) == text)
    }

    // MARK: Decoding: what is accepted

    @Test(arguments: [
        ("Caf%C3%A9", "Café"),
        ("caf%c3%a9", "café"),  // lower-case hex: equivalent (RFC 3986 §2.1)
        ("%C3%a9", "é"),  // mixed case
        ("%41%7e", "A~"),  // escaped unreserved (RFC 3986 §2.3)
        ("a+b", "a+b"),  // + is a literal plus, not a space
        ("%2B", "+"),
        ("!$&'()*+,;=:@/?", "!$&'()*+,;=:@/?"),  // allowed raw in a query component
        ("%00", "\u{0}"),
        ("%F0%9F%93%B1", "📱"),
        ("%EF%BB%BF", "\u{FEFF}"),  // a BOM is a character like any other
        ("%F4%8F%BF%BF", "\u{10FFFF}"),
        ("%ED%9F%BF", "\u{D7FF}"),
        ("%EE%80%80", "\u{E000}"),
        ("", ""),
    ])
    func decodesAcceptedInput(encoded: String, text: String) throws {
        #expect(try PercentEncoding.decodeComponent(encoded) == text)
        #expect(try PercentEncoding.decodeComponent(utf8: Array(encoded.utf8)) == text)
    }

    // MARK: Decoding: every error

    @Test(arguments: [
        // A '%' not followed by two hex digits.
        ("%", PercentDecodingError.Reason.malformedEscape, 0),
        ("100%", .malformedEscape, 3),
        ("%4", .malformedEscape, 0),
        ("ab%4", .malformedEscape, 2),
        ("%G1", .malformedEscape, 0),
        ("%1G", .malformedEscape, 0),
        ("%%41", .malformedEscape, 0),
        ("%41%", .malformedEscape, 3),
        ("% 41", .malformedEscape, 0),
        ("%-1", .malformedEscape, 0),
        ("%é9", .malformedEscape, 0),
        // Characters that must be encoded, raw.
        ("a b", .unencodedCharacter, 1),
        ("Café", .unencodedCharacter, 3),
        ("日本", .unencodedCharacter, 0),
        ("%C3%A9é", .unencodedCharacter, 6),
        ("a#b", .unencodedCharacter, 1),
        ("\u{0}", .unencodedCharacter, 0),
        ("\t", .unencodedCharacter, 0),
        ("\u{7F}", .unencodedCharacter, 0),
        ("\"", .unencodedCharacter, 0),
        ("<>", .unencodedCharacter, 0),
        ("[", .unencodedCharacter, 0),
        ("\\", .unencodedCharacter, 0),
        ("^", .unencodedCharacter, 0),
        ("`", .unencodedCharacter, 0),
        ("{", .unencodedCharacter, 0),
        ("|", .unencodedCharacter, 0),
        ("}", .unencodedCharacter, 0),
        // Decoded bytes that are not UTF-8 (RFC 3629).
        ("%80", .invalidUTF8, 0),  // lone continuation byte
        ("ok%BF", .invalidUTF8, 2),
        ("%C3", .invalidUTF8, 0),  // truncated at the end
        ("%C3a", .invalidUTF8, 0),  // truncated by a raw byte
        ("%C3%28", .invalidUTF8, 0),  // bad continuation
        ("x%E6%97", .invalidUTF8, 1),
        ("%C0%80", .invalidUTF8, 0),  // overlong NUL
        ("%C1%BF", .invalidUTF8, 0),  // overlong
        ("%E0%80%80", .invalidUTF8, 0),  // overlong 3-byte
        ("%F0%80%80%80", .invalidUTF8, 0),  // overlong 4-byte
        ("%ED%A0%80", .invalidUTF8, 0),  // UTF-16 surrogate D800
        ("%ED%BF%BF", .invalidUTF8, 0),  // surrogate DFFF
        ("%F4%90%80%80", .invalidUTF8, 0),  // past U+10FFFF
        ("%F5%80%80%80", .invalidUTF8, 0),
        ("%FF", .invalidUTF8, 0),
        ("%FE%FF", .invalidUTF8, 0),  // a UTF-16 BOM
        ("%F0%9F%93", .invalidUTF8, 0),  // truncated emoji
        ("%E6%97%A5%E6", .invalidUTF8, 9),
    ])
    func rejectsMalformedInput(encoded: String, reason: PercentDecodingError.Reason, offset: Int) {
        let expected = PercentDecodingError(reason, at: offset)
        #expect(throws: expected, "\(encoded.debugDescription)") { try PercentEncoding.decodeComponent(encoded) }
        #expect(throws: expected, "\(encoded.debugDescription)") {
            try PercentEncoding.decodeComponent(utf8: Array(encoded.utf8))
        }
    }

    @Test func errorCodesAreTheWireCodes() {
        #expect(PercentDecodingError(.malformedEscape, at: 0).code == .invalidPercentEncoding)
        #expect(PercentDecodingError(.unencodedCharacter, at: 0).code == .invalidPercentEncoding)
        #expect(PercentDecodingError(.invalidUTF8, at: 0).code == .invalidUTF8)
        #expect(PercentDecodingError.Code.allCases.map(\.rawValue) == ["invalidPercentEncoding", "invalidUTF8"])
        #expect("\(PercentDecodingError(.malformedEscape, at: 7))".contains("at byte 7"))
    }

    @Test func rejectsRawBytesThatAreNotUTF8() {
        // Fuzzer input need not be UTF-8; a raw non-ASCII byte is an unencoded character wherever it is.
        #expect(throws: PercentDecodingError(.unencodedCharacter, at: 1)) {
            try PercentEncoding.decodeComponent(utf8: [0x41, 0xFF, 0x41])
        }
        #expect(throws: PercentDecodingError(.unencodedCharacter, at: 0)) {
            try PercentEncoding.decodeComponent(utf8: [0xC3, 0xA9])
        }
    }

    @Test func escapedUTF8IsAcceptedExactlyWhenWellFormed() {
        // Every two-byte sequence, and three- and four-byte ones around each lead's continuation ranges: the
        // decoder (its lead-byte table, its one-comparison range check) agrees with the standard library, and an
        // ill-formed sequence is reported at the `%` that starts it.
        func escaped(_ bytes: [UInt8]) -> String {
            bytes.map { "%" + String($0, radix: 16, uppercase: true).leftPadded() }.joined()
        }
        func check(_ bytes: [UInt8]) {
            let wellFormed = String(validating: bytes, as: UTF8.self) != nil
            do {
                let decoded = try PercentEncoding.decodeComponent(escaped(bytes))
                #expect(wellFormed && Array(decoded.utf8) == bytes, "\(bytes)")
            } catch {
                #expect(!wellFormed && error.reason == .invalidUTF8, "\(bytes): \(error)")
                #expect(error.offset % 3 == 0 && error.offset < 3 * bytes.count, "\(bytes): \(error)")
            }
        }
        for first in UInt8(0x80)...0xFF {
            for second in UInt8(0)...0xFF { check([first, second]) }
        }
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in UInt8(0xE0)...0xF7 {
            for second in edges {
                for third in edges {
                    check([lead, second, third])
                    for fourth in edges { check([lead, second, third, fourth]) }
                }
            }
        }
        #expect(throws: PercentDecodingError(.invalidUTF8, at: 1)) {
            try PercentEncoding.decodeComponent("a%C3%28") == ""
        }
        #expect(throws: PercentDecodingError(.invalidUTF8, at: 0)) {
            try PercentEncoding.decodeComponent("%E0%80%80") == ""
        }
        #expect(throws: PercentDecodingError(.invalidUTF8, at: 0)) {
            try PercentEncoding.decodeComponent("%ED%A0%80") == ""
        }
        #expect(throws: PercentDecodingError(.invalidUTF8, at: 0)) {
            try PercentEncoding.decodeComponent("%F4%90%80%80") == ""
        }
        #expect((try? PercentEncoding.decodeComponent("%F4%8F%BF%BF")) == "\u{10FFFF}")
    }

    @Test func decodingArbitraryBytesNeverTraps() {
        var rng = SplitMix64(seed: 99)
        let alphabet = Array("%%%0123456789abcdefABCDEFgG+ é".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
            if let text = try? PercentEncoding.decodeComponent(utf8: bytes) {
                // Whatever decodes re-encodes to the canonical form of the same bytes.
                #expect((try? PercentEncoding.decodeComponent(PercentEncoding.encodeComponent(text))) == text)
            }
        }
    }

    // MARK: Differential against Foundation

    /// RFC 3986 unreserved, built explicitly: not `.alphanumerics`, not `.urlQueryAllowed`.
    static let unreservedSet = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    @Test func agreesWithFoundationGivenTheUnreservedSet() {
        var rng = SplitMix64(seed: 7)
        let inputs = unicodeSamples + (0..<2000).map { _ in randomUnicodeString(using: &rng) }
        for text in inputs {
            let ours = PercentEncoding.encodeComponent(text)
            #expect(
                ours == text.addingPercentEncoding(withAllowedCharacters: Self.unreservedSet),
                "\(text.debugDescription)")
            // Foundation's lenient decoder also undoes our encoding.
            #expect(ours.removingPercentEncoding == text, "\(text.debugDescription)")
        }
    }

    @Test func agreesWithFoundationOnWhatDecodes() {
        // On input made only of allowed characters and escapes: where we decode, Foundation gives the same text;
        // where Foundation says nil, we throw. Where we throw invalidUTF8, this Linux toolchain's Foundation
        // answers a lossy string with U+FFFD instead of nil: a divergence we accept (we never substitute).
        var rng = SplitMix64(seed: 11)
        let pieces = [
            "%", "%4", "%41", "%c3", "%C3", "%A9", "%a9", "%E6", "%97", "%A5", "%80", "%FF", "%ED", "%A0",
            "a", "+", "/", "?", "!", "%20", "%00", "%F0", "%9F", "%93", "%B1",
        ]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }
                .joined()
            let foundation = text.removingPercentEncoding
            do {
                let ours = try PercentEncoding.decodeComponent(text)
                #expect(ours == foundation, "\(text.debugDescription)")
            } catch {
                switch error.code {
                case .invalidPercentEncoding:
                    #expect(foundation == nil, "\(text.debugDescription)")
                case .invalidUTF8:
                    if let foundation {
                        #expect(foundation.unicodeScalars.contains("\u{FFFD}"), "\(text.debugDescription)")
                    }
                }
            }
        }
    }

    // MARK: Field bug 7: the wrong encoders differ from ours where it matters

    /// Names that tell the wrong encoders apart, with the encoding SPEC §4 requires.
    static let fieldBug7Names: [(name: String, encoded: String)] = [
        ("Tom & Jerry", "Tom%20%26%20Jerry"),
        ("T-Mobile", "T-Mobile"),
        ("Café", "Caf%C3%A9"),
        ("日本語", "%E6%97%A5%E6%9C%AC%E8%AA%9E"),
        ("العربية", "%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9"),
        ("📱", "%F0%9F%93%B1"),
        ("C++", "C%2B%2B"),
        ("Yahoo!", "Yahoo%21"),
        ("Don't (Starve)*", "Don%27t%20%28Starve%29%2A"),
        ("a/b", "a%2Fb"),
        ("why?", "why%3F"),
    ]

    /// Checks an encoder against the field-bug-7 names; the list of names it gets wrong.
    static func fieldBug7Failures(of encode: (String) -> String?) -> [String] {
        fieldBug7Names.filter { encode($0.name) != $0.encoded }.map(\.name)
    }

    @Test func oursPassesTheFieldBug7Check() {
        #expect(Self.fieldBug7Failures(of: PercentEncoding.encodeComponent).isEmpty)
    }

    /// `CharacterSet.alphanumerics` applied scalar by scalar: a letter or digit of any script is kept, anything
    /// else is percent-encoded. This is what hand-written encoders do, and what Apple platforms' NSString-backed
    /// `addingPercentEncoding(withAllowedCharacters: .alphanumerics)` is reported to do (it keeps `é`).
    static func alphanumericsScalarWise(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    out +=
                        "%" + String(byte >> 4, radix: 16, uppercase: true)
                        + String(byte & 15, radix: 16, uppercase: true)
                }
            }
        }
        return out
    }

    @Test func alphanumericsIsCaught() {
        // Scalar-wise: non-ASCII letters and digits pass through unencoded (field bug 7).
        let scalarWise = Self.fieldBug7Failures(of: Self.alphanumericsScalarWise)
        for name in ["T-Mobile", "Café", "日本語", "العربية"] { #expect(scalarWise.contains(name), "\(name)") }
        #expect(Self.alphanumericsScalarWise("Café") == "Café")
        // Foundation's own call on this platform: it also encodes `- . _ ~`, which are unreserved.
        let foundation = Self.fieldBug7Failures { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) }
        #expect(foundation.contains("T-Mobile"))
    }

    @Test func urlQueryAllowedIsCaught() {
        // `&`, `+`, `/`, `?`, `!` … are legal in a query, so they survive and break the query's own structure.
        let failures = Self.fieldBug7Failures { $0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) }
        for name in ["Tom & Jerry", "C++", "a/b", "why?", "Yahoo!"] { #expect(failures.contains(name), "\(name)") }
    }

    @Test func encodeURIComponentSetIsCaught() {
        // JavaScript's encodeURIComponent keeps `! ' ( ) *` too (ECMA-262 uriUnreserved).
        let jsSet = Self.unreservedSet.union(CharacterSet(charactersIn: "!'()*"))
        let failures = Self.fieldBug7Failures { $0.addingPercentEncoding(withAllowedCharacters: jsSet) }
        #expect(failures == ["Yahoo!", "Don't (Starve)*"])
    }

    @Test func lowerCaseHexAndPlusForSpaceAreCaught() {
        let lowerHex = Self.fieldBug7Failures { PercentEncoding.encodeComponent($0).lowercased() }
        #expect(lowerHex.count == Self.fieldBug7Names.count)
        let plusForSpace = Self.fieldBug7Failures {
            PercentEncoding.encodeComponent($0).replacingOccurrences(of: "%20", with: "+")
        }
        #expect(plusForSpace == ["Tom & Jerry", "Don't (Starve)*"])
    }
}

extension String {
    /// Two hex digits: a leading zero for values below 0x10.
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
