import PropertyTesting
import ScreenTimeReference

// Stored strings that decoders other than a strict one get wrong: a valid selection's JSON with one change that
// SPEC §1 rejects (or that only a careful decoder gets right), each change one that a common library lets through:
// base64 with non-zero pad bits, JSON that is not UTF-8 or holds lone surrogates, deep nesting, repeated keys,
// NaN and huge numbers, identifiers whose order differs by code unit and by code point, and text over the 1 MiB
// limit that is short when counted in UTF-16 code units or in code points.

extension Gen where Value == HostileStoredString {
    /// One hostile change to a small valid selection (`Gen.document(of:)` writes its JSON).
    ///
    /// ```swift
    /// let stored = Gen<HostileStoredString>.hostileStoredString.generate(seed: 7)
    /// try? SelectionDecoder.decode(stored.bytes)   // the reference's answer: mostly an error, never a trap
    /// ```
    ///
    /// The document changed is mostly a whole selection's, sometimes the smallest valid one or `{}`: shrinking
    /// goes to those first, so a fault that needs no selection at all (pad bits in the base64, a byte order mark)
    /// ends as a string of a few characters.
    public static var hostileStoredString: Gen<HostileStoredString> {
        let documents = Gen<SelectionJSONDocument>.frequency([
            (
                1,
                Gen<SelectionJSONDocument>.constant(
                    SelectionJSONDocument(keys: [], values: [], style: SelectionJSONStyle()))
            ),
            (
                1,
                Gen<SelectionJSONDocument>.constant(
                    SelectionJSONDocument(
                        keys: HostileChange.tokenKeys, values: HostileChange.tokenKeys.map { _ in Array("[]".utf8) },
                        style: SelectionJSONStyle()))
            ),
            (
                8,
                Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 3).flatMap {
                    Gen<SelectionJSONDocument>.document(of: $0)
                }
            ),
        ])
        return documents.flatMap { document in Gen { source in HostileChange.apply(to: document, source) } }
    }
}

/// The hostile changes, one function each; ``apply(to:_:)`` picks one.
enum HostileChange {
    static let tokenKeys = ["applicationTokens", "categoryTokens", "webDomainTokens"]

    static func apply(to document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        // The oversized ones are a megabyte each: rare, or they would be most of the bytes an adapter reads.
        let change = Gen<Int>.frequency([(400, Gen<Int>.int(in: 0...9)), (1, Gen<Int>.int(in: 10...11))])
        switch change.generate(using: source) {
        case 0: return padBitsInBase64(document, source)
        case 1: return padBitsInTokenData(document, source)
        case 2: return invalidUTF8InString(document, source)
        case 3: return loneSurrogate(document, source)
        case 4: return nesting(document, source)
        case 5: return repeatedKey(document, source)
        case 6: return otherEncoding(document, source)
        case 7: return nonFiniteNumber(document, source)
        case 8: return hugeNumber(document, source)
        case 9: return identifiersOrderedByCodeUnit(document, source)
        case 10: return oversizedText(source)
        default: return oversizedBase64(document, source)
        }
    }

    static func stored(_ json: [UInt8], _ change: String) -> HostileStoredString {
        HostileStoredString(bytes: Array(Base64.encode(json).utf8), change: change)
    }

    /// `document` with one more top-level member holding `value` (raw JSON bytes).
    static func withMember(_ document: SelectionJSONDocument, _ value: [UInt8], key: String = "note") -> [UInt8] {
        var document = document
        document.keys.append(key)
        document.values.append(value)
        return document.json
    }

    /// The base64 of the JSON with its last character before the padding given non-zero pad bits: the bytes
    /// decode the same, but the text is not the canonical encoding (`base64`).
    static func padBitsInBase64(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        var json = document.json
        // A length that is a multiple of 3 has no padding: a trailing space (JSON whitespace) makes one.
        if json.count % 3 == 0 { json.append(UInt8(ascii: " ")) }
        let text = Array(Base64.encode(json).utf8)
        return HostileStoredString(
            bytes: withPadBits(text, bit: Gen<Int>.int(in: 0...3).generate(using: source)),
            change: "non-zero pad bits in the base64")
    }

