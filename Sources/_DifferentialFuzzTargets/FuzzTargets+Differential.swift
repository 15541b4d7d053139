import Foundation
import FoundationBaseline
import ScreenTimeSelection
@_exported import _FuzzCore  // the differential shim imports only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let differentialTargets = [selectionDifferential, selectionPlist]

    /// `selection-differential`: our decoder against ``FoundationSelectionDecoder`` on the same stored string.
    /// They must agree on accept/reject and on the token sets, except where the spec deliberately differs from
    /// Foundation; each such difference is a named, detected ``SelectionDeviation``, and anything else fails.
    /// Our own two paths are compared first: `SelectionDecoder.canonicalForm(of:)` must match decoding into a
    /// selection exactly (canonical string, counts, flag, or the same error).
    ///
    /// `maxLength` 512, as `selection-decode`: the same stored strings.
    public static let selectionDifferential = FuzzTarget(
        name: "selection-differential",
        summary:
            "our strict decoder vs Data(base64Encoded:) + JSONDecoder, our direct canonical path and our Codable: agree except documented deviations",
        maxLength: 512
    ) { bytes in
        SelectionDifferential.compare(bytes).failure
    }
}

/// A documented way in which the spec's decoder is stricter than Foundation's `Data(base64Encoded:)` +
/// `JSONDecoder` (measured on swift-corelibs-foundation 6.3). See `Guides/SelectionDecoding.md`.
public enum SelectionDeviation: String, CaseIterable, Sendable {
    /// RFC 4648 §3.5: we accept only canonical base64. Foundation's `Data(base64Encoded:)` also accepts non-zero
    /// pad bits (`QR==`) and `=` where RFC 4648 has none (`QUFBQUFB==`, `fQ===`, `pQ=M`). Detected on the
    /// stored string or on one token's `data`: our strict decoder rejects the text and Foundation accepts it.
    case nonCanonicalBase64
    /// RFC 8259 §8.1: no byte order mark; Foundation skips one.
    case byteOrderMark
    /// RFC 8259 §8.1: text must be UTF-8; Foundation accepts invalid and overlong sequences inside strings.
    case invalidUTF8
    /// A `\u` escape that is a lone surrogate is not a Unicode scalar; Foundation accepts it.
    case loneSurrogateEscape
    /// RFC 8259 §7: the only escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`; Foundation accepts others (`\w`).
    case invalidEscape
    /// RFC 8259 §7: control characters must be escaped in strings; Foundation accepts them raw.
    case unescapedControlCharacter
    /// SPEC §1: nesting over 32 is `json`; Foundation accepts deeper nesting (40 levels measured; 600 rejected).
    case nestingOver32
    /// RFC 8259 grammar: no trailing comma; Foundation accepts `[1,]` and `{"a":1,}`.
    case trailingComma
    /// RFC 8259 number grammar: Foundation accepts numbers outside it, such as `01` and `0.`.
    case numberGrammar
    /// SPEC §1: a key repeated in one object is `schema`; Foundation keeps one of the values.
    case duplicateKey
    /// SPEC §1: `includeEntireCategory` or an `untokenized*` member that is `null` is `schema`; Foundation's
    /// `decodeIfPresent` reads `null` as absent.
    case nullOptionalMember
    /// SPEC §1: token data must be 1…1024 bytes; Foundation accepts empty and longer data.
    case tokenSize
}

public enum SelectionDifferential {
    public struct Comparison {
        public var ours: Result<FamilyActivitySelection, SelectionDecodingError>
        public var foundation: FoundationSelectionDecoder.Sets?
        /// The deviations present in the input (only computed when the two disagree).
        public var deviations: Set<SelectionDeviation>
        public var failure: HarnessFailure?
    }

