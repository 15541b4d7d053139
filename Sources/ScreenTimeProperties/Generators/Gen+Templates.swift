import PropertyTesting

// Shield-text templates assembled from parts: literal text (with stray and malformed braces), placeholders with
// and without fallbacks, and values that are present, empty, null or absent.
//
// Keys always start with `K` and nothing else the generator writes (literals, fallbacks, values, malformed
// braces) contains a `K`, so a key's name in the output can only have leaked from a placeholder.

extension Alphabet {
    /// Text for literals, fallbacks and values: no `K`, no braces (braces come from the malformed pieces).
    public static let templateText = Alphabet(ranges: [
        0x61...0x7A, 0x20...0x20, 0x41...0x4A, 0x4C...0x5A, 0x30...0x39, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60,
        0x7C...0x7C, 0x7E...0x7E, 0xC0...0x24F, 0x4E00...0x4E20, 0x1F600...0x1F64F, 0x00...0x1F,
    ])
    /// Text for fallbacks: as `templateText`, `|` included, no braces.
    static let keyTail = Alphabet(ranges: [
        0x61...0x7A, 0x30...0x39, 0x5F...0x5F, 0x2E...0x2E, 0x2D...0x2D, 0x41...0x4A,
    ])
}

extension Gen where Value == TemplateCase {
    /// Keys `K`, `Ka`, `K_1.x-`, … from a small set so that keys repeat.
    public static var templateKey: Gen<String> {
        Gen<String>.oneOf(
            Gen<String>.element(of: ["Kapp", "Kname", "Ktime", "K"]),
            Gen<String>.string(.keyTail, length: 0...4).map { "K" + $0 })
    }

    /// Malformed brace text that must render literally (none holds a `K`).
    public static let malformedPieces = [
        "{", "}", "{}", "{|x}", "{asNumber:}", "{ app }", "{{", "}}", "{a", "{a|", "{a|b", "{|}", "{é}", "{a b}",
    ]

    public static var templateCase: Gen<TemplateCase> {
        let literal = Gen<TemplatePart>.frequency([
            (3, Gen<String>.string(.templateText, length: 1...8).map { TemplatePart.literal($0) }),
            (2, Gen<String>.element(of: malformedPieces).map { TemplatePart.literal($0) }),
        ])
        let placeholder = Gen<(String, String?)>.zip(
            templateKey,
            Gen<String>.string(.templateText, length: 0...6).map { $0 + "|" }.optional(probability: 0.5)
                .map { $0.map { String($0.dropLast()) } }
        ).map { TemplatePart.placeholder(key: $0.0, fallback: $0.1) }
        let part = Gen<TemplatePart>.oneOf(literal, placeholder)
        let value = Gen<String?>.frequency([
            (1, Gen<String?>.constant(nil)),
            (1, Gen<String?>.constant("")),
            (4, Gen<String>.string(.templateText, length: 1...8).map { Optional($0) }),
        ])
        return Gen<TemplateCase> { source in
            let parts = part.array(count: 0...8).generate(using: source)
            var values: [String: String?] = [:]
            var keys: [String] = []
            for case .placeholder(let key, _) in parts where !keys.contains(key) { keys.append(key) }
            for key in keys where Gen<Bool>.bool(probability: 0.6).generate(using: source) {
                values[key] = value.generate(using: source)
            }
            return TemplateCase(parts: parts, values: values)
        }
    }

    /// Templates whose literals hold no braces, with every key given a non-empty value that may itself look like
    /// a template (`{Kother}`, `{`, a key name): the output must be exactly literals and values, in order.
    public static var templateWithTemplateLikeValues: Gen<TemplateCase> {
        let literal = Gen<String>.string(.templateText, length: 1...6).map { TemplatePart.literal($0) }
        let placeholder = Gen<(String, String?)>.zip(
            templateKey, Gen<String>.string(.templateText, length: 0...4).optional()
        )
        .map { TemplatePart.placeholder(key: $0.0, fallback: $0.1) }
        let valuePiece = Gen<String>.oneOf(
            Gen<String>.string(.templateText, length: 1...4),
            templateKey.map { "{\($0)}" },
            templateKey.map { "{\($0)|fb}" },
            Gen<String>.element(of: malformedPieces),
            templateKey)
        return Gen<TemplateCase> { source in
            let parts = Gen<TemplatePart>.oneOf(literal, placeholder).array(count: 0...6).generate(using: source)
            var values: [String: String?] = [:]
            for case .placeholder(let key, _) in parts where values[key] == nil {
                values[key] = valuePiece.array(count: 1...3).generate(using: source).joined()
            }
            // A few unused keys whose values must not appear either.
            for key in ["Kunused", "Kother"]
            where Gen<Bool>.bool(probability: 0.3).generate(using: source) && values[key] == nil {
                values[key] = "{\(key)}"
            }
            return TemplateCase(parts: parts, values: values)
        }
    }
}
