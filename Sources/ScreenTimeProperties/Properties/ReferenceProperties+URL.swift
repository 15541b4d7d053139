import PropertyTesting
import ScreenTimeReference

/// The URL component encoder and decoder a property checks (defaults to `PercentEncoding`).
public struct URLSubject: Sendable {
    public var encode: @Sendable (String) -> String
    public var decode: @Sendable (String) -> Result<String, PercentDecodingError>

    public init(
        encode: @escaping @Sendable (String) -> String = { PercentEncoding.encodeComponent($0) },
        decode: @escaping @Sendable (String) -> Result<String, PercentDecodingError> = { text in
            Result { () throws(PercentDecodingError) in try PercentEncoding.decodeComponent(text) }
        }
    ) {
        self.encode = encode
        self.decode = decode
    }

    public static let reference = URLSubject()
}

/// The template renderer a property checks (defaults to `ShieldTextTemplate`).
public struct TemplateSubject: Sendable {
    public var render: @Sendable (String, [String: String?]) -> ShieldTextTemplate.Rendering
    public init(
        render: @escaping @Sendable (String, [String: String?]) -> ShieldTextTemplate.Rendering = {
            ShieldTextTemplate($0).render($1)
        }
    ) {
        self.render = render
    }
    public static let reference = TemplateSubject()
}

/// An independent reading of the SPEC §4 template rules, used as the oracle: leftmost scan, a placeholder is
/// `{key}` or `{key|fallback}` with key bytes `A–Z a–z 0–9 _ . -` and a fallback without braces.
public enum TemplateModel {
    public enum Piece: Equatable {
        case text([UInt8])
        case slot(String, [UInt8]?)
    }

    public static func pieces(_ template: String) -> [Piece] {
        let b = Array(template.utf8)
        var out: [Piece] = []
        var text: [UInt8] = []
        var i = 0
        func isKey(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2E
                || c == 0x2D
        }
        while i < b.count {
            if b[i] == UInt8(ascii: "{") {
                var j = i + 1
                while j < b.count && isKey(b[j]) { j += 1 }
                if j > i + 1 && j < b.count {
                    let key = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                    if b[j] == UInt8(ascii: "}") {
                        out.append(.text(text))
                        text = []
                        out.append(.slot(key, nil))
                        i = j + 1
                        continue
                    }
                    if b[j] == UInt8(ascii: "|") {
                        var k = j + 1
                        while k < b.count && b[k] != UInt8(ascii: "{") && b[k] != UInt8(ascii: "}") { k += 1 }
                        if k < b.count && b[k] == UInt8(ascii: "}") {
                            out.append(.text(text))
                            text = []
                            out.append(.slot(key, Array(b[(j + 1)..<k])))
                            i = k + 1
                            continue
                        }
                    }
                }
            }
            text.append(b[i])
            i += 1
        }
        out.append(.text(text))
        return out
    }

    public static func render(_ template: String, _ values: [String: String?]) -> ShieldTextTemplate.Rendering {
        var out: [UInt8] = []
        var missing: [String] = []
        for piece in pieces(template) {
            switch piece {
            case .text(let t): out += t
            case .slot(let key, let fallback):
                if let v = values[key] ?? nil, !v.isEmpty {
                    out += Array(v.utf8)
                } else {
                    if !missing.contains(key) { missing.append(key) }
                    out += fallback ?? []
                }
            }
        }
        return .init(text: String(decoding: out, as: UTF8.self), missing: missing)
    }
}

