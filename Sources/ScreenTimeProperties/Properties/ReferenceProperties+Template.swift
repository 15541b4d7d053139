import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
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

    static var templateProperties: [Property] {
        [templateNoLeak(), templateNoRescan(), templateTotal(), templateMissingListedOnce()]
    }
}
