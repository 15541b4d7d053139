import PropertyTesting

// App display names as they reach a deep link or a shield text: any script, emoji sequences, combining marks,
// bidi and zero-width controls, C0 controls and NUL, the BOM, U+FFFD and the last scalar.

extension Alphabet {
    /// Letters of many scripts, in shrink order (ASCII letters first).
    public static let scripts = Alphabet(ranges: [
        0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x20...0x20,  // ASCII letters, digits, space
        0xC0...0x17F,  // Latin-1 and Latin Extended-A (é, ß, ł)
        0x370...0x3FF, 0x400...0x4FF,  // Greek, Cyrillic
        0x5D0...0x5EA, 0x620...0x64A,  // Hebrew, Arabic (right to left)
        0x900...0x97F, 0xE00...0xE5B,  // Devanagari, Thai
        0x3040...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,  // kana, CJK, Hangul
    ])
    /// Punctuation, symbols and the characters URLs and templates care about.
    public static let nameSymbols = Alphabet("&+%=?#/:@!$'()*,;[]{}|\\\"<>^`~-._ ")
    /// Troublemakers: controls, NUL, DEL, C1, bidi and zero-width controls, BOM, U+FFFD, private use, U+10FFFF.
    public static let troublemakers = Alphabet(ranges: [
        0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF...0xFEFF,
        0xFFFD...0xFFFD, 0xE000...0xE000, 0x10FFFF...0x10FFFF,
    ])
}

extension Gen where Value == String {
    /// Multi-scalar sequences that must survive as a whole: emoji ZWJ families, flags, skin tones, keycaps,
    /// combining marks, Hangul jamo, a CRLF.
    public static let graphemeSequences: [String] = [
        "e\u{301}", "👨‍👩‍👧‍👦", "🇯🇵", "🇺🇦", "👍🏽", "1️⃣", "🏳️‍🌈", "\u{1100}\u{1161}\u{11A8}", "\r\n", "Z\u{335}\u{30D}\u{353}",
        "ﷺ", "𝔘𝔫𝔦", "🧑🏿‍💻",
    ]

    /// One piece of a name: a run of script letters, a symbol run, a troublemaker, an emoji or a sequence.
    public static var appNamePiece: Gen<String> {
        Gen<String>.frequency([
            (6, Gen<String>.string(.scripts, length: 1...6)),
            (2, Gen<String>.string(.nameSymbols, length: 1...3)),
            (2, Gen<String>.string(.troublemakers, length: 1...2)),
            (2, Gen<String>.element(of: graphemeSequences)),
            (1, Gen<String>.string(.unicode, length: 1...3)),
        ])
    }

    /// App display names from every script; the empty name first (shrinks toward "" and ASCII).
    public static var appName: Gen<String> {
        appNamePiece.array(count: 0...5).map { $0.joined() }
    }
}
