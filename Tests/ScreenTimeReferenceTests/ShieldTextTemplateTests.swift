import PropertyTesting
import Testing

@testable import ScreenTimeReference

@Suite struct ShieldTextTemplateTests {
    private func render(_ template: String, _ values: [String: String?] = [:]) -> ShieldTextTemplate.Rendering {
        ShieldTextTemplate(template).render(values)
    }

    // MARK: Placeholders

    @Test func replacesPlaceholders() {
        let r = render("{applicationName} is blocked until {time}.", ["applicationName": "Mail", "time": "9:00"])
        #expect(r.text == "Mail is blocked until 9:00.")
        #expect(r.missing.isEmpty)
    }

    @Test func missingNullAndEmptyRenderTheFallback() {
        let template = "{applicationName|This app} is blocked"
        for values: [String: String?] in [[:], ["applicationName": nil], ["applicationName": ""]] {
            let r = render(template, values)
            #expect(r.text == "This app is blocked", "\(values)")
            #expect(r.missing == ["applicationName"], "\(values)")
        }
        #expect(render(template, ["applicationName": "Mail"]).text == "Mail is blocked")
    }

    @Test func missingWithoutFallbackRendersNothingAndNeverTheKey() {
        // Field bug 8: the key's own name must never reach the screen.
        for values: [String: String?] in [[:], ["applicationName": nil], ["applicationName": ""], ["other": "x"]] {
            let r = render("Blocked: {applicationName}.", values)
            #expect(r.text == "Blocked: .", "\(values)")
            #expect(!r.text.contains("applicationName"), "\(values)")
        }
    }

    @Test func spacesAreAValue() {
        #expect(render("[{a|fb}]", ["a": " "]).text == "[ ]")
    }

    @Test func fallbacksMayBeEmptyHoldBarsAndAnyUnicode() {
        #expect(render("[{a|}]").text == "[]")
        #expect(render("{a|b|c}").text == "b|c")
        #expect(render("{a|x:y, z!}").text == "x:y, z!")
        #expect(render("{name|この App}は制限中").text == "この Appは制限中")
        #expect(render("{name|التطبيق} محظور").text == "التطبيق محظور")
        #expect(render("{name|📱 e\u{301}}").text == "📱 e\u{301}")
        #expect(render("{name|\u{0}\n}").text == "\u{0}\n")
    }

    @Test func valuesMayBeAnyUnicode() {
        let values: [String: String?] = ["a": "日本語アプリ", "b": "👨‍👩‍👧‍👦", "c": "e\u{301}", "d": "\u{0}", "e": "العربية"]
        #expect(render("{a}|{b}|{c}|{d}|{e}", values).text == "日本語アプリ|👨‍👩‍👧‍👦|e\u{301}|\u{0}|العربية")
        // Templates in any script around placeholders, and combining marks right after one.
        #expect(render("«{a}»\u{301} ok", ["a": "x"]).text == "«x»\u{301} ok")
    }

    @Test func keysUseTheirWholeAlphabetAndAreCaseSensitive() {
        let values: [String: String?] = ["A-z_0.9": "v", "app": "lower"]
        #expect(render("{A-z_0.9}", values).text == "v")
        #expect(render("{App|F}", values).text == "F")
        #expect(render("{app}", values).text == "lower")
    }

    // MARK: One pass

    @Test func valuesAreNeverRescanned() {
        let values: [String: String?] = ["a": "{b}", "b": "B", "c": "{a|x}", "d": "{"]
        #expect(render("{a}", values).text == "{b}")
        #expect(render("{c}", values).text == "{a|x}")
        #expect(render("{d}b}", values).text == "{b}")
        #expect(render("{a}{b}", values).text == "{b}B")
        #expect(render("{b}{a}", values).text == "B{b}")
        // A value that looks like a placeholder of a missing key does not count it as missing.
        #expect(render("{a}", values).missing.isEmpty)
    }

    @Test func fallbacksAreNeverRescannedEither() {
        // A fallback has no braces, so it cannot hold a placeholder; what follows is scanned as template text.
        #expect(render("{a|{b}}", ["b": "B"]).text == "{a|B}")
    }

