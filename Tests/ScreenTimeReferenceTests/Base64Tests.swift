import Testing

@testable import ScreenTimeReference

@Suite struct Base64Tests {
    @Test func encodesRFC4648TestVectors() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(Array(encoded.utf8)) == Array(plain.utf8))
        }
    }

    @Test func roundTripsEveryLengthAndByte() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64.decode(Array(Base64.encode(bytes).utf8)) == bytes)
        }
        let all = (0...255).map(UInt8.init)
        #expect(Base64.decode(Array(Base64.encode(all).utf8)) == all)
    }

    @Test(arguments: [
        ("Zg=", Base64.DecodingFailure.Reason.length, 3),
        ("Zg", .length, 2),
        ("Zm9v\n", .character, 4),
        ("Zm 9", .character, 2),
        ("Zm-_", .character, 2),
        ("Z===", .padding, 1),
        ("Zg==Zg==", .padding, 2),
        ("Zh==", .padBits, 1),
        ("Zm9=", .padBits, 2),
        ("Zm9v=", .length, 5),
        ("é", .character, 0),
    ])
    func rejectsNonCanonicalText(text: String, reason: Base64.DecodingFailure.Reason, offset: Int) {
        switch Base64.decodeReportingOffset(Array(text.utf8)) {
        case .success(let bytes): Issue.record("\(text.debugDescription) decoded to \(bytes)")
        case .failure(let failure):
            #expect(failure.reason == reason, "\(text.debugDescription)")
            #expect(failure.offset == offset, "\(text.debugDescription)")
        }
    }

    /// The first bad character is found eight at a time, then one at a time: its offset must be exact wherever it
    /// falls in (or after) a step, in texts of every length class, and whatever byte it is.
    @Test func reportsTheFirstBadCharacterAtEveryOffset() {
        let good = Array("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY".utf8)  // 32 alphabet characters
        for length in 1...good.count {
            for offset in 0..<length {
                for bad: UInt8 in [0x00, UInt8(ascii: "="), UInt8(ascii: "-"), 0x80, 0xFF] {
                    var text = Array(good[..<length])
                    text[offset] = bad
                    if offset + 1 < length { text[length - 1] = bad }  // a second bad byte: the first one counts
                    guard case .failure(let failure) = Base64.decodeReportingOffset(text) else {
                        Issue.record("\(text) decoded")
                        continue
                    }
                    // Final '=' padding is judged apart: only a bad byte before it is a character or padding error.
                    var padStart = length
                    if text[length - 1] == UInt8(ascii: "=") { padStart -= 1 }
                    if padStart == length - 1, length >= 2, text[length - 2] == UInt8(ascii: "=") { padStart -= 1 }
                    let expected = text[..<padStart].firstIndex { !Base64.isAlphabetCharacter($0) }
                    if let expected {
                        #expect(
                            failure.offset == expected, "length \(length), bad 0x\(String(bad, radix: 16)) at \(offset)"
                        )
                        #expect(failure.reason == (text[expected] == UInt8(ascii: "=") ? .padding : .character))
                    } else {
                        #expect(
                            failure.reason == (length % 4 == 0 ? .padBits : .length),
                            "length \(length), offset \(offset)")
                    }
                }
            }
        }
    }
}
