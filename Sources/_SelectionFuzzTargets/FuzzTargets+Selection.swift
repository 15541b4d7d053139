import ScreenTimeSelection
@_exported import _FuzzCore  // the shims of the selection targets import only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let selectionTargets = [selectionDecode, selectionJSON]

    /// `selection-decode`: any bytes as the stored string. Decoding is total; when it succeeds the canonical
    /// string is a fixed point, equality holds through it, counts and order are consistent, and the public
    /// equality of stored strings (`SelectionDecoder.sameSelection`) says the input equals its canonical string.
    ///
    /// `maxLength` 512: base64 of up to 384 JSON bytes, enough for the members and one short token, or the
    /// required members and one device-sized (128-byte) token; the JSON grammar itself is `selection-json`'s job.
    public static let selectionDecode = FuzzTarget(
        name: "selection-decode", summary: "any bytes as the stored base64 string: total decode, canonical fixed point",
        maxLength: 512,
        inPlace: { bytes in
            do throws(SelectionDecodingError) {
                let report = try SelectionDecoder.decode(bytes)
                if let failure = SelectionInvariants.check(report, layer: .base64) { return failure }
                // The direct canonical path of a stored array gives the same string as the decoded selection.
                if try SelectionDecoder.canonicalBase64(of: Array(bytes)) != report.selection.canonicalBase64 {
                    return HarnessFailure("canonicalBase64(of:) differs from the selection's canonical string")
                }
                return SelectionInvariants.equalsItsCanonicalString(Array(bytes), report.selection)
            } catch {
                return SelectionInvariants.check(error, inputLength: bytes.count, inJSONLength: nil)
            }
        })

    /// `selection-json`: any bytes as the JSON inside the base64, so the fuzzer explores the parser. The same
    /// invariants as `selection-decode`, with the fixed point taken on the canonical JSON.
    ///
    /// `maxLength` 512: all seven members and one device-sized token (about 410 bytes).
    public static let selectionJSON = FuzzTarget(
        name: "selection-json",
        summary: "any bytes as the selection JSON and as a JSON document: strict parse, schema, canonical fixed point",
        maxLength: 512,
        inPlace: { bytes in
            let direct = Result { () throws(SelectionDecodingError) in try SelectionDecoder.decodeJSON(bytes) }
            let failure: HarnessFailure?
            switch direct {
            case .success(let report):
                // The fixed point is checked on the JSON layer only: the base64 layer is `selection-decode`'s job,
                // and skipping it here leaves more executions per second for the parser.
                failure = SelectionInvariants.check(report, layer: .json)
            case .failure(let error):
                failure =
                    error.code < .json
                    ? HarnessFailure("decodeJSON reported a base64-level error", "\(error)")
                    : SelectionInvariants.check(error, inputLength: nil, inJSONLength: bytes.count)
            }
            return failure ?? DocumentInvariants.check(Array(bytes), direct)
        })
}

/// The invariants of `SPEC.md` §1 checked on one decode result.
public enum SelectionInvariants {
    /// Where the canonical fixed point is checked: on the stored base64 string, or on the JSON inside it.
    public enum Layer: Sendable { case base64, json }

