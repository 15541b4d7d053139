import Testing

@testable import StrictJSON

/// The string scanner skips plain bytes eight at a time; these put every kind of byte that stops the skip at
/// every offset of a word, and check that the result is what the byte-by-byte rules give.
@Suite struct JSONScannerFastPathTests {
    /// (JSON text of the special part, the string it decodes to)
    static let specials: [(String, String)] = [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\n"#, "\n"), (#"\u0041"#, "A"), ("é", "é"),
        ("😀", "😀"), ("\u{7F}", "\u{7F}"), (" ", " "), ("~", "~"),
    ]

    @Test func specialBytesAtEveryOffset() throws {
        for (json, decoded) in Self.specials {
            for before in 0..<20 {
                for after in [0, 1, 7, 8, 9, 17] {
                    let a = String(repeating: "a", count: before)
                    let b = String(repeating: "b", count: after)
                    let value = try JSONParser.value("\"" + a + json + b + "\"")
                    #expect(value == .string(a + decoded + b), "\(json.debugDescription) after \(before) bytes")
                }
            }
        }
    }

    @Test func rawControlCharacterIsRejectedAtItsOffset() {
        for before in 0..<20 {
            let text =
                "[\"" + String(repeating: "x", count: before) + "\u{01}" + String(repeating: "y", count: 9) + "\"]"
            #expect(throws: JSONParseError(.controlCharacterInString, at: 2 + before)) { try JSONParser.value(text) }
        }
    }

    @Test func unterminatedStringsEndAtTheEnd() {
        for length in 0..<20 {
            let text = "\"" + String(repeating: "z", count: length)
            #expect(throws: JSONParseError(.unexpectedEnd, at: 1 + length)) { try JSONParser.value(text) }
        }
    }

    @Test func writerEscapesAsBefore() {
        // Runs of plain bytes are copied whole; the escapes are the same as byte by byte.
        let text = "a/b\"c\\d\n\r\t\u{08}\u{0C}\u{01}é/"
        var plain: [UInt8] = []
        JSONWriter.writeString(text, into: &plain)
        #expect(String(decoding: plain, as: UTF8.self) == #""a/b\"c\\d\n\r\t\b\f\u0001é/""#)
        var slashes: [UInt8] = []
        JSONWriter.writeString(text, into: &slashes, escapeSlashes: true)
        #expect(String(decoding: slashes, as: UTF8.self) == #""a\/b\"c\\d\n\r\t\b\f\u0001é\/""#)
    }

    @Test func objectKeysAreWrittenInCodePointOrder() {
        let value: JSONValue = ["é": 1, "z": 2, "a": ["b": true, "B": false], "A": nil]
        #expect(JSONWriter.string(value) == #"{"A":null,"a":{"B":false,"b":true},"z":2,"é":1}"#)
    }
}