extension ReferenceProperties {
    static func isUpperHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) }

    public static func urlRoundTrip(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.round-trip",
            summary: "decode(encode(s)) == s for app names from every script, emoji, controls and NUL (§4)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let encoded = subject.encode(name)
            switch subject.decode(encoded) {
            case .success(let back):
                return back == name ? nil : "encoded \(encoded), decoded \(String(reflecting: back))"
            case .failure(let error): return "encoded \(encoded), decoding failed: \(error)"
            }
        }
    }

    public static func urlOutputAlphabet(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.output-alphabet",
            summary:
                "the encoding holds only unreserved ASCII and %XX escapes; a space is %20, never + (§4, field bug 7)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let out = Array(subject.encode(name).utf8)
            var i = 0
            while i < out.count {
                if PercentEncoding.isUnreserved(out[i]) {
                    i += 1
                    continue
                }
                guard out[i] == UInt8(ascii: "%"), i + 2 < out.count, isUpperHex(out[i + 1]), isUpperHex(out[i + 2])
                else {
                    return
                        "byte \(out[i]) at \(i) of \(String(decoding: out, as: UTF8.self)) is neither unreserved nor a %XX escape"
                }
                i += 3
            }
            return nil
        }
    }

    public static func urlUppercaseHex(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.uppercase-hex",
            summary:
                "the encoding is byte by byte: unreserved kept, every other UTF-8 byte %XX in upper-case hex (§4, field bug 7)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let hex = Array("0123456789ABCDEF".utf8)
            var expected: [UInt8] = []
            for byte in name.utf8 {
                if PercentEncoding.isUnreserved(byte) {
                    expected.append(byte)
                } else {
                    expected += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
            }
            let got = subject.encode(name)
            return Array(got.utf8) == expected
                ? nil : "encoded \(got), expected \(String(decoding: expected, as: UTF8.self))"
        }
    }

    static var encodedish: Gen<String> {
        Gen<String>.oneOf(
            Gen<String>.string(Alphabet("%+AaFf09 zZ-._~!$&'()*,;=:@/?#[]\"é"), length: 0...12),
            Gen<String>.appName.map { PercentEncoding.encodeComponent($0) },
            Gen<(String, [UInt8])>.zip(Gen<String>.appName, Gen<[UInt8]>.bytes(count: 1...3)).map { (name, edits) in
                var b = Array(PercentEncoding.encodeComponent(name).utf8)
                for e in edits where !b.isEmpty {
                    b[Int(e) % b.count] =
                        [UInt8(ascii: "%"), UInt8(ascii: "G"), e & 0x7F, UInt8(ascii: "c")][Int(e) % 4]
                }
                return String(decoding: b, as: UTF8.self)
            },
            Gen<[UInt8]>.bytes(count: 0...6).map { PercentEncoding.encodeComponent(bytes: $0) }
        )
    }

    public static func urlDecodeTotal(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.decode-total",
            summary:
                "decoding any text gives a string or a typed error in range; `+` stays `+`; lower-case hex decodes alike (§4)",
            encodedish, describe: { String(reflecting: $0) }
        ) { text in
            switch subject.decode(text) {
            case .failure(let error):
                if error.offset < 0 || error.offset > text.utf8.count {
                    return "offset \(error.offset) outside 0…\(text.utf8.count)"
                }
                return nil
            case .success(let decoded):
                if decoded.filter({ $0 == "+" }).count < text.filter({ $0 == "+" }).count {
                    return "a + was decoded to something else: \(String(reflecting: decoded))"
                }
                guard case .success(let again) = subject.decode(subject.encode(decoded)), again == decoded else {
                    return "re-encoding the result does not round-trip"
                }
                let lowered = String(decoding: lowerHex(Array(text.utf8)), as: UTF8.self)
                guard case .success(let low) = subject.decode(lowered), low == decoded else {
                    return "lower-case hex \(lowered) decodes differently"
                }
                return nil
            }
        }
    }

    static func lowerHex(_ b: [UInt8]) -> [UInt8] {
        var out = b
        var i = 0
        while i + 2 < out.count + 0 && i < out.count {
            if out[i] == UInt8(ascii: "%"), i + 2 < out.count {
                for k in (i + 1)...(i + 2) where out[k] >= 0x41 && out[k] <= 0x46 { out[k] |= 0x20 }
                i += 3
            } else {
                i += 1
            }
        }
        return out
    }

    struct LinkCase: Sendable, CustomStringConvertible {
        var scheme: String
        var host: String
        var items: [(String, String?)]
        var description: String {
            "scheme \(scheme), host \(host), items \(items.map { "\(String(reflecting: $0.0))=\($0.1.map { String(reflecting: $0) } ?? "nil")" })"
        }
    }

    public static func deeplinkRoundTrip() -> Property {
        let gen = Gen<LinkCase> { source in
            let scheme = "m" + Gen<String>.string(Alphabet("abcXYZ019+-."), length: 0...5).generate(using: source)
            let host = Gen<String>.string(Alphabet("openABC09-._~"), length: 1...6).generate(using: source)
            let names = Gen<String>.oneOf(
                Gen<String>.element(of: ["app", "from", "category"]), Gen<String>.appName.filter { !$0.isEmpty })
            var items: [(String, String?)] = []
            for _ in 0..<Gen<Int>.int(in: 0...3).generate(using: source) {
                let name = names.generate(using: source)
                if items.contains(where: { $0.0 == name }) { continue }
                items.append((name, Gen<String>.appName.optional(probability: 0.8).generate(using: source)))
            }
            return LinkCase(scheme: scheme, host: host, items: items)
        }
        return Property(
            "deeplink.round-trip",
            summary:
                "parse(build(link)) gives back scheme (lower-cased), host and every non-nil item; nil items are left out (§4)",
            gen, describe: { $0.description }
        ) { c in
            let pairs = KeyValuePairs<String, String?>.init(dictionaryLiteral: ("", nil))
            _ = pairs
            let link: DeepLink
            do {
                link = try DeepLink(
                    scheme: c.scheme, host: c.host,
                    queryItems: c.items.reduce(into: KeyValuePairsBuilder()) { $0.append($1) }.pairs)
            } catch { return "builder refused: \(error)" }
            let text = link.absoluteString
            let parsed: DeepLink
            do { parsed = try DeepLink(parsing: text) } catch { return "\(text) does not parse: \(error)" }
            if parsed.scheme != c.scheme.lowercased() || parsed.host != c.host {
                return "\(text) parsed as \(parsed.scheme)://\(parsed.host)"
            }
            let expected = c.items.compactMap { item in item.1.map { DeepLink.QueryItem(name: item.0, value: $0) } }
            if parsed.queryItems != expected { return "\(text) parsed items \(parsed.queryItems)" }
            for (name, value) in c.items where parsed.value(forName: name) != value {
                return "value(forName: \(name)) = \(String(describing: parsed.value(forName: name)))"
            }
            return nil
        }
    }

    public static func templateNoLeak(_ subject: TemplateSubject = .reference) -> Property {
        Property(
            "template.no-leak", summary: "a key with no value never shows its name in the output (§4, field bug 8)",
            Gen<TemplateCase>.templateCase, describe: { $0.description }
        ) { c in
            let rendering = subject.render(c.template, c.values)
            // Nothing the generator writes but the keys holds a `K` (see Gen+Templates), so a `K` in the output
            // leaked from a placeholder. (Other missing keys, such as `a` in an accidental `{a}` made of two
            // literal pieces, may legitimately share letters with the literal text.)
            if rendering.text.contains("K") {
                let leaked = rendering.missing.filter { $0.hasPrefix("K") && rendering.text.contains($0) }
                return
                    "\(leaked.isEmpty ? "a key name" : "missing key \(leaked[0])") leaked into \(String(reflecting: rendering.text))"
            }
            return nil
        }
    }

    public static func templateNoRescan(_ subject: TemplateSubject = .reference) -> Property {
        Property(
            "template.no-rescan",
            summary: "values that look like templates are copied verbatim, never scanned again (§4)",
            Gen<TemplateCase>.templateWithTemplateLikeValues, describe: { $0.description }
        ) { c in
            var expected = ""
            for part in c.parts {
                switch part {
                case .literal(let text): expected += text
                case .placeholder(let key, _): expected += (c.values[key] ?? nil) ?? ""
                }
            }
            let got = subject.render(c.template, c.values)
            if got.text != expected {
                return "rendered \(String(reflecting: got.text)), expected \(String(reflecting: expected))"
            }
            if !got.missing.isEmpty { return "missing \(got.missing) though every key has a value" }
            return nil
        }
    }

    static var bracey: Gen<String> {
        Gen<String>.oneOf(
            Gen<String>.string(Alphabet("{}|ab.K_ -:é\u{0}"), length: 0...24),
            Gen<TemplateCase>.templateCase.map(\.template),
            Gen<String>.string(.unicode, length: 0...12))
    }

    public static func templateTotal(_ subject: TemplateSubject = .reference) -> Property {
        let gen = Gen<(String, [String: String?])>.zip(
            bracey,
            Gen<String>.element(of: ["a", "b", "K", "a.b", "K_1"]).dictionary(
                values: Gen<String>.string(Alphabet("x{}|a"), length: 0...3).optional(), count: 0...3))
        return Property(
            "template.total",
            summary:
                "any template renders (malformed braces literally) exactly as an independent one-pass reading of §4",
            gen, describe: { "template \(String(reflecting: $0.0)), values \($0.1)" }
        ) { (template, values) in
            let got = subject.render(template, values)
            let expected = TemplateModel.render(template, values)
            if got.text != expected.text {
                return "rendered \(String(reflecting: got.text)), expected \(String(reflecting: expected.text))"
            }
            if got.missing != expected.missing { return "missing \(got.missing), expected \(expected.missing)" }
            return nil
        }
    }

    public static func templateMissingListedOnce(_ subject: TemplateSubject = .reference) -> Property {
        Property(
            "template.missing-listed-once",
            summary: "missing lists each key without a value once, in order of first appearance (§4)",
            Gen<TemplateCase>.templateCase, describe: { $0.description }
        ) { c in
            let got = subject.render(c.template, c.values).missing
            if Set(got).count != got.count { return "missing \(got) repeats a key" }
            var expected: [String] = []
            for case .slot(let key, _) in TemplateModel.pieces(c.template) where !expected.contains(key) {
                if ((c.values[key] ?? nil) ?? "").isEmpty { expected.append(key) }
            }
            return got == expected ? nil : "missing \(got), expected \(expected)"
        }
    }

    static var encodingProperties: [Property] {
        [
            urlRoundTrip(), urlOutputAlphabet(), urlUppercaseHex(), urlDecodeTotal(), deeplinkRoundTrip(),
            templateNoLeak(), templateNoRescan(), templateTotal(), templateMissingListedOnce(),
        ]
    }
}

/// Builds `KeyValuePairs` from a runtime list (the type only has a literal initializer).
struct KeyValuePairsBuilder {
    var items: [(String, String?)] = []
    mutating func append(_ item: (String, String?)) { items.append(item) }
    var pairs: KeyValuePairs<String, String?> {
        // KeyValuePairs can only be made from a literal; build the common sizes explicitly.
        switch items.count {
        case 0: return [:]
        case 1: return [items[0].0: items[0].1]
        case 2: return [items[0].0: items[0].1, items[1].0: items[1].1]
        default: return [items[0].0: items[0].1, items[1].0: items[1].1, items[2].0: items[2].1]
        }
    }
}
