import Foundation
import FoundationBaseline
import ScreenTimeSelection
import StrictPropertyList

extension FuzzTargets {
    /// `selection-plist`: our property-list readers (SPEC §1.2) and the selection layer on them (§1.1) against
    /// Foundation's `PropertyListDecoder` into the iOS-shaped ``FoundationSelectionDecoder/Selection`` (tokens as
    /// `Data`, so a token's `data` must be a data object, as on iOS). An input starting with `bplist` is read as
    /// `binary-plist`, any other as `xml-plist`, so both readers are fuzzed.
    ///
    /// - Our reader never traps, and its errors, and the selection layer's, have an offset within the input; the
    ///   selection layer fails with `plist` exactly when the reader does.
    /// - Ours and Foundation agree on accept/reject and on the token sets, flag and untokenized identifiers,
    ///   except where the input shows a named, documented ``PropertyListDeviation``; anything else fails.
    /// - When ours accepts, the selection written as `binary-plist` and as `xml-plist` reads back, by ours and by
    ///   Foundation, as the same selection.
    ///
    /// `maxLength` 2048: a selection of a few tokens in either format, and small enough that Foundation's
    /// recursive readers never meet a nesting deep enough to matter (a 2048-byte list nests at most ~300 deep in
    /// XML, ~1000 in binary; both are read by CoreFoundation without trouble).
    public static let selectionPlist = FuzzTarget(
        name: "selection-plist",
        summary:
            "our strict plist readers vs PropertyListDecoder: agree except documented deviations; written selections read back",
        maxLength: 2048
    ) { bytes in
        PropertyListDifferential.compare(bytes).failure
    }
}

/// A documented way in which SPEC §1.1/§1.2 is stricter than Foundation's property-list readers (measured on
/// swift-corelibs-foundation 6.3 by `selection-plist`). See `Guides/SelectionFormats.md`, "Where the reference is
/// stricter than Foundation". Each is detected on the input's structure, not on our error message.
public enum PropertyListDeviation: String, CaseIterable, Sendable {
    // XML (Assumption A14: a reader may refuse what PropertyListEncoder never writes).
    /// §1.2: no byte order mark; Foundation skips one.
    case xmlByteOrderMark
    /// §1.2: comments are `plist`; Foundation skips `<!-- … -->`.
    case xmlComment
    /// §1.2: CDATA sections are `plist`; Foundation reads `<![CDATA[…]]>` as text.
    case xmlCDATA
    /// §1.2: no processing instruction but the declaration at byte 0; Foundation skips `<?…?>` anywhere.
    case xmlProcessingInstruction
    /// §1.2: one DOCTYPE, before `<plist>`; Foundation skips more of them, and one after the root starts.
    case xmlDoctypePlacement
    /// §1.2: value tags are written exactly (`<string>`), and `<plist>`'s attributes are `name="value"`;
    /// Foundation accepts attributes and spaces in value tags, and skips what it does not read in `<plist …>`.
    case xmlTagSpelling
    /// §1.2: only the five entities and character references to XML characters; Foundation accepts others.
    case xmlReference
    /// §1.2: raw characters must be XML characters (no C0 controls but tab, LF, CR); Foundation accepts them.
    case xmlCharacter
    /// §1.2: only whitespace outside markup and between elements; Foundation skips other text there.
    case xmlStrayText
    /// §1.2: `<integer>`, `<real>` and `<date>` have their exact grammar; Foundation is lenient in them.
    case xmlScalarGrammar
    /// §1.2: the XML declaration is not interpreted (the bytes are UTF-8 whatever it says); Foundation honours its
    /// `encoding`, refusing one it does not know (`UTF-6`) and converting from one it knows (`ISO-8859-1`). The
    /// one deviation where Foundation is the stricter or reads other text: we may accept what it rejects.
    case xmlDeclaredEncoding
    /// §1.2 (XML 1.0 §2.11): a raw carriage return in text, alone or before a line feed, reads as a line feed;
    /// Foundation keeps it, so the two read other strings (`a\rb`). Also one where Foundation reads otherwise.
    case xmlLineEnd
    /// §1.2: `<plist>`'s attribute values are quoted, and may hold `>`; Foundation ends the tag at the first `>`
    /// (`<plist version="-->">`), then refuses what follows. Also one where Foundation is the stricter.
    case xmlQuotedBracket
    /// §1.2: `<data>` holds canonical base64 once whitespace is removed; Foundation accepts non-canonical padding
    /// and bits, and skips other characters.
    case nonCanonicalBase64
    /// §1.2: no `true`/`false` spelled other than `<true/>` `<false/>` and no other elements; Foundation accepts
    /// some (`<true></true>`, the old `<plist>` without a value).
    case xmlElementForm
    // Binary.
    /// §1.2: the offset and reference sizes are 1, 2, 4 or 8; Foundation reads others.
    case binaryIntegerSizes
    /// §1.2: markers outside the list (null `0x00`, fill `0x0F`, sets `0xCn`, `0x7n`, …) are `plist`; Foundation
    /// reads some.
    case binaryMarker
    /// §1.2: the offset table, the objects and the trailer fields follow the layout exactly; Foundation is
    /// lenient about offsets, lengths and the trailer's counts.
    case binaryLayout
    /// §1.2: ASCII strings hold bytes below 0x80 and UTF-16 ones no lone surrogate; Foundation reads both.
    case binaryStringContent
    /// §1.2: the 16-byte integer's high 8 bytes are zero, a UID fits in 64 bits, and a length is a non-negative
    /// 1…8-byte integer.
    case binaryIntegerForm
    // Both.
    /// §1.1: a key repeated in one dictionary is `schema`; Foundation keeps one of the values.
    case duplicateKey
    /// §1.1: token data is 1…1024 bytes; Foundation reads `Data` of any length.
    case tokenSize
    /// §1.2: nesting over 32, or a walk over 1 048 576 values, is `plist`; Foundation reads deeper lists.
    case limits
}