    public static func compare(_ stored: [UInt8]) -> Comparison {
        let ours = Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(stored).selection }
        let theirs = FoundationSelectionDecoder.decode(stored)
        var comparison = Comparison(ours: ours, foundation: theirs, deviations: [], failure: nil)
        if let failure = compareDirectPath(stored, ours) {
            comparison.failure = failure
            return comparison
        }
        switch (ours, theirs) {
        case (.failure, nil):
            break
        case (.success(let s), let sets?):
            let mine = FoundationSelectionDecoder.Sets(
                applications: Set(s.applicationTokens.map(\.data)), categories: Set(s.categoryTokens.map(\.data)),
                webDomains: Set(s.webDomainTokens.map(\.data)), includeEntireCategory: s.includeEntireCategory)
            if mine != sets {
                comparison.failure = HarnessFailure(
                    "both accept but the sets differ", "ours \(mine), Foundation \(sets)")
            }
        case (.success, nil):
            comparison.failure = HarnessFailure("we accept what Foundation rejects", "input \(stored.count) bytes")
        case (.failure(let error), _?):
            comparison.deviations = detectDeviations(stored)
            if comparison.deviations.isEmpty {
                comparison.failure = HarnessFailure(
                    "we reject (\(error)) what Foundation accepts, with no documented deviation")
            }
        }
        if comparison.failure == nil { comparison.failure = compareCodable(stored, ours, theirs) }
        return comparison
    }

    /// The deviations that let Foundation's JSON layer accept what ours rejects. (Token data is the other
    /// kind: the `Codable` conformance checks it as strictly as our decoder does; `nonCanonicalBase64` is left
    /// out because it may be a token's, and the stored string's own is checked on its own.)
    static let jsonDeviations: Set<SelectionDeviation> = Set(SelectionDeviation.allCases).subtracting([
        .nonCanonicalBase64, .tokenSize,
    ])

    /// `JSONDecoder().decode(FamilyActivitySelection.self, from:)` on the JSON inside the stored string: the
    /// reference's `Codable` conformance, a third reader of the same bytes.
    ///
    /// - When our decoder accepts, the conformance reads the very same selection (untokenized identifiers
    ///   included), `JSONEncoder` with `.sortedKeys` writes its canonical JSON byte for byte, and `JSONDecoder`
    ///   reads that back as the same selection.
    /// - When it accepts what our decoder rejects, Foundation's baseline accepts too with the same token sets and
    ///   flag, and the input shows non-canonical base64 in the stored string itself or one of the deviations of
    ///   Foundation's JSON layer (the conformance is Foundation's base64 and JSON with our token check).
    /// - When it rejects what Foundation's baseline accepts, the input shows a token deviation: non-canonical
    ///   base64 or a size outside 1…1024 (the only checks it adds to the baseline's), or a repeated key, of which
    ///   Foundation keeps one value without saying which, so two Foundation readers may keep different ones.
    static func compareCodable(
        _ stored: [UInt8], _ ours: Result<FamilyActivitySelection, SelectionDecodingError>,
        _ theirs: FoundationSelectionDecoder.Sets?
    ) -> HarnessFailure? {
        guard let text = String(validating: stored, as: UTF8.self), let json = Data(base64Encoded: text) else {
            return nil
        }
        let decoded = try? JSONDecoder().decode(FamilyActivitySelection.self, from: json)
        guard let decoded else {
            if case .success = ours { return HarnessFailure("JSONDecoder's Codable rejects what we accept") }
            if theirs != nil,
                detectDeviations(stored).isDisjoint(with: [.nonCanonicalBase64, .tokenSize, .duplicateKey])
            {
                return HarnessFailure(
                    "JSONDecoder's Codable rejects what Foundation's baseline accepts, no token deviation")
            }
            return nil
        }
        switch ours {
        case .success(let s):
            if decoded != s {
                return HarnessFailure("JSONDecoder's Codable reads another selection", "ours \(s.canonicalBase64)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let written = try? encoder.encode(decoded) else {
                return HarnessFailure("JSONEncoder cannot encode a decoded selection")
            }
            if Array(written) != s.canonicalJSON {
                return HarnessFailure(
                    "JSONEncoder(.sortedKeys) does not write the canonical JSON",
                    "\(String(decoding: written, as: UTF8.self)) against \(String(decoding: s.canonicalJSON, as: UTF8.self))"
                )
            }
            if (try? JSONDecoder().decode(FamilyActivitySelection.self, from: written)) != s {
                return HarnessFailure("JSONEncoder then JSONDecoder gives another selection", s.canonicalBase64)
            }
        case .failure(let error):
            guard let theirs else {
                return HarnessFailure("JSONDecoder's Codable accepts what Foundation's baseline rejects", "\(error)")
            }
            let sets = FoundationSelectionDecoder.Sets(
                applications: Set(decoded.applicationTokens.map(\.data)),
                categories: Set(decoded.categoryTokens.map(\.data)),
                webDomains: Set(decoded.webDomainTokens.map(\.data)),
                includeEntireCategory: decoded.includeEntireCategory)
            if sets != theirs {
                return HarnessFailure(
                    "JSONDecoder's Codable and Foundation's baseline read other sets", "\(sets), \(theirs)")
            }
            if base64Deviation(stored) == nil, detectDeviations(stored).isDisjoint(with: jsonDeviations) {
                return HarnessFailure(
                    "JSONDecoder's Codable accepts (we reject: \(error)) with no JSON-layer deviation")
            }
        }
        return nil
    }

    /// Our two paths to the canonical form: `SelectionDecoder.canonicalForm(of:)` (written from the token texts)
    /// must give the decoded selection's canonical string, counts and flag, or fail with the same error.
    static func compareDirectPath(_ stored: [UInt8], _ ours: Result<FamilyActivitySelection, SelectionDecodingError>)
        -> HarnessFailure?
    {
        let direct = Result { () throws(SelectionDecodingError) in try SelectionDecoder.canonicalForm(of: stored) }
        switch (ours, direct) {
        case (.success(let s), .success(let form)):
            if form.base64 != s.canonicalBase64 || form.applicationCount != s.applicationTokens.count
                || form.categoryCount != s.categoryTokens.count || form.webDomainCount != s.webDomainTokens.count
                || form.includeEntireCategory != s.includeEntireCategory
            {
                return HarnessFailure(
                    "the direct canonical form differs from the selection's",
                    "direct \(form), selection canonical \(s.canonicalBase64)")
            }
        case (.failure(let a), .failure(let b)):
            if a.code != b.code || a.offset != b.offset || a.detail != b.detail {
                return HarnessFailure("the direct canonical path fails differently", "decode: \(a); direct: \(b)")
            }
        case (.success, .failure(let error)):
            return HarnessFailure("the direct canonical path rejects what decode accepts", "\(error)")
        case (.failure(let error), .success):
            return HarnessFailure("the direct canonical path accepts what decode rejects", "\(error)")
        }
        return nil
    }

    /// Whether a base64 text is one that Foundation accepts and the strict decoder does not.
    static func base64Deviation(_ text: [UInt8]) -> SelectionDeviation? {
        guard case .failure = Base64.decodeReportingOffset(text), let string = String(validating: text, as: UTF8.self),
            Data(base64Encoded: string) != nil
        else { return nil }
        return .nonCanonicalBase64
    }

    /// Which documented deviations the input shows.
    public static func detectDeviations(_ stored: [UInt8]) -> Set<SelectionDeviation> {
        var found: Set<SelectionDeviation> = []
        guard let text = String(validating: stored, as: UTF8.self), let data = Data(base64Encoded: text) else {
            return found
        }
        if let deviation = base64Deviation(stored) { found.insert(deviation) }
        let json = Array(data)
        found.formUnion(LexicalDeviations.scan(json))
        // Structural deviations need a tree, read as leniently as Foundation reads: an input may also have
        // lexical deviations, at which the strict parser would stop.
        if let tree = LenientJSONTree.parse(json) {
            if tree.hasRepeatedKey { found.insert(.duplicateKey) }
            for key in [
                "includeEntireCategory", "untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers",
                "untokenizedWebDomainIdentifiers",
            ]
            where tree.values(of: key).contains(where: { if case .null = $0 { true } else { false } }) {
                found.insert(.nullOptionalMember)
            }
            for kind in SelectionTokenKind.allCases {
                for element in tree.values(of: kind.jsonKey).flatMap(\.elements) {
                    for text in element.values(of: "data").compactMap(\.bytes) {
                        if let deviation = base64Deviation(text) {
                            found.insert(deviation)
                        } else if case .success(let b) = Base64.decodeReportingOffset(text), b.isEmpty || b.count > 1024
                        {
                            found.insert(.tokenSize)
                        }
                    }
                }
            }
        }
        return found
    }
}