    public static func check(_ report: SelectionDecoder.Report, layer: Layer) -> HarnessFailure? {
        let x = report.selection
        let fixedPointFailure: HarnessFailure?
        switch layer {
        case .base64:
            fixedPointFailure = fixedPoint(
                x, names: ("canonical string", "decode", "canonical"), form: \.canonicalBase64, show: { $0 },
                read: { (text: String) throws(SelectionDecodingError) in try FamilyActivitySelection(storedBase64: text)
                })
        case .json:
            fixedPointFailure = fixedPoint(
                x, names: ("canonical JSON", "decodeJSON", "canonicalJSON"), form: \.canonicalJSON,
                show: { String(decoding: $0, as: UTF8.self) },
                read: { (json: [UInt8]) throws(SelectionDecodingError) in
                    try SelectionDecoder.decodeJSON(json).selection
                })
        }
        if let fixedPointFailure { return fixedPointFailure }
        for kind in SelectionTokenKind.allCases {
            let written = report.writtenTokenCounts[kind] ?? -1
            if written < x.count(of: kind) {
                return HarnessFailure("fewer tokens written than decoded", "\(kind): \(written) < \(x.count(of: kind))")
            }
            let ordered = x.orderedTokenData(of: kind)
            if ordered.count != x.count(of: kind) {
                return HarnessFailure("stable order lost or added tokens", "\(kind)")
            }
            for (a, b) in zip(ordered, ordered.dropFirst()) where !a.utf8.lexicographicallyPrecedes(b.utf8) {
                return HarnessFailure("stable order is not strictly ascending", "\(kind): \(a) then \(b)")
            }
            let sizes = report.tokenByteCounts[kind] ?? []
            if let bad = sizes.first(where: { $0 < 1 || $0 > 1024 }) {
                return HarnessFailure("a token outside 1…1024 bytes was accepted", "\(kind): \(bad) bytes")
            }
        }
        if x.union(x).applicationTokens != x.applicationTokens || !x.subtracting(x).applicationTokens.isEmpty {
            return HarnessFailure("set algebra on a selection and itself is wrong")
        }
        let meet = x.intersection(x)
        let apart = x.symmetricDifference(x)
        if meet.applicationTokens != x.applicationTokens || meet.categoryTokens != x.categoryTokens
            || meet.webDomainTokens != x.webDomainTokens || !apart.applicationTokens.isEmpty
            || !apart.categoryTokens.isEmpty || !apart.webDomainTokens.isEmpty
        {
            return HarnessFailure("x ∩ x is not x, or x △ x is not empty, in the token sets")
        }
        for kind in SelectionTokenKind.allCases where report.duplicateCount(of: kind) < 0 {
            return HarnessFailure("a negative duplicate count", "\(kind): \(report.duplicateCount(of: kind))")
        }
        if let failure = checkTokens(x.orderedApplicationTokens) ?? checkTokens(x.orderedCategoryTokens)
            ?? checkTokens(x.orderedWebDomainTokens)
        {
            return failure
        }
        return checkConveniences(x)
    }

    /// Every decoded token is its bytes (`SPEC.md` §1): rebuilt from its `bytes` or read again from its `data` it is
    /// the same token and hashes alike; its `data` is the standard base64 of its bytes, both ways
    /// (`Base64.encode`, `encodeToBytes`, `decode`); `byteCount` is the bytes' length; the stable order is `<`.
    /// A token over 1024 bytes can be made from bytes (and hashes alike when made twice) but never read from its
    /// `data`.
    static func checkTokens<Kind: TokenKind>(_ ordered: [Token<Kind>]) -> HarnessFailure? {
        for (a, b) in zip(ordered, ordered.dropFirst()) where !(a < b) || b < a {
            return HarnessFailure("token < disagrees with the stable order", "\(a) then \(b)")
        }
        for token in ordered {
            let bytes = token.bytes
            let fromBytes = Token<Kind>(bytes: bytes)
            if fromBytes != token || fromBytes.hashValue != token.hashValue || Set([token, fromBytes]).count != 1 {
                return HarnessFailure("a token rebuilt from its bytes is another token", "\(token)")
            }
            do throws(SelectionDecodingError) {
                let fromData = try Token<Kind>(base64Data: token.data)
                if fromData != token || fromData.hashValue != token.hashValue {
                    return HarnessFailure("a token read from its data is another token", "\(token)")
                }
            } catch {
                return HarnessFailure("Token(base64Data:) rejects a decoded token's data", "\(token): \(error)")
            }
            if token.byteCount != bytes.count || bytes.isEmpty || bytes.count > Token<Kind>.maximumByteCount {
                return HarnessFailure("byteCount is not the token's length", "\(token): \(token.byteCount)")
            }
            let data = Array(token.data.utf8)
            if data.contains(where: { ($0 == UInt8(ascii: "=")) == Base64.isAlphabetCharacter($0) }) {
                return HarnessFailure("a token's data has a character outside the alphabet and padding", "\(token)")
            }
            if Base64.encode(bytes) != token.data || Base64.encode(bytes.lazy.map { $0 }) != token.data
                || Base64.encodeToBytes(bytes) != Array(token.data.utf8)
                || Base64.decode(Array(token.data.utf8)) != bytes
            {
                return HarnessFailure("base64 of the token's bytes is not its data", "\(token)")
            }
            if token.description != "\(Kind.kindName)Token(\(token.data))" {
                return HarnessFailure("token description", token.description)
            }
            let long = bytes + [UInt8](repeating: 0, count: Token<Kind>.maximumByteCount + 16 - bytes.count)
            let longToken = Token<Kind>(bytes: long)
            if longToken.byteCount != long.count || Token<Kind>(bytes: long) != longToken
                || Token<Kind>(bytes: long).hashValue != longToken.hashValue || longToken == token
            {
                return HarnessFailure("a token over 1024 bytes is not its bytes", "\(token) extended")
            }
            do throws(SelectionDecodingError) {
                _ = try Token<Kind>(base64Data: longToken.data)
                return HarnessFailure("Token(base64Data:) accepts over 1024 bytes", "\(token) extended")
            } catch {
                if error.code != .token { return HarnessFailure("over-1024-byte token data: wrong error", "\(error)") }
            }
        }
        return nil
    }

