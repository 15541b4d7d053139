import Foundation
import ScreenTimeReference
import StrictJSON

extension FuzzTargets {
    /// `selection-differential`: our decoder against ``FoundationSelectionDecoder`` on the same stored string.
    /// They must agree on accept/reject and on the token sets, except where the spec deliberately differs from
    /// Foundation; each such difference is a named, detected ``SelectionDeviation``, and anything else fails.
    public static let selectionDifferential = FuzzTarget(
        name: "selection-differential",
        summary: "our strict decoder vs Data(base64Encoded:) + JSONDecoder: agree except documented deviations"
    ) { bytes in
        SelectionDifferential.compare(bytes).failure
    }
}

/// A documented way in which the spec's decoder is stricter than Foundation's `Data(base64Encoded:)` +
/// `JSONDecoder` (measured on swift-corelibs-foundation 6.3). See `Guides/SelectionDecoding.md`.
public enum SelectionDeviation: String, CaseIterable, Sendable {
    /// RFC 4648 §3.5: we accept only canonical base64 (zero pad bits); Foundation ignores pad bits.
    case nonCanonicalPadBits
    /// RFC 8259 §8.1: no byte order mark; Foundation skips one.
    case byteOrderMark
    /// RFC 8259 §8.1: text must be UTF-8; Foundation accepts invalid and overlong sequences inside strings.
    case invalidUTF8
    /// A `\u` escape that is a lone surrogate is not a Unicode scalar; Foundation accepts it.
    case loneSurrogateEscape
    /// RFC 8259 §7: control characters must be escaped in strings; Foundation accepts them raw.
    case unescapedControlCharacter
    /// SPEC §1: nesting over 32 is `json`; Foundation allows up to 512.
    case nestingOver32
    /// RFC 8259 grammar: no trailing comma; Foundation accepts `[1,]` and `{"a":1,}`.
    case trailingComma
    /// RFC 8259 grammar: no leading zeros; Foundation accepts `01`.
    case leadingZero
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
        switch (ours, theirs) {
        case (.failure, nil):
            break
        case (.success(let s), let sets?):
            let mine = FoundationSelectionDecoder.Sets(
                applications: Set(s.applicationTokens.map(\.data)), categories: Set(s.categoryTokens.map(\.data)),
                webDomains: Set(s.webDomainTokens.map(\.data)), includeEntireCategory: s.includeEntireCategory)
            if mine != sets {
                comparison.failure = HarnessFailure("both accept but the sets differ", "ours \(mine), Foundation \(sets)")
            }
        case (.success, nil):
            comparison.failure = HarnessFailure("we accept what Foundation rejects", "input \(stored.count) bytes")
        case (.failure(let error), _?):
            comparison.deviations = detectDeviations(stored)
            if comparison.deviations.isEmpty {
                comparison.failure = HarnessFailure("we reject (\(error)) what Foundation accepts, with no documented deviation")
            }
        }
        return comparison
    }

    /// Which documented deviations the input shows.
    public static func detectDeviations(_ stored: [UInt8]) -> Set<SelectionDeviation> {
        var found: Set<SelectionDeviation> = []
        guard let text = String(validating: stored, as: UTF8.self), let data = Data(base64Encoded: text) else { return found }
        if case .failure(let f) = Base64.decodeReportingOffset(stored), f.reason == .padBits { found.insert(.nonCanonicalPadBits) }
        let json = Array(data)
        found.formUnion(LexicalDeviations.scan(json))
        // Structural deviations need a tree: parse leniently enough (deep, any UTF-8 issue aside).
        if let parsed = try? JSONParser.parse(json, limits: .init(maxDepth: 4096)) {
            if parsed.firstDuplicateKeyOffset != nil { found.insert(.duplicateKey) }
            if case .object(let top) = parsed.value {
                for key in ["includeEntireCategory", "untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers"]
                where top[key] == .null {
                    found.insert(.nullOptionalMember)
                }
                for kind in SelectionTokenKind.allCases {
                    for element in top[kind.jsonKey]?.arrayValue ?? [] {
                        guard let d = element["data"]?.stringValue else { continue }
                        switch Base64.decodeReportingOffset(Array(d.utf8)) {
                        case .success(let b) where b.isEmpty || b.count > 1024: found.insert(.tokenSize)
                        case .failure(let f) where f.reason == .padBits: found.insert(.nonCanonicalPadBits)
                        default: break
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
                    if bytes[i + 1] == UInt8(ascii: "u"), i + 5 < bytes.count, let unit = hex4(bytes[(i + 2)...(i + 5)]) {
                        if (0xDC00...0xDFFF).contains(unit) {
                            found.insert(.loneSurrogateEscape)
                        } else if (0xD800...0xDBFF).contains(unit) {
                            let pairOK = i + 11 < bytes.count && bytes[i + 6] == UInt8(ascii: "\\") && bytes[i + 7] == UInt8(ascii: "u")
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
            case UInt8(ascii: "0"):
                let startsNumber = !(lastSignificant >= UInt8(ascii: "0") && lastSignificant <= UInt8(ascii: "9"))
                    && lastSignificant != UInt8(ascii: ".") && lastSignificant != UInt8(ascii: "e") && lastSignificant != UInt8(ascii: "E")
                    && lastSignificant != UInt8(ascii: "+")
                    || (lastSignificant == UInt8(ascii: "-") && i > 0 && bytes[i - 1] == UInt8(ascii: "-"))
                if startsNumber, i + 1 < bytes.count, bytes[i + 1] >= UInt8(ascii: "0"), bytes[i + 1] <= UInt8(ascii: "9") {
                    found.insert(.leadingZero)
                }
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
