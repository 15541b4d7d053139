import Foundation
import ScreenTimeProperties
import Testing

/// The generators' JSON writer: every style it writes is JSON that means the same text (Foundation reads it back),
/// and each escape is spelled as the style says.
@Suite struct SelectionDocumentTests {
    static func written(_ text: String, slashes: Bool = true, asciiOnly: Bool = false) -> String {
        var style = SelectionJSONStyle()
        style.escapeSlashes = slashes
        style.asciiOnly = asciiOnly
        var out: [UInt8] = []
        SelectionJSONDocument.writeString(text, style, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func eachEscapeIsSpelledAsTheStyleSays() {
        #expect(Self.written("a\"b\\c") == #""a\"b\\c""#)
        #expect(Self.written("a/b") == #""a\/b""#)
        #expect(Self.written("a/b", slashes: false) == #""a/b""#)
        #expect(Self.written("\n\t\u{1}\u{1F}") == #""\n\t\u0001\u001f""#)
        #expect(Self.written("Café 日本 🙂") == "\"Café 日本 🙂\"")
        #expect(Self.written("Café 日本 🙂", asciiOnly: true) == #""Caf\u00e9 \u65e5\u672c \ud83d\ude42""#)
        #expect(Self.written("") == #""""#)
    }

    @Test(arguments: [false, true])
    func foundationReadsBackTheSameText(asciiOnly: Bool) throws {
        let text = "base64+/=\"\\\u{0}\u{7F}é\u{FFFF}\u{10000}🙂 ok"
        let json = Self.written(text, asciiOnly: asciiOnly)
        #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
    }
}
