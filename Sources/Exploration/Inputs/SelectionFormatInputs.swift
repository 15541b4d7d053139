import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of `selection.decode` with a `format` (`SPEC.md` §1.1 … §1.3, §5.2) and of `selection.encode`: valid
/// selections written in every format (the reference's writing, other JSON texts of the same selection, documents
/// holding several selections at various paths), the same with one byte mutated, documents with one selection
/// corrupted, bad `data` and `base64` members, and unknown format names.
///
/// Every generator here only builds bytes (no decoding): the explorer makes thousands of cases a second.
enum SelectionFormatInputs {
    static let selections = Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 4)

    static let formats = SelectionFormat.allCases
    /// The formats of one selection (all but `json-document`).
    static let singleFormats = SelectionFormat.allCases.filter { $0 != .jsonDocument }

    /// Names that are not formats: other spellings, near misses, and a value of another type.
    static let unknownFormat = Gen<JSONValue>.element(of: [
        "JSON", "plist", "base64", "", "json_document", "binary_plist", "xml", "base64-json ", "bplist", "data",
        .number(1), .bool(true), .array([]),
    ])

    /// The input of `selection.decode` for `bytes` stored as `format`: `base64` text or `data` bytes.
    static func decodeInput(_ format: SelectionFormat, _ bytes: [UInt8]) -> JSONValue {
        var members: [String: JSONValue] = ["format": .string(format.rawValue)]
        if format.isBase64Text {
            members["base64"] = .string(SelectionInputs.text(bytes))
        } else {
            members["data"] = .string(Base64.encode(bytes))
        }
        return .object(members)
    }

    // MARK: - Stored values

    /// `selection` written in `format`; a selection the format cannot hold (XML and a forbidden character,
    /// `SPEC.md` §1.1) gives the empty stored value, itself a case worth sending.
    static func stored(_ selection: FamilyActivitySelection, _ format: SelectionFormat) -> [UInt8] {
        (try? selection.encoded(as: format)) ?? []
    }

    /// A valid stored value of `format` for `selection`: the reference's writing, or (for the JSON formats) any
    /// JSON text of it (other key orders, whitespace, escapes, duplicates, unknown members).
    static func valid(_ format: SelectionFormat, _ selection: FamilyActivitySelection) -> Gen<[UInt8]> {
        switch format {
        case .base64JSON:
            return Gen<Bool>.bool.flatMap { written in
                written
                    ? .constant(stored(selection, .base64JSON))
                    : Gen<SelectionJSONDocument>.document(of: selection).map { Array($0.base64.utf8) }
            }
        case .json:
            return Gen<Bool>.bool.flatMap { written in
                written
                    ? .constant(stored(selection, .json))
                    : Gen<SelectionJSONDocument>.document(of: selection).map(\.json)
            }
        case .jsonDocument:
            return document(containing: [selection])
        case .binaryPlist:
            return .constant(stored(selection, format))
        case .xmlPlist:
            return Gen<Int>.int(in: 0...2).map { variant in xmlVariant(stored(selection, .xmlPlist), variant) }
        case .base64Plist:
            // Base64 of either list: the reader tells them apart by `bplist00`.
            return Gen<Bool>.bool.map { binary in
                binary
                    ? stored(selection, .base64Plist)
                    : Base64.encodeToBytes(stored(selection, .xmlPlist))
            }
        }
    }

    /// An XML list written otherwise, as `SPEC.md` §1.2 allows: as written (0), indented with spaces instead of
    /// tabs (1), or without the declaration and DOCTYPE, starting at `<plist` (2).
    static func xmlVariant(_ xml: [UInt8], _ variant: Int) -> [UInt8] {
        switch variant {
        case 1: return xml.flatMap { $0 == 0x09 ? [0x20, 0x20] : [$0] }
        case 2:
            let plist = Array("<plist".utf8)
            guard let start = xml.indices.first(where: { xml[$0...].starts(with: plist) }) else { return xml }
            return Array(xml[start...])
        default: return xml
        }
    }

    /// `bytes` with one mutation: a byte replaced (by one that matters to some reader), inserted or deleted, a
    /// bit flipped, or the bytes cut short.
    static func mutated(_ bytes: [UInt8]) -> Gen<[UInt8]> {
        let interesting: [UInt8] = [0x00, 0x22, 0x2C, 0x2F, 0x3C, 0x3D, 0x41, 0x5C, 0x7B, 0x7D, 0x0A, 0x80, 0xFF, 0x0F]
        return Gen { source in
            guard !bytes.isEmpty else { return [0x7B] }
            var out = bytes
            let at = Gen<Int>.int(in: 0...(bytes.count - 1)).generate(using: source)
            switch Gen<Int>.int(in: 0...4).generate(using: source) {
            case 0: out[at] = Gen<UInt8>.element(of: interesting).generate(using: source)
            case 1: out.insert(Gen<UInt8>.element(of: interesting).generate(using: source), at: at)
            case 2: out.remove(at: at)
            case 3: out[at] ^= 1 << UInt8(Gen<Int>.int(in: 0...7).generate(using: source))
            default: out.removeSubrange(at...)
            }
            return out
        }
    }

    /// Stored values that field bugs leave behind (`SPEC.md` §7.10 … §7.12) and other tiny ones.
    static let placeholders = Gen<[UInt8]>.element(of: [
        [], Array("[]".utf8), Array("{}".utf8), Array("null".utf8), Array("\"\"".utf8), Array("bplist00".utf8),
        Array("<plist></plist>".utf8), Array("W10=".utf8),
    ])

    /// A valid stored value of `format`, or a near-valid or corrupted one.
    static func stored(_ format: SelectionFormat) -> Gen<[UInt8]> {
        let written = selections.flatMap { valid(format, $0) }
        return Gen<[UInt8]>.frequency([
            (5, written),
            (4, written.flatMap(mutated)),
            (1, placeholders),
        ])
    }

    // MARK: - Documents

    /// One selection's JSON in a document: a valid text of it, or (when `corrupt`) one with a bad token, a member
    /// of the wrong type or a repeated key: still JSON and still a selection, so only it fails.
    static func selectionText(_ selection: FamilyActivitySelection, corrupt: Bool) -> Gen<[UInt8]> {
        Gen<SelectionJSONDocument>.document(of: selection).flatMap { document in
            guard corrupt else { return .constant(document.json) }
            return Gen { source in
                var document = document
                let tokenKeys = ["applicationTokens", "categoryTokens", "webDomainTokens"]
                let key = Gen<String>.element(of: tokenKeys).generate(using: source)
                guard let i = document.keys.firstIndex(of: key) else { return document.json }
                switch Gen<Int>.int(in: 0...3).generate(using: source) {
                case 0:
                    let bad = Gen<String>.element(of: [
                        #"{"data":"QR=="}"#, #"{"data":""}"#, #"{"data":1}"#, #"{}"#, #""AAAA""#, #"{"data":"AA-_"}"#,
                    ]).generate(using: source)
                    document.values[i] = Array("[\(bad)]".utf8)
                case 1:
                    document.values[i] = Array(#"{"data":"AAAA"}"#.utf8)
                case 2:
                    document.keys.append("includeEntireCategory")
                    document.values.append(Array("1".utf8))
                    if let j = document.keys.firstIndex(of: "includeEntireCategory"), j < document.keys.count - 1 {
                        document.keys.remove(at: j)
                        document.values.remove(at: j)
                    }
                default:
                    document.keys.append(key)
                    document.values.append(Array("[]".utf8))
                }
                return document.json
            }
        }
    }

    /// Member names that need JSON Pointer escapes (`~0`, `~1`), or none.
    static let pathKeys = ["a/b", "~0", "x~y/z", "", "é", "profile", "0"]

    /// A document holding `texts` (the selections' JSON) at various places: profiles in a dictionary, an array,
    /// members with names a pointer must escape, or the top level itself when there is one selection.
    static func document(holding texts: [[UInt8]]) -> Gen<[UInt8]> {
        Gen { source in
            func joined(_ parts: [[UInt8]], _ open: String, _ close: String) -> [UInt8] {
                var out = Array(open.utf8)
                for (n, part) in parts.enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")) }
                    out += part
                }
                return out + Array(close.utf8)
            }
            func key(_ name: String) -> [UInt8] {
                var out: [UInt8] = []
                SelectionJSONDocument.writeString(name, SelectionJSONStyle(), into: &out)
                return out + [UInt8(ascii: ":")]
            }
            let shape = Gen<Int>.int(in: 0...(texts.count == 1 ? 3 : 2)).generate(using: source)
            switch shape {
            case 0:  // the profiles dictionary of `SPEC.md` §1.3
                let profiles = texts.enumerated().map { n, text in
                    key("P\(n)") + Array(#"{"name":"profile \#(n)","selectedActivity":"#.utf8) + text + [0x7D]
                }
                return Array(#"{"version":1,"profiles":"#.utf8) + joined(profiles, "{", "}") + [0x7D]
            case 1:
                return joined(texts, "[", "]")
            case 2:
                let names = Gen<String>.shuffled(pathKeys).generate(using: source)
                let members = texts.enumerated().map { n, text in key(names[n % names.count] + String(n)) + text }
                return joined(members, "{", "}")
            default:
                return texts[0]
            }
        }
    }

    /// A document holding each of `selections`, all valid.
    static func document(containing selections: [FamilyActivitySelection]) -> Gen<[UInt8]> {
        Gen { source in
            let texts = selections.map { selectionText($0, corrupt: false).generate(using: source) }
            return document(holding: texts).generate(using: source)
        }
    }

    /// Documents: valid ones with 0 to 4 selections, ones where a selection is corrupted (the others must still
    /// decode, `SPEC.md` §7.9), and ones mutated as a whole (a syntax error, or a key repeated outside the
    /// selections: the whole document's error).
    static let documents: Gen<[UInt8]> = Gen { source in
        let count = Gen<Int>.int(in: 0...4).generate(using: source)
        guard count > 0 else {
            return Gen<[UInt8]>.element(of: [
                Array(#"{"version":1,"profiles":{}}"#.utf8), Array("[]".utf8), Array("{}".utf8), Array("3".utf8),
            ]).generate(using: source)
        }
        let corrupted = Gen<Int>.int(in: -1...(count - 1)).generate(using: source)
        let texts = (0..<count).map { n in
            selectionText(selections.generate(using: source), corrupt: n == corrupted).generate(using: source)
        }
        let document = document(holding: texts).generate(using: source)
        switch Gen<Int>.int(in: 0...5).generate(using: source) {
        case 0: return mutated(document).generate(using: source)
        case 1:
            guard document.first == UInt8(ascii: "{") else { return document }
            return Array(#"{"version":1,"#.utf8) + document.dropFirst()
        default: return document
        }
    }

    // MARK: - selection.decode

    /// A stored value in any format, or a bad wire member: a `data` that is not canonical base64, the member of
    /// the other kind of format, a member of the wrong type, or an unknown format.
    static let decodeInput: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (
            6,
            Gen<SelectionFormat>.element(of: formats).flatMap { format in
                stored(format).map { decodeInput(format, $0) }
            }
        ),
        (3, documents.map { decodeInput(.jsonDocument, $0) }),
        (1, badMember),
        (1, unknownFormat.zip(selections).map { ["format": $0.0, "base64": .string($0.1.canonicalBase64)] }),
    ])

    /// A wire member that carries no stored value (`badInput` by `SPEC.md` §5.2), for a valid selection.
    static let badMember: Gen<JSONValue> = Gen<SelectionFormat>.element(of: formats).zip(selections).zip(
        Gen<Int>.int(in: 0...5)
    ).map { pair, how in
        let (format, selection) = pair
        guard case .object(var members) = decodeInput(format, stored(selection, format)) else { return .null }
        let member = format.isBase64Text ? "base64" : "data"
        let other = format.isBase64Text ? "data" : "base64"
        let text = members[member]?.stringValue ?? ""
        switch how {
        case 0: members[member] = nil
        case 1: members[member] = .number(1)
        case 2:
            members[other] = members[member]
            members[member] = nil
        case 3: members[member] = .string(text + "\n")
        case 4: members[member] = .string(String(text.filter { $0 != "=" }))
        default:
            members[member] = .string(String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }) + "=")
        }
        return .object(members)
    }

    /// The reference's reason for an error answer to a decode input: the wire problem, or the format's decoding
    /// error, named with the format (an implementation may fail one format only).
    static func decodeReason(_ input: JSONValue) -> String? {
        let reader = InputReader(input)
        let format: SelectionFormat
        do {
            format = try SelectionWire.format(reader)
        } catch {
            return "format is not a format name"
        }
        let stored: [UInt8]
        do {
            stored = try SelectionWire.storedValue(reader, format)
        } catch {
            let message = (error as? BadInput)?.message ?? "\(error)"
            return "\(format.rawValue): " + ExploredOperations.withoutNumbers(message)
        }
        do throws(SelectionDecodingError) {
            if format == .jsonDocument {
                _ = try SelectionDecoder.decodeDocument(stored)
            } else {
                _ = try SelectionDecoder.decode(stored, format: format)
            }
        } catch {
            let detail = SelectionInputs.withoutTokenPath(error.detail)
            return "\(format.rawValue): " + ExploredOperations.withoutNumbers(detail)
        }
        return nil
    }

    // MARK: - selection.encode

    /// A stored string to write (mostly valid, sometimes anything) and a format: every one, `json-document` and
    /// unknown names (both `badInput`), or none.
    static let encodeInput: Gen<JSONValue> = Gen<String>.frequency([
        (6, SelectionInputs.validText), (1, SelectionInputs.storedText),
    ]).zip(
        Gen<JSONValue?>.frequency([
            (8, Gen<SelectionFormat>.element(of: formats).map { .string($0.rawValue) }),
            (1, unknownFormat.map { Optional($0) }),
            (1, .constant(nil)),
        ])
    ).map { text, format in
        var members: [String: JSONValue] = ["selection": .string(text)]
        if let format { members["format"] = format }
        return .object(members)
    }

    /// The reference's reason for an error answer to an encode input: the stored string's decoding error, or why
    /// the format is refused.
    static func encodeReason(_ input: JSONValue) -> String? {
        if let text = input["selection"]?.stringValue {
            do throws(SelectionDecodingError) {
                _ = try SelectionDecoder.decode(Array(text.utf8))
            } catch {
                return ExploredOperations.withoutNumbers(SelectionInputs.withoutTokenPath(error.detail))
            }
        }
        guard let name = input["format"]?.stringValue else { return "format missing or not a string" }
        guard let format = SelectionFormat(rawValue: name) else { return "format is not a format name" }
        guard format != .jsonDocument, let text = input["selection"]?.stringValue,
            let selection = try? SelectionDecoder.decode(Array(text.utf8)).selection
        else { return "format \(name) not writable" }
        do throws(SelectionEncodingError) {
            _ = try selection.encoded(as: format)
            return nil
        } catch {
            // `unencodable`: which character, without its code point (one reason for all of them).
            return "\(name) cannot hold a character of an untokenized identifier"
        }
    }
}
