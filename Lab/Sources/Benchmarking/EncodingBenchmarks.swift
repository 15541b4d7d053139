import Foundation
import ScreenTimeReference

/// Inputs for the URL and template benchmarks, built in code.
public enum EncodingInputs {
    /// App and web names as they appear in deep links: mostly ASCII, with spaces and punctuation.
    public static let asciiNames: [String] = [
        "Mail", "Calendar", "Photos & Camera", "YouTube Kids", "Clash of Clans", "WhatsApp Messenger",
        "Microsoft Teams (work)", "Notes+", "Google Maps - Transit & Food", "Candy Crush Saga", "Duolingo",
        "Instagram", "TikTok", "Minecraft: Pocket Edition", "Among Us!", "Khan Academy Kids", "news.example.com",
        "Settings", "App Store", "Spotify: Music and Podcasts", "Roblox", "Zoom Workplace", "Safari", "Messages",
    ]

    /// Names with accents, CJK, Cyrillic and emoji.
    public static let nonASCIINames: [String] = [
        "Café Crème", "日本語アプリ", "Señor Frog's", "Ünïcödé Ärger", "📱 Phone", "Карты", "微信", "Ελληνικά",
        "العربية", "한국어 학습", "Straße & Weg", "Zoë's Diary 🎨", "Pokémon GO", "Ça va?", "मराठी", "ไทย",
    ]

    /// RFC 3986 unreserved characters, built explicitly (not `.urlQueryAllowed` and the like, which let more through).
    public static let unreserved: CharacterSet = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A 64 KiB shield template: placeholders with and without fallbacks, values that are present, missing,
    /// `nil` or empty, non-ASCII text, and malformed braces.
    public static let template: String = {
        let pieces = [
            "{applicationName|This app} is blocked until {time}. ",
            "Ask {parentName|a parent} for more time; ",
            "{{applicationName}} and {{oops} are literal-ish, { key } and {} too, {|x} and {asNumber:} as well. ",
            "Category: {categoryName|Games}, limit {limit|1 h}. ",
            "Unbalanced } and { braces, {a|x{b}} nested. ",
            "日本語のテキスト {name|名前} と絵文字 📱. ",
            "{missing}{missing|fallback with | bar}{empty|was empty} ",
        ]
        var bytes = 0
        var text = ""
        var i = 0
        while true {
            let piece = pieces[i % pieces.count]
            if bytes + piece.utf8.count > 65536 { break }
            text += piece
            bytes += piece.utf8.count
            i += 1
        }
        text += String(repeating: ".", count: 65536 - bytes)
        return text
    }()

    public static let templateValues: [String: String?] = [
        "applicationName": "Mail", "time": "17:00", "parentName": "Maman", "categoryName": nil, "limit": "30 min",
        "name": "日本語アプリ", "a": "A", "b": "B", "empty": "",
    ]
}

extension BenchSuite {
    /// URL component encoding: ours against `addingPercentEncoding` with the unreserved set (same output).
    func urlSection(into report: inout BenchReport) {
        let section = "URL component encoding"
        let unreserved = EncodingInputs.unreserved
        for (id, label, names) in [
            ("ascii", "ASCII-heavy names", EncodingInputs.asciiNames),
            ("nonASCII", "non-ASCII names", EncodingInputs.nonASCIINames),
        ] where selected("url." + id) {
            let bytes = names.reduce(0) { $0 + $1.utf8.count }
            let mismatches = names.filter {
                PercentEncoding.encodeComponent($0) != $0.addingPercentEncoding(withAllowedCharacters: unreserved)
            }
            if !mismatches.isEmpty {
                report.notes.append("url \(id): outputs differ from Foundation for \(mismatches.count) names")
            }
            let a = Workload(items: names.count, bytes: bytes) {
                var n = 0
                for name in names { n &+= PercentEncoding.encodeComponent(name).utf8.count }
                return n
            }
            let b = Workload(items: names.count, bytes: bytes) {
                var n = 0
                for name in names {
                    n &+= name.addingPercentEncoding(withAllowedCharacters: unreserved)?.utf8.count ?? 0
                }
                return n
            }
            let (ra, rb, ratio) = Timer.measurePaired(a, b, plan: plan)
            let per = bytes / names.count
            report.figures.append(
                Figure(
                    id: "url.\(id).ours", section: section, label: "ours        \(label) (\(names.count), ~\(per) B)",
                    unit: "names/s", itemsPerSecond: Stats(ra), bytesPerItem: per, repetitions: ra.count))
            report.figures.append(
                Figure(
                    id: "url.\(id).foundation", section: section, label: "Foundation  \(label)",
                    unit: "names/s", itemsPerSecond: Stats(rb), bytesPerItem: per, repetitions: rb.count))
            report.ratios.append(
                Ratio(id: "url.\(id)", section: section, label: "  ours / Foundation", value: Stats(ratio)))
        }
    }

    /// Shield template parsing and rendering of a 64 KiB template.
    func templateSection(into report: inout BenchReport) {
        let section = "shield template rendering (64 KiB template)"
        guard selected("template.render") else { return }
        let text = EncodingInputs.template
        let values = EncodingInputs.templateValues
        let bytes = text.utf8.count
        let parsed = ShieldTextTemplate(text)
        let parseAndRender = Workload(items: 1, bytes: bytes) {
            ShieldTextTemplate(text).render(values).text.utf8.count
        }
        let renderOnly = Workload(items: 1, bytes: bytes) { parsed.render(values).text.utf8.count }
        let r1 = Timer.measure(parseAndRender, plan: plan)
        let r2 = Timer.measure(renderOnly, plan: plan)
        report.figures.append(
            Figure(
                id: "template.parseAndRender", section: section,
                label: "parse + render (\(parsed.keys.count) keys)", unit: "renders/s",
                itemsPerSecond: Stats(r1), bytesPerItem: bytes, repetitions: r1.count))
        report.figures.append(
            Figure(
                id: "template.render", section: section, label: "render a parsed template",
                unit: "renders/s", itemsPerSecond: Stats(r2), bytesPerItem: bytes, repetitions: r2.count))
    }
}
