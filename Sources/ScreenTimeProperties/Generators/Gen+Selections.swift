import PropertyTesting
import ScreenTimeReference

// Selections, the many JSON texts that encode the same selection, and near-valid stored strings (one mutation
// away from valid, each with the error code `SPEC.md` §1 requires).

extension Gen where Value == FamilyActivitySelection {
    /// Selections whose tokens come from `Gen.tokenBytes(universe:)` (collisions between operands are common);
    /// `untokenized` adds the rarely seen untokenized identifiers.
    public static func selection(universe: Int = 12, maxTokens: Int = 6, untokenized: Bool = true) -> Gen<
        FamilyActivitySelection
    > {
        let bytes = Gen<[UInt8]>.tokenBytes(universe: universe).array(count: 0...maxTokens)
        let identifiers = Gen<String>.oneOf(
            Gen<String>.string(.alphanumeric, length: 0...6).map { "com.example." + $0 },
            Gen<String>.appName
        ).array(count: 0...3).optional(probability: 0.2).map { names in
            Set((names ?? []).map { UntokenizedIdentifier($0) })
        }
        return Gen { source in
            var selection = FamilyActivitySelection(includeEntireCategory: Gen<Bool>.bool.generate(using: source))
            selection.applicationTokens = Set(bytes.generate(using: source).map { ApplicationToken(bytes: $0) })
            selection.categoryTokens = Set(bytes.generate(using: source).map { ActivityCategoryToken(bytes: $0) })
            selection.webDomainTokens = Set(bytes.generate(using: source).map { WebDomainToken(bytes: $0) })
            if untokenized {
                selection.untokenizedApplicationIdentifiers = identifiers.generate(using: source)
                selection.untokenizedCategoryIdentifiers = identifiers.generate(using: source)
                selection.untokenizedWebDomainIdentifiers = identifiers.generate(using: source)
            }
            return selection
        }
    }
}

extension Gen where Value == SelectionJSONStyle {
    /// Styles, the compact one first.
    public static var selectionJSONStyle: Gen<SelectionJSONStyle> {
        Gen { source in
            var style = SelectionJSONStyle()
            style.whitespace = Gen<String>.element(of: ["", "", " ", "\n", "\t", "\r\n  "]).generate(using: source)
            style.escapeSlashes = !Gen<Bool>.bool(probability: 0.3).generate(using: source)
            style.asciiOnly = Gen<Bool>.bool(probability: 0.2).generate(using: source)
            style.omitOptional = Gen<Bool>.bool(probability: 0.3).generate(using: source)
            style.unknownMembers = Gen<Int>.int(in: 0...2).generate(using: source)
            style.tokenExtraMember = Gen<Bool>.bool(probability: 0.1).generate(using: source)
            return style
        }
    }
}

