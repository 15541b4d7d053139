import Testing
@testable import ScreenTimeReference

@Suite struct Base64Tests {
    @Test func encodesRFC4648TestVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
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
}