/// One pass over JSON bytes that notices the lexical deviations, tracking strings so that their content is not
/// mistaken for structure.
enum LexicalDeviations {
    static func scan(_ bytes: [UInt8]) -> Set<SelectionDeviation> {
        var found: Set<SelectionDeviation> = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { found.insert(.byteOrderMark) }
        if String(validating: bytes, as: UTF8.self) == nil { found.insert(.invalidUTF8) }
        var inString = false
        var depth = 0
        var maxDepth = 0
        var lastSignificant: UInt8 = 0
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if inString {
                if c == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    if !Array("\"\\/bfnrtu".utf8).contains(bytes[i + 1]) {
                        found.insert(.invalidEscape)
                    } else if bytes[i + 1] == UInt8(ascii: "u"),
                        i + 5 >= bytes.count || hex4(bytes[(i + 2)...(i + 5)]) == nil
                    {
                        found.insert(.invalidEscape)
                    }
                    if bytes[i + 1] == UInt8(ascii: "u"), i + 5 < bytes.count, let unit = hex4(bytes[(i + 2)...(i + 5)])
                    {
                        if (0xDC00...0xDFFF).contains(unit) {
                            found.insert(.loneSurrogateEscape)
                        } else if (0xD800...0xDBFF).contains(unit) {
                            let pairOK =
                                i + 11 < bytes.count && bytes[i + 6] == UInt8(ascii: "\\")
                                && bytes[i + 7] == UInt8(ascii: "u")
                                && hex4(bytes[(i + 8)...(i + 11)]).map { (0xDC00...0xDFFF).contains($0) } == true
                            if pairOK { i += 6 } else { found.insert(.loneSurrogateEscape) }
                        }
                        i += 6
                        continue
                    }
                    i += 2
                    continue
                }
                if c == UInt8(ascii: "\"") { inString = false }
                if c < 0x20 { found.insert(.unescapedControlCharacter) }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                maxDepth = max(maxDepth, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if lastSignificant == UInt8(ascii: ",") { found.insert(.trailingComma) }
                depth -= 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A numeric token: the run of number characters from here.
                var j = i
                while j < bytes.count, Self.numberCharacters.contains(bytes[j]) { j += 1 }
                if !Self.isRFC8259Number(bytes[i..<j]) { found.insert(.numberGrammar) }
                lastSignificant = bytes[j - 1]
                i = j
                continue
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
                continue
            default: break
            }
            lastSignificant = c
            i += 1
        }
        if maxDepth > SelectionDecoder.maximumDepth { found.insert(.nestingOver32) }
        return found
    }

    static let numberCharacters: Set<UInt8> = Set(Array("0123456789+-.eE".utf8))

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    static func isRFC8259Number(_ s: ArraySlice<UInt8>) -> Bool {
        var i = s.startIndex
        func digit(_ k: Int) -> Bool { k < s.endIndex && s[k] >= UInt8(ascii: "0") && s[k] <= UInt8(ascii: "9") }
        if i < s.endIndex, s[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { return false }
        if s[i] == UInt8(ascii: "0") { i += 1 } else { while digit(i) { i += 1 } }
        if i < s.endIndex, s[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        if i < s.endIndex, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            i += 1
            if i < s.endIndex, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { return false }
            while digit(i) { i += 1 }
        }
        return i == s.endIndex
    }

    static func hex4(_ s: ArraySlice<UInt8>) -> UInt16? {
        var v: UInt16 = 0
        for c in s {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
        }
        return v
    }
}