    /// Sets one of the pad bits of padded base64 `text` (`QQ==` becomes `QR==`); unpadded text is returned as is.
    static func withPadBits(_ text: [UInt8], bit: Int) -> [UInt8] {
        let padding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding > 0, text.count > padding else { return text }
        let at = text.count - padding - 1
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard let value = alphabet.firstIndex(of: text[at]) else { return text }
        // Two pad characters leave 4 unused bits in the last character, one leaves 2.
        let unused = padding == 2 ? 4 : 2
        var result = text
        result[at] = alphabet[value | (1 << (bit % unused))]
        return result
    }

    /// A token whose `data` has non-zero pad bits (`token`): one more token in a token array.
    static func padBitsInTokenData(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        // Universe tokens of 1, 2, 4, 5, 7 or 8 bytes have padded data.
        let padded = (0..<TokenUniverse.size).map(TokenUniverse.data).filter { $0.hasSuffix("=") }
        let data = Gen<String>.element(of: padded).generate(using: source)
        let bent = String(
            decoding: withPadBits(Array(data.utf8), bit: Gen<Int>.int(in: 0...3).generate(using: source)), as: UTF8.self
        )
        let key = Gen<String>.element(of: tokenKeys).generate(using: source)
        var document = document
        let token = Array("{\"data\":\"\(bent)\"}".utf8)
        if let i = document.keys.firstIndex(of: key) {
            let inner = document.values[i]
            let isEmpty = inner.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == Array("[]".utf8)
            document.values[i] =
                [UInt8(ascii: "[")] + token + (isEmpty ? [UInt8(ascii: "]")] : [UInt8(ascii: ",")] + inner.dropFirst())
        }
        return stored(document.json, "non-zero pad bits in a token's data (\(bent))")
    }

    /// Bytes that are not UTF-8 inside a JSON string (`json`).
    static func invalidUTF8InString(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let (bad, what) = Gen<([UInt8], String)>.element(of: [
            ([0xC3, 0x28], "a lead byte without its continuation"), ([0xFF], "the byte FF"),
            ([0xC0, 0xAF], "an overlong encoding"), ([0xED, 0xA0, 0x80], "an encoded surrogate"),
            ([0xF4, 0x90, 0x80, 0x80], "a scalar past U+10FFFF"), ([0xE2, 0x82], "a truncated sequence"),
        ]).generate(using: source)
        let value = [UInt8(ascii: "\""), UInt8(ascii: "a")] + bad + [UInt8(ascii: "\"")]
        return stored(withMember(document, value), "invalid UTF-8 in a JSON string (\(what))")
    }