extension Gen where Value == SelectionJSONDocument {
    /// Any JSON text of `selection`: members in any order, token arrays in any order with duplicates, any style.
    /// Every one of them decodes to `selection`.
    public static func document(of selection: FamilyActivitySelection) -> Gen<SelectionJSONDocument> {
        Gen { source in
            let style = Gen<SelectionJSONStyle>.selectionJSONStyle.generate(using: source)
            func tokens(_ data: [String]) -> [UInt8] {
                var written = Gen<String>.shuffled(data).generate(using: source)
                if !written.isEmpty, Gen<Bool>.bool(probability: 0.3).generate(using: source) {
                    let duplicate = written[Int(Gen<Int>.int(in: 0...(written.count - 1)).generate(using: source))]
                    let at = Gen<Int>.int(in: 0...written.count).generate(using: source)
                    written.insert(duplicate, at: at)
                }
                return SelectionJSONDocument.array(written.map { SelectionJSONDocument.tokenObject($0, style) }, style)
            }
            func strings(_ set: Set<UntokenizedIdentifier>) -> [UInt8] {
                let sorted = set.sorted().map(\.value)
                let written = Gen<String>.shuffled(sorted).generate(using: source)
                return SelectionJSONDocument.array(
                    written.map { SelectionJSONDocument.stringLiteral($0, style) }, style)
            }
            var members: [(String, [UInt8])] = [
                ("applicationTokens", tokens(selection.orderedTokenData(of: .application))),
                ("categoryTokens", tokens(selection.orderedTokenData(of: .category))),
                ("webDomainTokens", tokens(selection.orderedTokenData(of: .webDomain))),
            ]
            if !(style.omitOptional && !selection.includeEntireCategory) {
                members.append(
                    ("includeEntireCategory", Array((selection.includeEntireCategory ? "true" : "false").utf8)))
            }
            for (key, set) in [
                ("untokenizedApplicationIdentifiers", selection.untokenizedApplicationIdentifiers),
                ("untokenizedCategoryIdentifiers", selection.untokenizedCategoryIdentifiers),
                ("untokenizedWebDomainIdentifiers", selection.untokenizedWebDomainIdentifiers),
            ] where !(style.omitOptional && set.isEmpty) {
                members.append((key, strings(set)))
            }
            let unknownValues: [String] = [
                #"1"#, #""x""#, #"null"#, #"[{"data":5}]"#, #"{"a":[true,false]}"#, #"-0.5e3"#,
            ]
            for n in 0..<style.unknownMembers {
                let value = Gen<String>.element(of: unknownValues).generate(using: source)
                members.append(("extra\(n)", Array(value.utf8)))
            }
            let ordered = Gen<(String, [UInt8])>.shuffled(members).generate(using: source)
            return SelectionJSONDocument(keys: ordered.map(\.0), values: ordered.map(\.1), style: style)
        }
    }
}

extension Gen where Value == EncodedSelection {
    public static func encodedSelection(universe: Int = 12) -> Gen<EncodedSelection> {
        Gen<FamilyActivitySelection>.selection(universe: universe).flatMap { selection in
            Gen<SelectionJSONDocument>.document(of: selection).map {
                EncodedSelection(selection: selection, document: $0)
            }
        }
    }
}

// MARK: - Near-valid stored strings

extension Gen where Value == NearValidSelection {
    /// Near-valid stored strings: a dropped token array, a member of the wrong type, a bad token, a repeated key,
    /// a stray byte or a dropped character in the base64, truncated or trailing JSON, a top level that is not an
    /// object, and the empty string.
    public static func nearValidSelection(universe: Int = 8) -> Gen<NearValidSelection> {
        Gen<FamilyActivitySelection>.selection(universe: universe, maxTokens: 3).flatMap { selection in
            Gen<SelectionJSONDocument>.document(of: selection).flatMap { document in
                Gen { source in mutate(document, source) }
            }
        }
    }

    static let tokenKeys = ["applicationTokens", "categoryTokens", "webDomainTokens"]
    static let untokenizedKeys = [
        "untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers",
    ]

