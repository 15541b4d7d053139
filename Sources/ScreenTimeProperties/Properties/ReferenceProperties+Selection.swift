import Foundation
import FoundationBaseline
import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
    static var twoEncodings: Gen<TwoEncodings> {
        Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 5).flatMap { selection in
            Gen<(SelectionJSONDocument, SelectionJSONDocument)>.zip(.document(of: selection), .document(of: selection))
                .map { TwoEncodings(selection: selection, first: $0.0, second: $0.1) }
        }
    }

    static var selectionTriple: Gen<SelectionTriple> {
        let s = Gen<FamilyActivitySelection>.selection(universe: 6, maxTokens: 4, untokenized: false)
        return Gen<(FamilyActivitySelection, FamilyActivitySelection, FamilyActivitySelection)>.zip(s, s, s).map {
            SelectionTriple(a: $0.0, b: $0.1, c: $0.2)
        }
    }

    // MARK: Properties

    public static func selectionDecodeIsTotal(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.decode-is-total",
            summary: "any stored string decodes to a selection or a typed error with a sane code and offset (§1)",
            Gen<StoredString>.storedString, describe: { $0.description }
        ) { input in
            switch subject.decode(input.bytes) {
            case .success(let x):
                guard case .success(let y) = subject.decode(Array(subject.canonical(x).utf8)), y == x else {
                    return "decoded, but its canonical string does not decode back to it"
                }
                return nil
            case .failure(let error):
                if input.bytes.isEmpty != (error.code == .empty) {
                    return "empty input ⇔ code empty, got \(error.code)"
                }
                if error.offset < 0 { return "negative offset \(error.offset)" }
                if error.detail.isEmpty { return "error without detail" }
                if !input.bytes.isEmpty && input.bytes.count <= SelectionDecoder.maximumBase64Length {
                    let isBase64 = Base64.decode(input.bytes) != nil
                    if isBase64 && error.code < .json { return "valid base64, but code \(error.code)" }
                    if !isBase64 && error.code != .base64 { return "invalid base64, but code \(error.code)" }
                    if !error.offsetIsInJSON && error.offset > input.bytes.count {
                        return "offset \(error.offset) past the input"
                    }
                    if error.offsetIsInJSON, let json = Base64.decode(input.bytes), error.offset > json.count {
                        return "offset \(error.offset) past the \(json.count)-byte JSON"
                    }
                }
                return nil
            }
        }
    }

    public static func selectionCanonicalFixedPoint(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.canonical-fixed-point",
            summary:
                "decode(canonical(x)) == x and canonical(decode(canonical(x))) == canonical(x); sorted keys, no whitespace, `/` escaped (§1)",
            Gen<FamilyActivitySelection>.selection(), describe: SelectionDescription.describe
        ) { x in
            let c = subject.canonical(x)
            guard case .success(let y) = subject.decode(Array(c.utf8)) else {
                return "canonical string does not decode: \(c)"
            }
            if y != x { return "decode(canonical(x)) = \(SelectionDescription.describe(y))" }
            if subject.canonical(y) != c { return "canonical(decode(canonical(x))) != canonical(x)" }
            guard let json = Base64.decode(Array(c.utf8)) else { return "canonical string is not base64" }
            for (i, byte) in json.enumerated()
            where byte == UInt8(ascii: "/") && (i == 0 || json[i - 1] != UInt8(ascii: "\\")) {
                return "raw '/' at byte \(i) of the canonical JSON"
            }
            if !json.starts(with: Array(#"{"applicationTokens":["#.utf8)) {
                return "canonical JSON does not start with the first sorted key"
            }
            if json.contains(UInt8(ascii: " "))
                && !x.untokenizedApplicationIdentifiers.union(x.untokenizedCategoryIdentifiers).union(
                    x.untokenizedWebDomainIdentifiers
                ).contains(where: { $0.value.utf8.contains(0x20) })
            {  // bytes, not Characters: " \u{200C}" is one Character
                return "whitespace in the canonical JSON"
            }
            return nil
        }
    }

    public static func selectionEqualityUnderPermutation(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.equality-under-permutation",
            summary:
                "two JSON texts of the same sets (any member order, token order, duplicates, whitespace) compare equal (§1, field bug 3)",
            twoEncodings, describe: { $0.description }
        ) { pair in
            switch subject.equal(pair.first.base64, pair.second.base64) {
            case true?: return nil
            case false?: return "the two stored strings compare unequal"
            case nil: return "a stored string did not decode"
            }
        }
    }

    public static func selectionEqualityUnderReencoding(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.equality-under-reencoding",
            summary: "any stored string of x decodes to x and equals canonical(x) (§1)",
            Gen<EncodedSelection>.encodedSelection(), describe: { $0.description }
        ) { encoded in
            guard case .success(let y) = subject.decode(Array(encoded.base64.utf8)) else { return "did not decode" }
            if y != encoded.selection { return "decoded to \(SelectionDescription.describe(y))" }
            let canonical = subject.canonical(encoded.selection)
            if subject.equal(encoded.base64, canonical) != true {
                return "stored string and its canonical form compare unequal"
            }
            if subject.equal(canonical, canonical) != true { return "canonical form is not equal to itself" }
            return nil
        }
    }

    public static func selectionEqualityDistinguishes(_ subject: SelectionSubject = .reference) -> Property {
        let gen = Gen<(FamilyActivitySelection, Int)>.zip(
            Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 4), Gen<Int>.int(in: 0...3))
        return Property(
            "selection.equality-distinguishes",
            summary: "selections that differ by one token or by includeEntireCategory compare unequal (§1)",
            gen, describe: { "\(SelectionDescription.describe($0.0)), change #\($0.1)" }
        ) { (x, change) in
            var y = x
            let fresh = [UInt8](repeating: 0xEE, count: 3)  // not in any universe
            switch change {
            case 0: y.applicationTokens.insert(ApplicationToken(bytes: fresh))
            case 1: y.categoryTokens.insert(ActivityCategoryToken(bytes: fresh))
            case 2: y.webDomainTokens.insert(WebDomainToken(bytes: fresh))
            default: y.includeEntireCategory.toggle()
            }
            return subject.equal(subject.canonical(x), subject.canonical(y)) == false
                ? nil : "different selections compare equal"
        }
    }

    public static func selectionStableOrder(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.stable-order",
            summary:
                "each kind's display order is ascending by data and the same for every encoding of the set (§1, field bug 4)",
            twoEncodings, describe: { $0.description }
        ) { pair in
            guard case .success(let x) = subject.decode(Array(pair.first.base64.utf8)),
                case .success(let y) = subject.decode(Array(pair.second.base64.utf8))
            else { return "did not decode" }
            for kind in SelectionTokenKind.allCases {
                let expected = pair.selection.orderedTokenData(of: kind).sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
                let first = subject.order(x, kind)
                let second = subject.order(y, kind)
                if first != expected { return "\(kind) order \(first), expected ascending \(expected)" }
                if second != first { return "\(kind) order differs between encodings: \(first) vs \(second)" }
            }
            return nil
        }
    }

    public static func selectionCounts(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.counts",
            summary: "counts are the distinct tokens per kind, whatever duplicates the stored string holds (§1)",
            Gen<EncodedSelection>.encodedSelection(), describe: { $0.description }
        ) { encoded in
            guard case .success(let y) = subject.decode(Array(encoded.base64.utf8)) else { return "did not decode" }
            for kind in SelectionTokenKind.allCases {
                let expected = Set(encoded.selection.orderedTokenData(of: kind)).count
                let got = subject.count(y, kind)
                if got != expected { return "\(kind) count \(got), expected \(expected)" }
            }
            return nil
        }
    }

    public static func selectionAlgebraLaws(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.algebra-laws",
            summary:
                "per kind: set semantics, commutativity, associativity, idempotence, De Morgan-like identities; fresh untokenized (§1)",
            selectionTriple, describe: { $0.description }
        ) { t in
            typealias Op = FamilyActivitySelection.SetOperation
            func f(_ x: FamilyActivitySelection, _ op: Op, _ y: FamilyActivitySelection) -> FamilyActivitySelection {
                subject.combine(x, y, op)
            }
            func tokens(_ s: FamilyActivitySelection) -> [Set<String>] {
                SelectionTokenKind.allCases.map { Set(s.orderedTokenData(of: $0)) }
            }
            let (a, b, c) = (t.a, t.b, t.c)
            for op in Op.allCases {
                let r = f(a, op, b)
                let expected = zip(tokens(a), tokens(b)).map { x, y -> Set<String> in
                    switch op {
                    case .union: return x.union(y)
                    case .intersection: return x.intersection(y)
                    case .difference: return x.subtracting(y)
                    case .symmetricDifference: return x.symmetricDifference(y)
                    }
                }
                if tokens(r) != expected { return "a \(op.rawValue) b is not the per-kind set \(op.rawValue)" }
                if !r.untokenizedApplicationIdentifiers.isEmpty || !r.untokenizedCategoryIdentifiers.isEmpty
                    || !r.untokenizedWebDomainIdentifiers.isEmpty
                {
                    return "a \(op.rawValue) b has untokenized identifiers"
                }
            }
            let laws: [(String, [Set<String>], [Set<String>])] = [
                ("a ∪ b = b ∪ a", tokens(f(a, .union, b)), tokens(f(b, .union, a))),
                ("a ∩ b = b ∩ a", tokens(f(a, .intersection, b)), tokens(f(b, .intersection, a))),
                ("a △ b = b △ a", tokens(f(a, .symmetricDifference, b)), tokens(f(b, .symmetricDifference, a))),
                (
                    "(a ∪ b) ∪ c = a ∪ (b ∪ c)", tokens(f(f(a, .union, b), .union, c)),
                    tokens(f(a, .union, f(b, .union, c)))
                ),
                (
                    "(a ∩ b) ∩ c = a ∩ (b ∩ c)", tokens(f(f(a, .intersection, b), .intersection, c)),
                    tokens(f(a, .intersection, f(b, .intersection, c)))
                ),
                ("a ∪ a = a", tokens(f(a, .union, a)), tokens(a)),
                ("a ∩ a = a", tokens(f(a, .intersection, a)), tokens(a)),
                ("a ∖ a = ∅", tokens(f(a, .difference, a)), [[], [], []]),
                (
                    "a ∖ (b ∪ c) = (a ∖ b) ∩ (a ∖ c)", tokens(f(a, .difference, f(b, .union, c))),
                    tokens(f(f(a, .difference, b), .intersection, f(a, .difference, c)))
                ),
                (
                    "a ∖ (b ∩ c) = (a ∖ b) ∪ (a ∖ c)", tokens(f(a, .difference, f(b, .intersection, c))),
                    tokens(f(f(a, .difference, b), .union, f(a, .difference, c)))
                ),
                (
                    "a △ b = (a ∖ b) ∪ (b ∖ a)", tokens(f(a, .symmetricDifference, b)),
                    tokens(f(f(a, .difference, b), .union, f(b, .difference, a)))
                ),
                ("a ∪ (a ∩ b) = a", tokens(f(a, .union, f(a, .intersection, b))), tokens(a)),
            ]
            for (law, left, right) in laws where left != right { return "\(law) fails" }
            return nil
        }
    }

    public static func selectionAlgebraIncludeEntireCategory(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.algebra-include-entire-category",
            summary: "a combination's includeEntireCategory is true iff each operand has it or has no categories (§1)",
            selectionTriple, describe: { $0.description }
        ) { t in
            let expected =
                (t.a.includeEntireCategory || t.a.categoryTokens.isEmpty)
                && (t.b.includeEntireCategory || t.b.categoryTokens.isEmpty)
            for op in FamilyActivitySelection.SetOperation.allCases {
                let got = subject.combine(t.a, t.b, op).includeEntireCategory
                if got != expected { return "a \(op.rawValue) b: includeEntireCategory \(got), expected \(expected)" }
            }
            return nil
        }
    }

    public static func selectionNearValidGetsTypedError(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.near-valid-gets-typed-error",
            summary: "a string one mutation from valid fails with exactly the code the mutation calls for (§1)",
            Gen<NearValidSelection>.nearValidSelection(), describe: { $0.description }
        ) { near in
            switch subject.decode(Array(near.stored.utf8)) {
            case .success(let s):
                return "decoded to \(SelectionDescription.describe(s)) instead of failing with \(near.expected)"
            case .failure(let error):
                return error.code == near.expected
                    ? nil : "failed with \(error.code.rawValue) (\(error.detail)), expected \(near.expected.rawValue)"
            }
        }
    }

    public static func selectionFoundationReadsCanonical(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.foundation-reads-canonical",
            summary: "Data(base64Encoded:) + JSONDecoder read the canonical string into the same sets (§1)",
            Gen<FamilyActivitySelection>.selection(), describe: SelectionDescription.describe
        ) { x in
            guard let sets = FoundationSelectionDecoder.decode(Array(subject.canonical(x).utf8)) else {
                return "Foundation rejects the canonical string"
            }
            let expected = FoundationSelectionDecoder.Sets(
                applications: Set(x.orderedTokenData(of: .application)),
                categories: Set(x.orderedTokenData(of: .category)),
                webDomains: Set(x.orderedTokenData(of: .webDomain)), includeEntireCategory: x.includeEntireCategory)
            return sets == expected ? nil : "Foundation read \(sets)"
        }
    }

    public static func selectionCodableMatchesCanonical() -> Property {
        Property(
            "selection.codable-matches-canonical",
            summary:
                "JSONEncoder(.sortedKeys) writes the canonical JSON and JSONDecoder reads it back (reference Codable conformance)",
            Gen<FamilyActivitySelection>.selection(), describe: SelectionDescription.describe
        ) { x in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(x)
            let back = try JSONDecoder().decode(FamilyActivitySelection.self, from: data)
            if back != x { return "JSONDecoder read back \(SelectionDescription.describe(back))" }
            if Array(data) != x.canonicalJSON {
                return
                    "JSONEncoder wrote \(String(decoding: data, as: UTF8.self)), canonical is \(String(decoding: x.canonicalJSON, as: UTF8.self))"
            }
            return nil
        }
    }

    /// Bytes for the inside of a JSON string that are never `"`, `\` or a control character: ASCII, every kind of
    /// continuation byte, and the lead bytes at the edges of RFC 3629's table (the overlong `C0` and `C1`, `E0` and
    /// `F0` with their shortest-form limits, the surrogate lead `ED`, `F4` and the never-valid `F5`…`FF`).
    static let utf8Probe: Gen<[UInt8]> = Gen<UInt8>.element(of: [
        0x61, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA9, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
        0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ]).array(count: 1...4)

    /// JSON text is UTF-8 (RFC 8259 §8.1; SPEC §1 decodes strictly): a stored selection whose JSON holds, inside an
    /// untokenized identifier, bytes that are not valid UTF-8 (an overlong form, a surrogate, a stray continuation
    /// byte, past U+10FFFF) is refused with a typed error, and one whose bytes are valid is read with them.
    public static func selectionUTF8Strict(_ subject: SelectionSubject = .reference) -> Property {
        Property(
            "selection.utf8-strict",
            summary: "raw bytes in a JSON string decode exactly when they are valid UTF-8 (§1, RFC 8259 §8.1)",
            utf8Probe, describe: { $0.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ") }
        ) { bytes in
            let json =
                Array(#"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"#.utf8)
                + Array(#""includeEntireCategory":false,"untokenizedApplicationIdentifiers":[""#.utf8) + bytes
                + Array(#""],"untokenizedCategoryIdentifiers":[],"untokenizedWebDomainIdentifiers":[]}"#.utf8)
            let valid = String(validating: bytes, as: UTF8.self)
            switch (subject.decode(Base64.encodeToBytes(json)), valid) {
            case (.success, nil): return "accepted bytes that are not valid UTF-8"
            case (.failure(let error), _?): return "refused valid UTF-8: \(error.code)"
            case (.success(let x), let text?):
                return x.untokenizedApplicationIdentifiers.map(\.value) == [text]
                    ? nil : "read the identifier as something else than \(text.debugDescription)"
            case (.failure, nil): return nil
            }
        }
    }

    static var selectionProperties: [Property] {
        [
            selectionDecodeIsTotal(), selectionCanonicalFixedPoint(), selectionEqualityUnderPermutation(),
            selectionEqualityUnderReencoding(), selectionEqualityDistinguishes(), selectionStableOrder(),
            selectionCounts(),
            selectionAlgebraLaws(), selectionAlgebraIncludeEntireCategory(), selectionNearValidGetsTypedError(),
            selectionFoundationReadsCanonical(), selectionCodableMatchesCanonical(), selectionUTF8Strict(),
            selectionFormatRoundTrip(), selectionDocumentIsolatesBadSelection(), selectionPlistBinaryXMLAgree(),
            selectionJSONBase64JSONAgree(),
        ]
    }
}

// MARK: - Storage formats (`SPEC.md` §1.1 … §1.3)

extension ReferenceProperties {
    /// The single-selection formats.
    public static let singleSelectionFormats = SelectionFormat.allCases.filter { $0 != .jsonDocument }

    public static func selectionFormatRoundTrip(
        _ subject: SelectionFormatSubject = .reference, formats: [SelectionFormat] = singleSelectionFormats
    ) -> Property {
        Property(
            "selection.format-round-trip",
            summary: "decode(encode(x, f), f) == x for every format f of one selection (§1.1, field bugs 10–12)",
            Gen<SelectionInFormat>.selectionInFormat(formats: formats),
            describe: { $0.description }
        ) { input in
            let stored: [UInt8]
            switch subject.encode(input.selection, input.format) {
            case .success(let bytes): stored = bytes
            case .failure(let error):
                // Only XML may refuse, and only a character it cannot hold (SPEC §1.1).
                let forbidden = Self.holdsCharacterXMLForbids(input.selection)
                return input.format == .xmlPlist && forbidden
                    ? nil : "\(input.format.rawValue) refused: \(error.detail)"
            }
            switch subject.decode(stored, input.format) {
            case .success(let y):
                return y == input.selection ? nil : "read back as \(SelectionDescription.describe(y))"
            case .failure(let error):
                return "\(input.format.rawValue) output does not read back: \(error.code) at \(error.offset)"
            }
        }
    }

    /// Whether an untokenized identifier of `selection` holds a character XML 1.0 §2.2 does not allow (the model
    /// of when `xml-plist` must refuse, `SPEC.md` §1.1), written from the standard, not from the reference.
    static func holdsCharacterXMLForbids(_ selection: FamilyActivitySelection) -> Bool {
        let identifiers =
            selection.untokenizedApplicationIdentifiers.union(selection.untokenizedCategoryIdentifiers)
            .union(selection.untokenizedWebDomainIdentifiers)
        return identifiers.contains { identifier in
            identifier.value.unicodeScalars.contains { scalar in
                let v = scalar.value
                return
                    !(v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v)
                    || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v))
            }
        }
    }

    public static func selectionDocumentIsolatesBadSelection(_ subject: SelectionFormatSubject = .reference)
        -> Property
    {
        Property(
            "selection.document-isolates-bad-selection",
            summary:
                "a document with one corrupted selection still yields the others: same paths, same selections (§1.3, field bug 9)",
            Gen<SelectionDocumentCase>.selectionDocumentCase(), describe: { $0.description }
        ) { c in
            guard case .success(let good) = subject.decodeDocument(c.valid) else { return "the valid document fails" }
            guard good.count == c.selections.count else {
                return "the valid document holds \(good.count) selections, not \(c.selections.count)"
            }
            for (n, entry) in good.enumerated() where (try? entry.selection.get()) != c.selections[n] {
                return "selection \(n) of the valid document (\(entry.path)) does not read as written"
            }
            guard case .success(let bad) = subject.decodeDocument(c.withOneBad) else {
                return "one bad selection fails the whole document"
            }
            guard bad.map(\.path) == good.map(\.path) else {
                return "paths \(bad.map(\.path)), expected \(good.map(\.path))"
            }
            for (n, entry) in bad.enumerated() {
                let result = try? entry.selection.get()
                if n == c.corrupted {
                    if result != nil { return "the corrupted selection at \(entry.path) decoded" }
                } else if result != c.selections[n] {
                    return "the selection at \(entry.path) is lost or changed beside the bad one"
                }
            }
            return nil
        }
    }

    public static func selectionPlistBinaryXMLAgree(_ subject: SelectionFormatSubject = .reference) -> Property {
        Property(
            "selection.plist-binary-xml-agree",
            summary:
                "the binary and the XML property list of one selection read back as the same selection (§1.1, §1.2)",
            Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 4), describe: SelectionDescription.describe
        ) { x in
            guard case .success(let binaryBytes) = subject.encode(x, .binaryPlist) else {
                return "the binary list was refused"
            }
            guard case .success(let xmlBytes) = subject.encode(x, .xmlPlist) else {
                // XML cannot hold every character (SPEC §1.1): a refusal is right exactly then.
                let forbidden = Self.holdsCharacterXMLForbids(x)
                return forbidden ? nil : "the XML list was refused"
            }
            let binary = subject.decode(binaryBytes, .binaryPlist)
            let xml = subject.decode(xmlBytes, .xmlPlist)
            switch (binary, xml) {
            case (.success(let b), .success(let m)):
                return b == m && b == x ? nil : "binary and XML read back differently"
            case (.failure(let error), _): return "the binary list does not read back: \(error.code)"
            case (_, .failure(let error)): return "the XML list does not read back: \(error.code)"
            }
        }
    }

    public static func selectionJSONBase64JSONAgree(_ subject: SelectionFormatSubject = .reference) -> Property {
        Property(
            "selection.json-base64-json-agree",
            summary:
                "JSON bytes read as json and their base64 read as base64-json agree: the same selection, or the same code and offset (§1.1)",
            Gen<[UInt8]>.selectionJSONText, describe: { String(decoding: $0.prefix(400), as: UTF8.self) }
        ) { json in
            let direct = subject.decode(json, .json)
            let wrapped = subject.decode(Array(Base64.encode(json).utf8), .base64JSON)
            switch (direct, wrapped) {
            case (.success(let a), .success(let b)): return a == b ? nil : "the two read different selections"
            case (.failure(let a), .failure(let b)):
                if a.code != b.code { return "json says \(a.code), base64-json \(b.code)" }
                if a.code > .base64 && a.offset != b.offset {
                    return "\(a.code) at byte \(a.offset) as json, \(b.offset) as base64-json"
                }
                return nil
            case (.success, .failure(let b)): return "only json decodes (base64-json: \(b.code))"
            case (.failure(let a), .success): return "only base64-json decodes (json: \(a.code))"
            }
        }
    }
}