public enum PropertyListDifferential {
    public struct Comparison {
        public var format: SelectionFormat
        public var ours: Result<SelectionDecoder.Report, SelectionDecodingError>
        public var foundation: FoundationSelectionDecoder.Selection?
        public var deviations: Set<PropertyListDeviation>
        public var failure: HarnessFailure?
    }

    /// The format an input is read as: binary when it starts with `bplist`, else XML.
    public static func format(of bytes: [UInt8]) -> SelectionFormat {
        bytes.starts(with: Array("bplist".utf8)) ? .binaryPlist : .xmlPlist
    }

    /// The deviations under which Foundation may reject, or read otherwise, what we accept.
    public static let foundationStricter: Set<PropertyListDeviation> = [
        .xmlDeclaredEncoding, .xmlLineEnd, .xmlQuotedBracket,
    ]

    public static func compare(_ bytes: [UInt8]) -> Comparison {
        let format = format(of: bytes)
        let plistFormat: PropertyListFormat = format == .binaryPlist ? .binary : .xml
        let tree = Result { () throws(PropertyListError) in try PropertyListReader.read(bytes, as: plistFormat) }
        let ours = Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(bytes, format: format) }
        // Foundation on Linux traps on a binary string whose length runs past the end of the data, and on a
        // collection whose references take 2^63 bytes or more (LenientBinaryPropertyList.trapsFoundation): it is
        // not asked about such input. (Ours refuses it where it is reachable, and need not where it is not:
        // unreferenced objects are not read, SPEC §1.2.)
        if format == .binaryPlist, LenientBinaryPropertyList.trapsFoundation(bytes) {
            var comparison = Comparison(format: format, ours: ours, foundation: nil, deviations: [], failure: nil)
            comparison.failure = checkOurs(bytes, tree, ours)
            if comparison.failure == nil, case .success(let report) = ours {
                comparison.failure = roundTrip(report.selection)
            }
            return comparison
        }
        let theirs = foundationSelection(bytes)
        var comparison = Comparison(format: format, ours: ours, foundation: theirs, deviations: [], failure: nil)
        if let failure = checkOurs(bytes, tree, ours) {
            comparison.failure = failure
            return comparison
        }
        switch (ours, theirs) {
        case (.failure, nil):
            break
        case (.success(let report), let selection?):
            if let difference = difference(report.selection, selection) {
                comparison.deviations = detectDeviations(bytes, format, tree)
                if comparison.deviations.isDisjoint(with: foundationStricter.union([.duplicateKey])) {
                    comparison.failure = HarnessFailure("both accept but read other selections", difference)
                }
            }
        case (.success(let report), nil):
            comparison.deviations = detectDeviations(bytes, format, tree)
            if !comparison.deviations.isDisjoint(with: foundationStricter) { break }
            comparison.failure = HarnessFailure(
                "we accept what Foundation rejects", "\(bytes.count) bytes, ours \(report.selection.canonicalBase64)")
        case (.failure(let error), _?):
            comparison.deviations = detectDeviations(bytes, format, tree)
            if comparison.deviations.isEmpty {
                comparison.failure = HarnessFailure(
                    "we reject (\(error)) what Foundation accepts, with no documented deviation")
            }
        }
        if comparison.failure == nil, case .success(let report) = ours {
            comparison.failure = roundTrip(report.selection)
        }
        if comparison.failure == nil, case .success(let top) = tree {
            comparison.failure = PropertyListRewrite.check(top)
        }
        return comparison
    }

    /// Foundation's reading: `PropertyListDecoder` into the iOS-shaped selection (tokens as `Data`).
    static func foundationSelection(_ bytes: [UInt8]) -> FoundationSelectionDecoder.Selection? {
        try? PropertyListDecoder().decode(FoundationSelectionDecoder.Selection.self, from: Data(bytes))
    }

    /// Our reader and our selection layer: offsets within the input, and `plist` exactly when the reader fails.
    static func checkOurs(
        _ bytes: [UInt8], _ tree: Result<PropertyListNode, PropertyListError>,
        _ ours: Result<SelectionDecoder.Report, SelectionDecodingError>
    ) -> HarnessFailure? {
        if case .failure(let error) = tree, !(0...bytes.count).contains(error.offset) {
            return HarnessFailure("the reader's error offset is outside the input", "\(error), \(bytes.count) bytes")
        }
        if case .failure(let error) = ours, !(0...bytes.count).contains(error.offset) {
            return HarnessFailure("the decoder's error offset is outside the input", "\(error), \(bytes.count) bytes")
        }
        switch (tree, ours) {
        case (.failure(let a), .failure(let b)):
            if b.code != .plist && b.code != .empty {
                return HarnessFailure("the reader fails but the decoder reports \(b.code)", "\(a); \(b)")
            }
            if b.code == .plist, b.offset != a.offset {
                return HarnessFailure("the decoder's plist error is not the reader's", "\(a); \(b)")
            }
        case (.failure(let a), .success):
            return HarnessFailure("the decoder accepts what the reader rejects", "\(a)")
        case (.success, .failure(let b)):
            if b.code == .plist { return HarnessFailure("the reader accepts but the decoder reports plist", "\(b)") }
        case (.success, .success):
            break
        }
        return nil
    }

    /// Why two readings differ, or `nil`.
    public static func difference(_ s: FamilyActivitySelection, _ f: FoundationSelectionDecoder.Selection) -> String? {
        let sets = FoundationSelectionDecoder.Sets(
            applications: Set(f.applicationTokens.map { $0.data.base64EncodedString() }),
            categories: Set(f.categoryTokens.map { $0.data.base64EncodedString() }),
            webDomains: Set(f.webDomainTokens.map { $0.data.base64EncodedString() }),
            includeEntireCategory: f.includeEntireCategory ?? false)
        let mine = FoundationSelectionDecoder.Sets(
            applications: Set(s.applicationTokens.map(\.data)), categories: Set(s.categoryTokens.map(\.data)),
            webDomains: Set(s.webDomainTokens.map(\.data)), includeEntireCategory: s.includeEntireCategory)
        if mine != sets { return "ours \(mine), Foundation \(sets)" }
        let untokenized: [(Set<String>, [String]?)] = [
            (Set(s.untokenizedApplicationIdentifiers.map(\.value)), f.untokenizedApplicationIdentifiers),
            (Set(s.untokenizedCategoryIdentifiers.map(\.value)), f.untokenizedCategoryIdentifiers),
            (Set(s.untokenizedWebDomainIdentifiers.map(\.value)), f.untokenizedWebDomainIdentifiers),
        ]
        for (ours, theirs) in untokenized where ours != Set(theirs ?? []) {
            return "untokenized identifiers: ours \(ours.sorted()), Foundation \((theirs ?? []).sorted())"
        }
        return nil
    }

    /// Our writers: each format reads back as the same selection, by ours and by Foundation.
    ///
    /// XML refuses exactly the selections with an untokenized identifier holding a character XML 1.0 cannot carry
    /// (U+0000, other C0 controls, U+FFFE, U+FFFF): `unencodable` (SPEC §1.1), which this target found as a gap;
    /// a refusal of anything else, or no refusal then, is a failure.
    static func roundTrip(_ s: FamilyActivitySelection) -> HarnessFailure? {
        let xmlCanHold = [
            s.untokenizedApplicationIdentifiers, s.untokenizedCategoryIdentifiers,
            s.untokenizedWebDomainIdentifiers,
        ].joined().allSatisfy {
            $0.value.unicodeScalars.allSatisfy { XMLPropertyListDeviations.isXMLCharacter($0.value) }
        }
        for format in [SelectionFormat.binaryPlist, .xmlPlist] {
            let written: [UInt8]
            do throws(SelectionEncodingError) {
                written = try s.encoded(as: format)
            } catch {
                if format == .xmlPlist && !xmlCanHold { continue }
                return HarnessFailure("\(format.rawValue) refused a selection it can hold", "\(error)")
            }
            if format == .xmlPlist && !xmlCanHold {
                return HarnessFailure("xml-plist wrote a character XML cannot hold", s.canonicalBase64)
            }
            do throws(SelectionDecodingError) {
                let back = try SelectionDecoder.decode(written, format: format).selection
                if back != s { return HarnessFailure("\(format.rawValue) written reads back as another selection") }
            } catch {
                return HarnessFailure("\(format.rawValue) written does not read back", "\(error)")
            }
            guard let theirs = foundationSelection(written) else {
                return HarnessFailure("Foundation cannot read our \(format.rawValue)", s.canonicalBase64)
            }
            if let difference = difference(s, theirs) {
                return HarnessFailure("Foundation reads our \(format.rawValue) as another selection", difference)
            }
        }
        return nil
    }

    /// Which documented deviations the input shows.
    public static func detectDeviations(
        _ bytes: [UInt8], _ format: SelectionFormat, _ tree: Result<PropertyListNode, PropertyListError>
    ) -> Set<PropertyListDeviation> {
        var found: Set<PropertyListDeviation> = []
        if format == .xmlPlist {
            found.formUnion(XMLPropertyListDeviations.scan(bytes))
        } else {
            found.formUnion(LenientBinaryPropertyList.deviations(bytes))
        }
        if case .success(let top) = tree {
            found.formUnion(treeDeviations(top))
        }
        return found
    }

    /// The selection-level deviations visible on a tree our reader accepted.
    static func treeDeviations(_ top: PropertyListNode) -> Set<PropertyListDeviation> {
        var found: Set<PropertyListDeviation> = []
        func walk(_ node: PropertyListNode) {
            switch node.value {
            case .dictionary(let members):
                if Set(members.map(\.keyText)).count != members.count { found.insert(.duplicateKey) }
                for member in members { walk(member.value) }
            case .array(let elements):
                for element in elements { walk(element) }
            default: break
            }
        }
        walk(top)
        guard case .dictionary(let members) = top.value else { return found }
        for member in members {
            switch member.keyText {
            case "applicationTokens", "categoryTokens", "webDomainTokens":
                guard case .array(let tokens) = member.value.value else { continue }
                for token in tokens {
                    guard case .dictionary(let fields) = token.value else { continue }
                    for field in fields where field.keyText == "data" {
                        if case .data(let d) = field.value.value, d.isEmpty || d.count > 1024 {
                            found.insert(.tokenSize)
                        }
                    }
                }
            default: break
            }
        }
        return found
    }
}
