import PropertyTesting
import ScreenTimeReference

// Selections in the storage formats of `SPEC.md` §1.1 … §1.3: a selection with a format to write it in, JSON
// documents holding several selections with one of them corrupted, and JSON texts (valid or one mutation away)
// to read both as `json` and as `base64-json`.

/// A selection and a single-selection format to write it in.
public struct SelectionInFormat: Sendable, CustomStringConvertible {
    public var selection: FamilyActivitySelection
    public var format: SelectionFormat
    public var description: String { "\(format.rawValue): \(SelectionDescription.describe(selection))" }
}

/// A JSON document holding `selections` at fixed places, written twice: as is (`valid`), and with the selection
/// at `corrupted` replaced by a text that is still JSON and still a selection but fails `schema` or `token`.
public struct SelectionDocumentCase: Sendable, CustomStringConvertible {
    public var selections: [FamilyActivitySelection]
    public var corrupted: Int
    public var valid: [UInt8]
    public var withOneBad: [UInt8]
    public var description: String {
        "\(selections.count) selection(s), #\(corrupted) corrupted: "
            + String(decoding: withOneBad.prefix(400), as: UTF8.self)
    }
}

extension Gen where Value == SelectionInFormat {
    /// Any selection in one of `formats` (by default every format of one selection: all but `json-document`).
    public static func selectionInFormat(
        universe: Int = 8, formats: [SelectionFormat] = SelectionFormat.allCases.filter { $0 != .jsonDocument }
    ) -> Gen<SelectionInFormat> {
        return Gen<FamilyActivitySelection>.selection(universe: universe, maxTokens: 4).zip(
            Gen<SelectionFormat>.element(of: formats)
        ).map { SelectionInFormat(selection: $0.0, format: $0.1) }
    }
}

extension Gen where Value == SelectionDocumentCase {
    /// Documents of 1 to 4 selections: a profiles dictionary, an array, or members whose names a JSON Pointer
    /// escapes (`~`, `/`); one selection corrupted by a bad token, a token array of the wrong type, a mistyped
    /// `includeEntireCategory` or a repeated key.
    public static func selectionDocumentCase(universe: Int = 8) -> Gen<SelectionDocumentCase> {
        Gen { source in
            let count = Gen<Int>.int(in: 1...4).generate(using: source)
            let selections = Gen<FamilyActivitySelection>.selection(universe: universe, maxTokens: 3).array(
                count: count
            ).generate(using: source)
            let corrupted = Gen<Int>.int(in: 0...(count - 1)).generate(using: source)
            let texts = selections.map { Gen<SelectionJSONDocument>.document(of: $0).generate(using: source) }
            let bad = corrupt(texts[corrupted], source)
            let shape = Gen<Int>.int(in: 0...2).generate(using: source)
            func write(_ parts: [[UInt8]]) -> [UInt8] {
                var out: [UInt8] = []
                func key(_ name: String) {
                    SelectionJSONDocument.writeString(name, SelectionJSONStyle(), into: &out)
                    out.append(UInt8(ascii: ":"))
                }
                let names = ["a/b", "~0", "x~y/z", "profile"]
                switch shape {
                case 0: out += Array(#"{"version":1,"profiles":{"#.utf8)
                case 1: out.append(UInt8(ascii: "["))
                default: out.append(UInt8(ascii: "{"))
                }
                for (n, part) in parts.enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")) }
                    switch shape {
                    case 0:
                        key("P\(n)")
                        out += Array(#"{"name":"profile","selectedActivity":"#.utf8) + part + [UInt8(ascii: "}")]
                    case 1: out += part
                    default:
                        key(names[n % names.count] + String(n))
                        out += part
                    }
                }
                switch shape {
                case 0: out += Array("}}".utf8)
                case 1: out.append(UInt8(ascii: "]"))
                default: out.append(UInt8(ascii: "}"))
                }
                return out
            }
            var withOneBad = texts.map(\.json)
            withOneBad[corrupted] = bad
            return SelectionDocumentCase(
                selections: selections, corrupted: corrupted, valid: write(texts.map(\.json)),
                withOneBad: write(withOneBad))
        }
    }

    /// `document`'s JSON with one fault that leaves it JSON and a selection: the selection's own error.
    static func corrupt(_ document: SelectionJSONDocument, _ source: ChoiceSource) -> [UInt8] {
        var document = document
        let key = Gen<String>.element(of: ["applicationTokens", "categoryTokens", "webDomainTokens"]).generate(
            using: source)
        guard let i = document.keys.firstIndex(of: key) else { return document.json }
        switch Gen<Int>.int(in: 0...3).generate(using: source) {
        case 0:
            let bad = Gen<String>.element(of: [#"{"data":"QR=="}"#, #"{"data":""}"#, #"{"data":1}"#, #""AAAA""#])
                .generate(using: source)
            document.values[i] = Array("[\(bad)]".utf8)
        case 1:
            document.values[i] = Array(#"{"data":"AAAA"}"#.utf8)
        case 2:
            if let j = document.keys.firstIndex(of: "includeEntireCategory") {
                document.values[j] = Array("null".utf8)
            } else {
                document.keys.append("includeEntireCategory")
                document.values.append(Array("1".utf8))
            }
        default:
            document.keys.append(key)
            document.values.append(Array("[]".utf8))
        }
        return document.json
    }
}

extension Gen where Value == [UInt8] {
    /// JSON texts of selections (any of their texts) and near-valid ones (one mutation away: a dropped member, a
    /// bad token, truncated or trailing JSON, …), as bytes: what `json` reads, and base64 of what `base64-json`
    /// reads.
    public static var selectionJSONText: Gen<[UInt8]> {
        Gen<[UInt8]>.frequency([
            (
                1,
                Gen<FamilyActivitySelection>.selection(universe: 8, maxTokens: 4).flatMap {
                    Gen<SelectionJSONDocument>.document(of: $0).map(\.json)
                }
            ),
            (1, Gen<NearValidSelection>.nearValidSelection().map { Base64.decode(Array($0.stored.utf8)) ?? [] }),
        ])
    }
}