    /// The selection's conveniences agree with its token sets: `applications`, `categories` and `webDomains` hold
    /// one element per token, carrying it; the token initializer rebuilds the selection when it has no untokenized
    /// identifiers; `FamilyActivitySelection()` is empty and `includeEntireCategory` false.
    static func checkConveniences(_ x: FamilyActivitySelection) -> HarnessFailure? {
        if Set(x.applications.compactMap(\.token)) != x.applicationTokens
            || x.applications.count != x.count(of: .application)
            || Set(x.categories.compactMap(\.token)) != x.categoryTokens || x.categories.count != x.count(of: .category)
            || Set(x.webDomains.compactMap(\.token)) != x.webDomainTokens
            || x.webDomains.count != x.count(of: .webDomain)
        {
            return HarnessFailure("applications, categories or webDomains disagree with the token sets")
        }
        let rebuilt = FamilyActivitySelection(
            applicationTokens: x.applicationTokens, categoryTokens: x.categoryTokens,
            webDomainTokens: x.webDomainTokens,
            includeEntireCategory: x.includeEntireCategory)
        let untokenized =
            x.untokenizedApplicationIdentifiers.isEmpty && x.untokenizedCategoryIdentifiers.isEmpty
            && x.untokenizedWebDomainIdentifiers.isEmpty
        if untokenized != (rebuilt == x) {
            return HarnessFailure("the token initializer does not rebuild the selection", x.canonicalBase64)
        }
        let empty = FamilyActivitySelection()
        if empty.includeEntireCategory || empty.count(of: .application) != 0
            || empty != FamilyActivitySelection(includeEntireCategory: false)
        {
            return HarnessFailure("FamilyActivitySelection() is not empty")
        }
        return nil
    }

    /// A stored string and the canonical string of what it decodes to hold the same selection (`SPEC.md` §1:
    /// equality is of the sets, so of canonical strings), through the same function the `selection.equal`
    /// operation answers with.
    public static func equalsItsCanonicalString(_ stored: [UInt8], _ x: FamilyActivitySelection) -> HarnessFailure? {
        let canonical = Array(x.canonicalBase64.utf8)
        do throws(SelectionDecodingError) {
            if try SelectionDecoder.sameSelection(stored, canonical) { return nil }
            return HarnessFailure("a stored string is not equal to its own canonical string", x.canonicalBase64)
        } catch {
            return HarnessFailure("sameSelection rejects a string that decodes", "\(error)")
        }
    }

    /// The canonical form `form(x)` reads back as `x`, and writing that again gives the same form.
    static func fixedPoint<Form: Equatable>(
        _ x: FamilyActivitySelection, names: (form: String, read: String, write: String),
        form: (FamilyActivitySelection) -> Form, show: (Form) -> String,
        read: (Form) throws(SelectionDecodingError) -> FamilyActivitySelection
    ) -> HarnessFailure? {
        let canonical = form(x)
        let y: FamilyActivitySelection
        do {
            y = try read(canonical)
        } catch {
            return HarnessFailure("the \(names.form) does not decode", "\(error); canonical \(show(canonical))")
        }
        if y != x { return HarnessFailure("\(names.read)(\(names.write)(x)) != x", show(canonical)) }
        if form(y) != canonical {
            return HarnessFailure(
                "\(names.write)(\(names.read)(\(names.write)(x))) != \(names.write)(x)", show(canonical))
        }
        return nil
    }