    static func mutate(_ original: SelectionJSONDocument, _ source: ChoiceSource) -> NearValidSelection {
        var doc = original
        func pick<T: Sendable>(_ items: [T]) -> T { Gen<T>.element(of: items).generate(using: source) }
        func index(_ count: Int) -> Int { count <= 1 ? 0 : Gen<Int>.int(in: 0...(count - 1)).generate(using: source) }
        func make(_ stored: String, _ code: SelectionDecodingError.Code, _ what: String) -> NearValidSelection {
            NearValidSelection(stored: stored, expected: code, mutation: what)
        }
        switch Gen<Int>.int(in: 0...9).generate(using: source) {
        case 0:  // a required token array dropped
            let key = pick(tokenKeys)
            if let i = doc.keys.firstIndex(of: key) {
                doc.keys.remove(at: i)
                doc.values.remove(at: i)
            }
            return make(doc.base64, .schema, "dropped \(key)")
        case 1:  // a member of the wrong type
            let present = doc.keys.filter { !$0.hasPrefix("extra") }
            let key = present.isEmpty ? "applicationTokens" : present[index(present.count)]
            let replacement: String
            if tokenKeys.contains(key) {
                replacement = pick([#"{}"#, #""AAAA""#, "1", "null", "true"])
            } else if key == "includeEntireCategory" {
                replacement = pick(["1", #""true""#, "null", "[]", "0"])
            } else {
                replacement = pick([#""x""#, "{}", "null", "[1]", "[null]", #"["a",2]"#, "[[]]"])
            }
            if let i = doc.keys.firstIndex(of: key) { doc.values[i] = Array(replacement.utf8) }
            return make(doc.base64, .schema, "\(key) set to \(replacement)")
        case 2:  // a bad token in a token array
            let key = pick(tokenKeys)
            let bad = pick([
                #""AAAA""#, "{}", #"{"data":1}"#, #"{"data":""}"#, #"{"data":"QR=="}"#, #"{"data":"A"}"#,
                #"{"data":"AA AA"}"#, #"{"data":"AA-_"}"#, #"{"data":null}"#, #"{"Data":"AAAA"}"#, "null", "[]",
                #"{"data":"\#(String(repeating: "A", count: 1368))"}"#,
            ])
            if let i = doc.keys.firstIndex(of: key) {
                var inner = doc.values[i]
                // Insert after "[" so the array stays well formed: "[bad" + (empty ? "" : ",") + rest.
                let isEmpty = inner.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == Array("[]".utf8)
                inner =
                    [UInt8(ascii: "[")] + Array(bad.utf8)
                    + (isEmpty ? [UInt8(ascii: "]")] : [UInt8(ascii: ",")] + inner.dropFirst())
                doc.values[i] = inner
            }
            let shown = bad.count > 40 ? String(bad.prefix(20)) + "…(over 1024 bytes)" : bad
            return make(doc.base64, .token, "bad token \(shown) in \(key)")
        case 3:  // a repeated key (top level, or "data" inside a token)
            if Gen<Bool>.bool.generate(using: source) || doc.keys.isEmpty {
                let key = pick(tokenKeys)
                doc.keys.append(key)
                doc.values.append(Array("[]".utf8))
                return make(doc.base64, .schema, "repeated key \(key)")
            }
            let i = index(doc.keys.count)
            doc.keys.insert(doc.keys[i], at: i)
            doc.values.insert(doc.values[i], at: i)
            return make(doc.base64, .schema, "repeated key \(doc.keys[i])")
        case 4:  // a stray byte in the base64
            var bytes = Array(doc.base64.utf8)
            let stray = pick([" ", "\n", "-", "_", "*", "\0", "\u{C3}", ".", "\r", "%"].map { Array($0.utf8) })
            let at = Gen<Int>.int(in: 0...bytes.count).generate(using: source)
            bytes.insert(contentsOf: stray, at: at)
            return make(String(decoding: bytes, as: UTF8.self), .base64, "stray byte \(stray) at \(at) of the base64")
        case 5:  // a character dropped from the base64 (length no longer a multiple of 4)
            var bytes = Array(doc.base64.utf8)
            bytes.remove(at: index(bytes.count))
            return make(String(decoding: bytes, as: UTF8.self), .base64, "one base64 character dropped")
        case 6:  // truncated JSON
            let json = doc.json
            let cut = Gen<Int>.int(in: 1...Swift.max(1, json.count - 1)).generate(using: source)
            return make(Base64.encode(json.prefix(cut)), .json, "JSON truncated to \(cut) of \(json.count) bytes")
        case 7:  // trailing garbage after the JSON
            let tail = pick(["x", "}", ",", "{}", "0", "\"\""])
            return make(Base64.encode(doc.json + Array(tail.utf8)), .json, "trailing \(tail) after the JSON")
        case 8:  // top level not an object
            let wrapped = pick(["[", "[1,"])
            return make(
                Base64.encode(Array(wrapped.utf8) + doc.json + [UInt8(ascii: "]")]), .schema,
                "top level wrapped in an array")
        default:
            return make("", .empty, "the empty string")
        }
    }
}
