import StrictJSON
import Testing

@testable import ScreenTimeReference

/// The decoder reads token strings as iOS writes them (base64 with `\/`) on a fast path, and the canonical form
/// sorts on integer keys; these check both against the general rules.
@Suite struct SelectionFastPathTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
    }

    static func stored(_ json: String) -> [UInt8] { Array(Base64.encode(Array(json.utf8)).utf8) }

    @Test func tokenDataReadsTheSameWhicheverWayItIsEscaped() throws {
        var generator = Generator(state: 42)
        for length in [1, 2, 3, 16, 47, 128, 700, 1024] {
            let bytes = (0..<length).map { i in
                i < 12 && length == 128 ? 0 : UInt8(truncatingIfNeeded: generator.next())
            }
            let data = Base64.encode(bytes)
            let slashEscaped = data.replacingSlashes(with: #"\/"#)
            let unicodeEscaped = data.replacingSlashes(with: #"\u002F"#)
            func json(_ d: String) -> String {
                #"{"applicationTokens":[{"data":"\#(d)"}],"categoryTokens":[],"webDomainTokens":[]}"#
            }
            let a = try SelectionDecoder.decode(Self.stored(json(slashEscaped)))
            let b = try SelectionDecoder.decode(Self.stored(json(unicodeEscaped)))
            let c = try SelectionDecoder.decode(Self.stored(json(data)))
            #expect(a.selection == b.selection && b.selection == c.selection)
            #expect(a.selection.applicationTokens.first?.data == data)
            #expect(a.tokenByteCounts[.application] == [length])
            #expect(a.selection.canonicalBase64 == c.selection.canonicalBase64)
        }
    }

    @Test func badTokenDataFailsAtTheSameOffsetOnBothPaths() {
        // Each pair: the same bad data, once as iOS escapes it, once through another escape (the general path).
        for (fast, general) in [
            ("Zh==", #"Z\u0068=="#), (#"AA\/="#, #"AA\u002F="#), ("A=AA", #"A\u003DAA"#), ("AAA", #"AA\u0041"#),
            ("", ""),
        ] {
            func error(_ d: String) -> SelectionDecodingError? {
                let json = #"{"applicationTokens":[],"categoryTokens":[{"data":"\#(d)"}],"webDomainTokens":[]}"#
                do {
                    _ = try SelectionDecoder.decode(Self.stored(json))
                    return nil
                } catch { return error }
            }
            let e1 = error(fast)
            let e2 = error(general)
            #expect(e1 != nil)
            #expect(e1?.code == e2?.code && e1?.detail == e2?.detail && e1?.offset == e2?.offset, "\(fast)")
        }
    }

    /// The outcome of decoding, for comparing two paths: the canonical form and counts, or the error.
    static func outcome(_ json: String, offsets: Bool = true) -> String {
        do {
            let report = try SelectionDecoder.decode(stored(json))
            let counts = SelectionTokenKind.allCases.map {
                "\(report.writtenTokenCounts[$0] ?? -1):\(report.tokenByteCounts[$0] ?? [])"
            }
            return
                "ok \(report.selection.canonicalBase64) \(counts) \(report.unknownKeys) \(report.includeEntireCategoryMissing)"
        } catch {
            return "error \(error.code) \(offsets ? error.offset : -1) \(error.detail)"
        }
    }

    @Test func tokenObjectReadsTheSameOnTheFastAndTheGeneralPath() {
        // `[ {"data":"…` takes the fast path; `[{ "data":"…` the general one, with every later offset the same.
        let device = Base64.encode(
            [UInt8](repeating: 0, count: 12) + (0..<116).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) })
        let datas = [device.replacingSlashes(with: #"\/"#), device, "", "Zh==", "AAAA", #"AA\nA"#, "AAé=", "AAA", "A"]
        let tails = [
            "}", #","data":"AAAA"}"#, #","x":1}"#, #","x":1,"data":2}"#, #","x":[1,{"data":1}]}"#, ",}", "", " }",
            #"" }"#,
        ]
        for data in datas {
            for tail in tails {
                for kind in ["applicationTokens", "categoryTokens", "webDomainTokens"] {
                    func json(_ open: String) -> String {
                        let element = #"\#(open)"data":"\#(data)"\#(tail)"#
                        let others = ["applicationTokens", "categoryTokens", "webDomainTokens"].filter { $0 != kind }
                        return #"{"\#(others[0])":[],"\#(kind)":[{"data":"AAAA"},\#(element)],"\#(others[1])":[]}"#
                    }
                    let fast = Self.outcome(json(" {"))
                    let general = Self.outcome(json("{ "))
                    #expect(fast == general, "\(data) \(tail) \(kind)")
                }
            }
        }
        // Too short to hold `{"data":"` at the end of the input: the general path's errors.
        for cut in [
            #"{"applicationTokens":[{"data":"#, #"{"applicationTokens":[{"data""#, #"{"applicationTokens":[{"dat"#,
        ] {
            #expect(Self.outcome(cut).hasPrefix("error json \(cut.utf8.count) "), "\(cut)")
        }
    }

    @Test func knownKeysMatchByExactBytes() {
        for key in SelectionDecoder.knownKeys {
            let bytes = Array(key.utf8)
            // Same length, one byte changed: an unknown key, and (for the token arrays) the known one missing.
            for position in [0, bytes.count / 2, bytes.count - 1] {
                var other = bytes
                other[position] ^= 0x20
                let otherKey = String(decoding: other, as: UTF8.self)
                let json = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"\#(otherKey)":1}"#
                #expect(Self.outcome(json).contains(#"["\#(otherKey)"]"#), "\(otherKey)")
            }
            // Written with an escape: the same key.
            let escaped = #"\u00"# + String(bytes[0], radix: 16) + String(decoding: bytes.dropFirst(), as: UTF8.self)
            let plain = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"\#(key)":[]}"#
            let viaEscape = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"\#(escaped)":[]}"#
            #expect(Self.outcome(plain, offsets: false) == Self.outcome(viaEscape, offsets: false), "\(key)")
            if !key.hasPrefix("untokenized") {  // a repeated token array, or an array where a boolean belongs
                #expect(Self.outcome(plain).hasPrefix("error schema"), "\(key)")
            }
        }
    }

    /// The canonical JSON as the general writer builds it, for comparison with the word-at-a-time writer.
    static func simpleCanonicalJSON(_ s: FamilyActivitySelection) -> [UInt8] {
        var out: [UInt8] = []
        func tokens(_ data: [String]) {
            out.append(UInt8(ascii: "["))
            for (i, d) in data.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"data":"#.utf8)
                JSONWriter.writeString(d, into: &out, escapeSlashes: true)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        func strings(_ set: Set<UntokenizedIdentifier>) {
            out.append(UInt8(ascii: "["))
            for (i, v) in set.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(v.value, into: &out, escapeSlashes: true)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #"{"applicationTokens":"#.utf8)
        tokens(s.applicationTokens.map(\.data).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        out.append(contentsOf: #","categoryTokens":"#.utf8)
        tokens(s.categoryTokens.map(\.data).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        out.append(contentsOf: #","includeEntireCategory":\#(s.includeEntireCategory)"#.utf8)
        out.append(contentsOf: #","untokenizedApplicationIdentifiers":"#.utf8)
        strings(s.untokenizedApplicationIdentifiers)
        out.append(contentsOf: #","untokenizedCategoryIdentifiers":"#.utf8)
        strings(s.untokenizedCategoryIdentifiers)
        out.append(contentsOf: #","untokenizedWebDomainIdentifiers":"#.utf8)
        strings(s.untokenizedWebDomainIdentifiers)
        out.append(contentsOf: #","webDomainTokens":"#.utf8)
        tokens(s.webDomainTokens.map(\.data).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        out.append(UInt8(ascii: "}"))
        return out
    }

    @Test func canonicalWriterMatchesTheGeneralWriter() {
        var generator = Generator(state: 11)
        // Slashes at every position of words of every length around 8-byte boundaries, runs of them, none.
        var datas: [String] = []
        for length in 0...33 {
            datas.append(String(repeating: "/", count: length))
            datas.append(String(repeating: "A", count: length))
            for slash in 0..<length {
                datas.append(
                    String(repeating: "B", count: slash) + "/" + String(repeating: "C", count: length - slash - 1))
            }
            datas.append(String((0..<length).map { _ in "AB+/="[Int(generator.next() % 5)] }))
        }
        for round in 0..<300 {
            var selection = FamilyActivitySelection(includeEntireCategory: round % 2 == 0)
            for _ in 0..<(round % 7) {
                selection.applicationTokens.insert(
                    ApplicationToken(validatedData: datas[Int(generator.next() % UInt64(datas.count))]))
                selection.categoryTokens.insert(
                    ActivityCategoryToken(validatedData: datas[Int(generator.next() % UInt64(datas.count))]))
                selection.webDomainTokens.insert(
                    WebDomainToken(validatedData: datas[Int(generator.next() % UInt64(datas.count))]))
            }
            if round % 5 == 0 {
                selection.untokenizedApplicationIdentifiers = ["b/c", "a", "Caf\u{E9}", "Cafe\u{301}", "\u{1}\"\\"]
                selection.untokenizedWebDomainIdentifiers = ["x.example/path", ""]
            }
            if round % 3 == 0 { selection.untokenizedCategoryIdentifiers = ["\u{10FFFF}", "z"] }
            let expected = Self.simpleCanonicalJSON(selection)
            #expect(selection.canonicalJSON == expected)
            #expect(selection.canonicalBase64 == Base64.encode(expected))
        }
    }

    /// A plain decoder for canonical base64, character by character, as the reference for the word-at-a-time one.
    static func simpleDecode(_ text: [UInt8]) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard text.count % 4 == 0 else { return nil }
        var body = text[...]
        var pad = 0
        while pad < 2, body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            pad += 1
        }
        var bits = 0
        var count = 0
        var out: [UInt8] = []
        for c in body {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            bits = bits << 6 | v
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> count))
                bits &= (1 << count) - 1
            }
        }
        guard bits == 0, text.count == 0 || body.count % 4 != 1 else { return nil }  // zero pad bits
        return out
    }

    @Test func wordAtATimeBase64DecodeMatchesASimpleDecoder() {
        var generator = Generator(state: 5)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for length in 0...48 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Base64.encode(bytes).utf8)
            #expect(Base64.decode(text) == bytes)
            #expect(text.withUnsafeBufferPointer { Base64.validate($0) } == .success(length))
            // One character replaced at every position: outside the alphabet, `=`, or another alphabet character.
            for position in text.indices {
                for replacement in [
                    UInt8(ascii: "-"), UInt8(ascii: "="), 0x80, 0xFF, 0, alphabet[Int(generator.next() % 64)],
                ] {
                    var bad = text
                    bad[position] = replacement
                    let expected = Self.simpleDecode(bad)
                    #expect(Base64.decode(bad) == expected, "\(length) \(position) \(replacement)")
                    let validated = bad.withUnsafeBufferPointer { Base64.validate($0) }
                    switch (validated, Base64.decodeReportingOffset(bad)) {
                    case (.success(let n), .success(let decoded)): #expect(n == decoded.count && decoded == expected)
                    case (.failure(let a), .failure(let b)): #expect(a == b && expected == nil)
                    default: Issue.record("validate and decode disagree at \(length) \(position) \(replacement)")
                    }
                }
            }
        }
    }

    @Test func tokenDataCheckedDuringTheScanMatchesTheGeneralPath() {
        // Fast path: the data as written. General path: the first character written as a \u escape, which sends
        // the string through parseString and the separate base64 check (same offsets for the data string).
        var generator = Generator(state: 9)
        var datas: [String] = []
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for length in 1...40 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Base64.encode(bytes).utf8)
            datas.append(String(decoding: text, as: UTF8.self))
            for position in text.indices {
                for replacement in [
                    UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "/"),
                    alphabet[Int(generator.next() % 64)],
                ] {
                    var bad = text
                    bad[position] = replacement
                    datas.append(String(decoding: bad, as: UTF8.self))
                }
            }
            datas.append(String(decoding: text, as: UTF8.self) + "=")
            datas.append(String(decoding: text, as: UTF8.self) + "==")
            datas.append(String(decoding: text.dropLast(), as: UTF8.self))
            datas.append("=" + String(decoding: text, as: UTF8.self))
        }
        datas += ["=", "==", "===", "====", "A===", "AA==", "AB==", "AAA=", "AAB=", "/w==", "//==", "///=", "/"]
        for data in datas {
            guard let first = data.utf8.first else { continue }
            let escapedFirst = #"\u00"# + (first < 16 ? "0" : "") + String(first, radix: 16) + String(data.dropFirst())
            func json(_ d: String) -> String {
                #"{"applicationTokens":[],"categoryTokens":[{"data":"AAAA"},{"data":"\#(d)"}],"webDomainTokens":[]}"#
            }
            let fast = Self.outcome(json(data.replacingSlashes(with: #"\/"#)))
            let general = Self.outcome(json(escapedFirst.replacingSlashes(with: #"\/"#)))
            // The escape makes the general text 5 bytes longer, after the data string's opening quote only.
            let expected = general.hasPrefix("error token") || general.hasPrefix("ok") ? general : nil
            if let expected { #expect(fast == expected, "\(data)") }
        }
    }

    @Test func stableOrderIsByteOrder() {
        var generator = Generator(state: 7)
        for round in 0..<50 {
            // Shared prefixes of various lengths, and lengths that differ, so that keys tie and pad.
            let prefix = String(repeating: "A", count: round % 20)
            var tokens = Set<ApplicationToken>()
            for _ in 0..<(1 + round % 9) {
                let tail = (0..<(Int(generator.next() % 12))).map { _ in
                    "ABab01+/"[Int(generator.next() % 8)]
                }
                tokens.insert(ApplicationToken(validatedData: prefix + String(tail)))
            }
            let selection = FamilyActivitySelection(applicationTokens: tokens)
            let expected = tokens.sorted { $0.data.utf8.lexicographicallyPrecedes($1.data.utf8) }
            #expect(selection.orderedApplicationTokens == expected)
        }
    }

    @Test func validateAgreesWithDecode() {
        var generator = Generator(state: 3)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=- \n".utf8)
        for _ in 0..<2000 {
            let length = Int(generator.next() % 14)
            let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let decoded = Base64.decodeReportingOffset(text)
            let validated = text.withUnsafeBufferPointer { Base64.validate($0) }
            switch (decoded, validated) {
            case (.success(let bytes), .success(let count)): #expect(bytes.count == count)
            case (.failure(let a), .failure(let b)): #expect(a == b)
            default:
                Issue.record(
                    "decode and validate disagree on \(String(decoding: text, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test func encodeMatchesASimpleEncoder() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
            var bits: [UInt8] = []
            for b in bytes { for k in (0..<8).reversed() { bits.append((b >> UInt8(k)) & 1) } }
            while bits.count % 6 != 0 { bits.append(0) }
            var out: [UInt8] = []
            for i in stride(from: 0, to: bits.count, by: 6) {
                out.append(alphabet[Int(bits[i..<(i + 6)].reduce(0) { $0 << 1 | $1 })])
            }
            while out.count % 4 != 0 { out.append(UInt8(ascii: "=")) }
            #expect(Base64.encode(bytes) == String(decoding: out, as: UTF8.self))
        }
    }
}

extension String {
    fileprivate func replacingSlashes(with replacement: String) -> String {
        split(separator: "/", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension StringProtocol {
    fileprivate subscript(i: Int) -> Character { self[index(startIndex, offsetBy: i)] }
}
