/// Escaping for the reports. Vector inputs and adapter output are hostile strings: they may hold markup,
/// control characters or terminal escape sequences.
public enum Escape {
    /// Replaces characters that must not reach a terminal, XML 1.0 or HTML: C0 controls (except tab and, when
    /// `keepNewlines`, LF and CR), DEL, C1 controls, U+FFFE and U+FFFF. Each becomes a visible `\u{…}`.
    ///
    /// - Parameters:
    ///   - s: Any text.
    ///   - keepNewlines: Whether LF and CR stay as they are.
    /// - Returns: The text with each such character escaped.
    public static func controls(_ s: String, keepNewlines: Bool = false) -> String {
        var needs = false
        for u in s.unicodeScalars where isBad(u, keepNewlines) {
            needs = true
            break
        }
        if !needs { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isBad(u, keepNewlines) {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    private static func isBad(_ u: Unicode.Scalar, _ keepNewlines: Bool) -> Bool {
        let v = u.value
        if v == 0x09 { return false }
        if v == 0x0A || v == 0x0D { return !keepNewlines }
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0xFFFE || v == 0xFFFF
    }

    /// Text for HTML element content or a quoted attribute value.
    ///
    /// - Parameters:
    ///   - s: Any text.
    ///   - keepNewlines: Whether LF and CR stay as they are.
    /// - Returns: The text escaped for HTML, controls made visible.
    public static func html(_ s: String, keepNewlines: Bool = true) -> String {
        markup(s, .html, keepNewlines: keepNewlines)
    }

    /// Text for XML 1.0 content or attributes; in attributes, newlines and tabs are written as character
    /// references so that attribute normalisation keeps them.
    ///
    /// - Parameters:
    ///   - s: Any text.
    ///   - attribute: Whether the text goes in an attribute value.
    /// - Returns: The text escaped for XML 1.0.
    public static func xml(_ s: String, attribute: Bool = false) -> String {
        markup(s, attribute ? .xmlAttribute : .xmlContent, keepNewlines: true)
    }

    private enum Markup {
        case html, xmlContent, xmlAttribute
    }

    /// The one escaper behind ``html(_:keepNewlines:)`` and ``xml(_:attribute:)``: ``controls(_:keepNewlines:)``,
    /// then the five markup characters as references (`'` as `&#39;` in HTML, `&apos;` in XML). In XML a CR is
    /// always a reference (a parser would turn it into LF), and in an attribute LF and tab are too.
    private static func markup(_ s: String, _ dialect: Markup, keepNewlines: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in controls(s, keepNewlines: keepNewlines).unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += dialect == .html ? "&#39;" : "&apos;"
            case "\n" where dialect == .xmlAttribute: out += "&#10;"
            case "\t" where dialect == .xmlAttribute: out += "&#9;"
            case "\r" where dialect != .html: out += "&#13;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// `text` cut to `limit` characters, saying how much was cut.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - limit: The most characters kept.
    /// - Returns: `text`, or its first `limit` characters and how many were cut.
    public static func truncated(_ text: String, _ limit: Int) -> String {
        Matcher.truncate(text, limit)
    }
}