    /// A `\u` escape of a lone surrogate (`json`).
    static func loneSurrogate(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let escape = Gen<String>.element(of: [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""x\udfff""#])
            .generate(using: source)
        return stored(withMember(document, Array(escape.utf8)), "a lone surrogate escape \(escape)")
    }

    /// An unknown member nested around the limit of 32, or far past it (`json` past the limit).
    static func nesting(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let depth = Gen<Int>.frequency([
            (4, Gen<Int>.int(in: (SelectionDecoder.maximumDepth - 2)...(SelectionDecoder.maximumDepth + 2))),
            (1, Gen<Int>.int(in: 1000...1100)),
        ]).generate(using: source)
        // The member's value starts at depth 2 (inside the top-level object).
        let levels = max(0, depth - 1)
        let value =
            [UInt8](repeating: UInt8(ascii: "["), count: levels) + [UInt8](repeating: UInt8(ascii: "]"), count: levels)
        return stored(withMember(document, value), "JSON nested \(depth) deep")
    }

    /// A key repeated at the top level or inside a token object (`schema`).
    static func repeatedKey(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        if Gen<Bool>.bool.generate(using: source), let first = document.keys.first {
            return stored(withMember(document, document.values[0], key: first), "the key \(first) repeated")
        }
        let token = Array(#"{"data":"AAAA","data":"AQID"}"#.utf8)
        var document = document
        if let i = document.keys.firstIndex(of: "applicationTokens") {
            document.values[i] = [UInt8(ascii: "[")] + token + [UInt8(ascii: "]")]
        }
        return stored(document.json, "the key data repeated in a token")
    }

    /// The JSON with a byte order mark, or in UTF-16 or UTF-32 (`json`: SPEC §1 reads UTF-8 without a BOM).
    static func otherEncoding(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let json = document.json
        let scalars = String(decoding: json, as: UTF8.self).unicodeScalars
        switch Gen<Int>.int(in: 0...4).generate(using: source) {
        case 0: return stored([0xEF, 0xBB, 0xBF] + json, "a UTF-8 byte order mark before the JSON")
        case 1, 2:
            let bigEndian = Gen<Bool>.bool.generate(using: source)
            var out: [UInt8] = []
            for unit in String(scalars).utf16 {
                out += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            return stored(out, "the JSON in UTF-16\(bigEndian ? "BE" : "LE")")
        default:
            let bigEndian = Gen<Bool>.bool.generate(using: source)
            var out: [UInt8] = []
            for scalar in scalars {
                let v = scalar.value
                let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                out += bigEndian ? bytes : bytes.reversed()
            }
            return stored(out, "the JSON in UTF-32\(bigEndian ? "BE" : "LE")")
        }
    }

    /// `NaN`, `Infinity` or `-Infinity` in an unknown member (`json`: not JSON numbers).
    static func nonFiniteNumber(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let word = Gen<String>.element(of: ["NaN", "Infinity", "-Infinity"]).generate(using: source)
        return stored(withMember(document, Array(word.utf8)), "\(word) in an unknown member")
    }

    /// A number of thousands of digits, or one past Double's range, in an unknown member: valid JSON, which the
    /// decoder skips (the selection decodes).
    static func hugeNumber(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        if Gen<Bool>.bool.generate(using: source) {
            let digits = Gen<Int>.int(in: 4290...4400).generate(using: source)
            let number = [UInt8(ascii: "1")] + [UInt8](repeating: UInt8(ascii: "0"), count: digits - 1)
            return stored(withMember(document, number), "an integer of \(digits) digits in an unknown member")
        }
        let number = Gen<String>.element(of: ["1e400", "-1e400", "1e-400", "123456789012345678901234567890"])
            .generate(using: source)
        return stored(withMember(document, Array(number.utf8)), "the number \(number) in an unknown member")
    }

    /// `untokenized*` identifiers whose order by UTF-16 code unit differs from their order by code point: an
    /// astral character (`😀`, U+1F600) against one in U+E000–U+FFFF at the same position.
    static func identifiersOrderedByCodeUnit(_ document: SelectionJSONDocument, _ source: ChoiceSource)
        -> HostileStoredString
    {
        let pieces = ["a", "é", "\u{E000}", "\u{FFFD}", "\u{FF21}", "😀", "\u{10FFFF}", "日本", "Z"]
        let names = Gen<String>.element(of: pieces).array(count: 1...2).map { $0.joined() }.array(count: 2...4)
            .generate(using: source)
        var document = document
        var value = [UInt8(ascii: "[")]
        for (i, name) in names.enumerated() {
            if i > 0 { value.append(UInt8(ascii: ",")) }
            SelectionJSONDocument.writeString(name, document.style, into: &value)
        }
        value.append(UInt8(ascii: "]"))
        let key = "untokenizedApplicationIdentifiers"
        if let i = document.keys.firstIndex(of: key) {
            document.values[i] = value
        } else {
            document.keys.append(key)
            document.values.append(value)
        }
        return stored(document.json, "untokenized identifiers \(names)")
    }

    /// Non-ASCII text just over the limit in bytes (`tooLarge`) but within it in UTF-16 code units and in code
    /// points: a decoder that measures `String.count` or `s.length` answers `base64` instead.
    static func oversizedText(_ source: ChoiceSource) -> HostileStoredString {
        let limit = SelectionDecoder.maximumBase64Length
        let count = Gen<Int>.int(in: (limit / 2 + 1)...(limit / 2 + 64)).generate(using: source)
        let bytes = (0..<(count * 2)).map { $0 % 2 == 0 ? UInt8(0xC3) : UInt8(0xA9) }
        return HostileStoredString(bytes: bytes, change: "\(count) × é: \(count * 2) bytes, \(count) code points")
    }

    /// Valid base64 of a valid selection padded with whitespace to just over or at the limit in bytes.
    static func oversizedBase64(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> HostileStoredString {
        let limit = SelectionDecoder.maximumBase64Length
        let target = Gen<Int>.int(in: (limit - 4)...(limit + 4)).generate(using: source)
        var json = document.json
        // 3 JSON bytes make 4 base64 characters: pad the JSON with spaces to about `target` characters.
        let spaces = max(0, target / 4 * 3 - json.count)
        json.insert(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: spaces), at: json.count - 1)
        let text = Array(Base64.encode(json).utf8)
        return HostileStoredString(bytes: text, change: "\(text.count) bytes of valid base64")
    }
}