    public static func check(_ error: SelectionDecodingError, inputLength: Int?, inJSONLength: Int?) -> HarnessFailure?
    {
        if error.offset < 0 { return HarnessFailure("negative error offset", "\(error)") }
        if !error.offsetIsInJSON, let inputLength, error.offset > max(inputLength, SelectionDecoder.maximumBase64Length)
        {
            return HarnessFailure("base64 error offset past the input", "\(error), input \(inputLength) bytes")
        }
        if error.offsetIsInJSON, let inJSONLength, error.offset > inJSONLength {
            return HarnessFailure("JSON error offset past the JSON", "\(error), JSON \(inJSONLength) bytes")
        }
        if error.detail.isEmpty { return HarnessFailure("error without a detail", "\(error.code)") }
        let layer = error.offsetIsInJSON ? "decoded JSON" : "base64 text"
        if error.description != "\(error.code.rawValue): \(error.detail) (at byte \(error.offset) of the \(layer))" {
            return HarnessFailure("an error's description does not name its code, detail and offset", "\(error)")
        }
        return nil
    }
}

/// `SPEC.md` §1.1 and §1.3 on the same bytes: the `json` format is `decodeJSON` with the size checks, and the
/// bytes read as a document find their selections, each read as `decodeJSON` reads its slice.
public enum DocumentInvariants {
    public static func check(
        _ bytes: [UInt8], _ direct: Result<SelectionDecoder.Report, SelectionDecodingError>
    ) -> HarnessFailure? {
        _ = SelectionFormat.detect(bytes)
        let asJSON = Result { () throws(SelectionDecodingError) in try SelectionDecoder.decode(bytes, format: .json) }
        switch (asJSON, direct) {
        case (.success(let a), .success(let b)):
            if a.selection != b.selection { return HarnessFailure("format json and decodeJSON read two selections") }
        case (.failure(let a), .failure(let b)):
            if a.code != b.code && !(a.code == .empty && b.code == .json) {
                return HarnessFailure("format json and decodeJSON fail differently", "\(a) vs \(b)")
            }
        default:
            if bytes.isEmpty, case .failure(let error) = asJSON, error.code == .empty { break }
            return HarnessFailure("format json and decodeJSON disagree on accepting", "\(asJSON) vs \(direct)")
        }
        let document = Result { () throws(SelectionDecodingError) in try SelectionDecoder.decodeDocument(bytes) }
        switch document {
        case .failure(let error):
            guard [.empty, .json, .schema].contains(error.code), (0...bytes.count).contains(error.offset) else {
                return HarnessFailure("a document error of another code or outside the input", "\(error)")
            }
            // A syntax error is the document's and the selection's alike: both read every byte of it.
            if error.code == .json, case .failure(let direct) = direct, direct.code != .json {
                return HarnessFailure("the document is not JSON but decodeJSON found no JSON error", "\(direct)")
            }
            if case .success = direct { return HarnessFailure("a valid top-level selection failed as a document") }
        case .success(let entries):
            var end = 0
            var paths: Set<String> = []
            for entry in entries {
                guard entry.range.lowerBound >= end, entry.range.upperBound <= bytes.count else {
                    return HarnessFailure("selections overlap or lie outside the document", "\(entry.range)")
                }
                end = entry.range.upperBound
                guard paths.insert(entry.path).inserted, entry.path.isEmpty || entry.path.hasPrefix("/") else {
                    return HarnessFailure("a path is repeated or not a JSON Pointer", entry.path)
                }
                let alone = Result { () throws(SelectionDecodingError) in
                    try SelectionDecoder.decodeJSON(Array(bytes[entry.range]))
                }
                switch (entry.result, alone) {
                case (.success(let a), .success(let b)) where a.selection == b.selection: break
                case (.failure(let a), .failure(let b))
                where a.code == b.code && a.offset == b.offset + entry.range.lowerBound: break
                default: return HarnessFailure("a selection of the document reads otherwise alone", entry.path)
                }
            }
            if case .success(let report) = direct {
                guard entries.count == 1, entries[0].path.isEmpty,
                    (try? entries[0].result.get().selection) == report.selection
                else { return HarnessFailure("a top-level selection is not the document's one selection at \"\"") }
            }
        }
        return nil
    }
}