    // MARK: Malformed braces

    @Test(arguments: [
        ("{", "{"),
        ("}", "}"),
        ("{}", "{}"),
        ("{|x}", "{|x}"),
        ("{asNumber:}", "{asNumber:}"),
        ("{count, plural, one {# app} other {# apps}}", "{count, plural, one {# app} other {# apps}}"),
        ("{ a }", "{ a }"),
        ("{a b}", "{a b}"),
        ("{a", "{a"),
        ("{a|", "{a|"),
        ("{a|fallback", "{a|fallback"),
        ("a}", "a}"),
        ("}{", "}{"),
        ("{{", "{{"),
        ("}}", "}}"),
        ("{café}", "{café}"),
        ("{日本}", "{日本}"),
        ("{%s}", "{%s}"),
        ("{$0}", "{$0}"),
        ("{a:b}", "{a:b}"),
        ("{a\n}", "{a\n}"),
        ("{{{", "{{{"),
        ("{a|x{", "{a|x{"),
    ])
    func malformedBracesRenderLiterally(template: String, text: String) {
        let r = render(template, ["a": "A", "asNumber": "7", "count": "3", "café": "C"])
        #expect(r.text == text)
        #expect(r.missing.isEmpty)
    }

    @Test func nestedBracesAreLiteralAroundAnInnerPlaceholder() {
        // Leftmost scan: the outer braces are not a placeholder and stay; `{a}` inside is one.
        #expect(render("{{a}}", ["a": "Mail"]).text == "{Mail}")
        let missing = render("{{applicationName}}")
        #expect(missing.text == "{}")
        #expect(missing.missing == ["applicationName"])
        #expect(render("{x{a}}", ["a": "A"]).text == "{xA}")
        #expect(render("{a|x{b}}", ["b": "B"]).text == "{a|xB}")
        #expect(render("{a|x}b}", ["a": "A"]).text == "Ab}")
        #expect(render("{{a}|fb}", [:]).text == "{|fb}")
    }

    @Test func placeholderRightAfterAFailedOne() {
        // Resuming at the byte where an attempt failed must not skip a `{` there.
        #expect(render("{a{b}", ["b": "B"]).text == "{aB")
        #expect(render("{a|x{b}", ["b": "B"]).text == "{a|xB")
        #expect(render("{{{b}", ["b": "B"]).text == "{{B")
        #expect(render("{:{b}", ["b": "B"]).text == "{:B")
    }

    // MARK: Missing list

    @Test func missingListsKeysOnceInFirstAppearanceOrder() {
        let r = render("{z}{a|A}{m}{a}{z|Z}{b}{m}", ["b": "B", "m": ""])
        #expect(r.missing == ["z", "a", "m"])
        #expect(r.text == "AZB")
        #expect(ShieldTextTemplate("{z}{a|A}{m}{a}{z|Z}{b}{m}").keys == ["z", "a", "m", "b"])
    }

    @Test func manyKeysKeepFirstAppearanceOrderAndAreListedOnce() {
        // Past a few keys the parser finds known keys by hashing rather than a linear search: same answers.
        let names = (0..<40).map { "k\($0)" }
        let template = (names + names.reversed() + names).map { "{\($0)|-}" }.joined()
        let values = Dictionary(
            uniqueKeysWithValues: names.enumerated().filter { $0.offset % 3 == 0 }.map {
                ($0.element, String?.some("v\($0.offset)"))
            })
        let parsed = ShieldTextTemplate(template)
        #expect(parsed.keys == names)
        let r = parsed.render(values)
        #expect(r.missing == names.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
        let once = names.enumerated().map { $0.offset % 3 == 0 ? "v\($0.offset)" : "-" }
        #expect(r.text == (once + once.reversed() + once).joined())
    }

    @Test func keysWithValuesAreNotMissingAndExtraValuesAreIgnored() {
        let r = render("{a} {b}", ["a": "1", "b": "2", "unused": nil])
        #expect(r.missing.isEmpty)
        #expect(r.text == "1 2")
    }

    // MARK: Robustness and speed

    @Test func longPathologicalTemplatesRenderInLinearTime() {
        // Each would take minutes with a rescan from every `{` (quadratic); linear, each is milliseconds.
        let size = 1 << 19
        let templates = [
            String(repeating: "{", count: size) + "}",
            String(repeating: "{a|", count: size / 3) + "}",
            String(repeating: "{aaaaaaa", count: size / 8) + "}",
            "{" + String(repeating: "a", count: size),
            "{a|" + String(repeating: "x", count: size),
            String(repeating: "{a}", count: size / 3),
            // Distinct keys: finding a known key must not be a linear search.
            (0..<(size / 8)).map { "{k\($0)|x}" }.joined(),
        ]
        let clock = ContinuousClock()
        for template in templates {
            var rendering: ShieldTextTemplate.Rendering?
            let elapsed = clock.measure { rendering = ShieldTextTemplate(template).render(["a": "Ab"]) }
            #expect(elapsed < .seconds(5), "\(template.prefix(12))…: \(elapsed)")
            #expect(rendering?.text.isEmpty == false)
        }
        // A 64 KiB template with thousands of `{` of every shape.
        let mixed = String(repeating: "{a}{|x}{{b}}{c|fb}{asNumber:}{ ", count: 2200)
        let r = ShieldTextTemplate(mixed).render(["a": "A"])
        #expect(mixed.utf8.count > 64 * 1024)
        #expect(r.missing == ["b", "c"])
        #expect(String(r.text.prefix(23)) == "A{|x}{}fb{asNumber:}{ A")
    }

    /// A deliberately naive model of the rules, over unicode scalars: at each `{`, try to match
    /// `{key}` or `{key|fallback}` from there; on failure emit the `{` and move one scalar on.
    private static func model(_ template: String, _ values: [String: String?]) -> ShieldTextTemplate.Rendering {
        let s = Array(template.unicodeScalars)
        let isKey: (Unicode.Scalar) -> Bool = { c in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "." || c == "-")
        }
        var out = String.UnicodeScalarView()
        var missing: [String] = []
        var i = 0
        while i < s.count {
            if s[i] == "{" {
                var j = i + 1
                while j < s.count, isKey(s[j]) { j += 1 }
                let key = String(String.UnicodeScalarView(s[(i + 1)..<j]))
                var fallback: String? = nil
                var end: Int? = nil
                if j > i + 1, j < s.count {
                    if s[j] == "}" {
                        end = j
                    } else if s[j] == "|" {
                        var k = j + 1
                        while k < s.count, s[k] != "{", s[k] != "}" { k += 1 }
                        if k < s.count, s[k] == "}" {
                            fallback = String(String.UnicodeScalarView(s[(j + 1)..<k]))
                            end = k
                        }
                    }
                }
                if let end {
                    if let value = values[key] ?? nil, !value.isEmpty {
                        out.append(contentsOf: value.unicodeScalars)
                    } else {
                        if !missing.contains(key) { missing.append(key) }
                        out.append(contentsOf: (fallback ?? "").unicodeScalars)
                    }
                    i = end + 1
                    continue
                }
            }
            out.append(s[i])
            i += 1
        }
        return .init(text: String(out), missing: missing)
    }

    @Test func agreesWithANaiveModelOnRandomTemplates() {
        var rng = SplitMix64(seed: 8)
        let pieces = [
            "{", "}", "|", "a", "b", "ab", "c", ":", " ", "é", "日", "📱", "{a}", "{b|x}", "{a|", "\u{0}", "-", ".",
        ]
        let valueSets: [[String: String?]] = [
            [:], ["a": "A", "b": nil], ["a": "", "b": "{a}"], ["ab": "AB", "c": "é"],
        ]
        for _ in 0..<4000 {
            let template = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? ""
            }.joined()
            let values = valueSets.randomElement(using: &rng) ?? [:]
            #expect(
                ShieldTextTemplate(template).render(values) == Self.model(template, values),
                "\(template.debugDescription)")
        }
    }

    @Test func randomUnicodeTemplatesWithoutBracesAreUnchanged() {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<1000 {
            let text = randomUnicodeString(using: &rng, maxLength: 30)
            let r = render(text, ["a": "X"])
            if !text.contains("{") { #expect(r.text == text) }
        }
    }
}
