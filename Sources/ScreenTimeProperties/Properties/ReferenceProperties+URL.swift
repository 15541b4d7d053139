import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
    static func isUpperHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) }

    public static func urlRoundTrip(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.round-trip",
            summary: "decode(encode(s)) == s for app names from every script, emoji, controls and NUL (§4)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let encoded = subject.encode(name)
            switch subject.decode(encoded) {
            case .success(let back):
                return back == name ? nil : "encoded \(encoded), decoded \(String(reflecting: back))"
            case .failure(let error): return "encoded \(encoded), decoding failed: \(error)"
            }
        }
    }

    public static func urlOutputAlphabet(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.output-alphabet",
            summary:
                "the encoding holds only unreserved ASCII and %XX escapes; a space is %20, never + (§4, field bug 7)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let out = Array(subject.encode(name).utf8)
            var i = 0
            while i < out.count {
                if PercentEncoding.isUnreserved(out[i]) {
                    i += 1
                    continue
                }
                guard out[i] == UInt8(ascii: "%"), i + 2 < out.count, isUpperHex(out[i + 1]), isUpperHex(out[i + 2])
                else {
                    return
                        "byte \(out[i]) at \(i) of \(String(decoding: out, as: UTF8.self)) is neither unreserved nor a %XX escape"
                }
                i += 3
            }
            return nil
        }
    }

    public static func urlUppercaseHex(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.uppercase-hex",
            summary:
                "the encoding is byte by byte: unreserved kept, every other UTF-8 byte %XX in upper-case hex (§4, field bug 7)",
            Gen<String>.appName, describe: { String(reflecting: $0) }
        ) { name in
            let hex = Array("0123456789ABCDEF".utf8)
            var expected: [UInt8] = []
            for byte in name.utf8 {
                if PercentEncoding.isUnreserved(byte) {
                    expected.append(byte)
                } else {
                    expected += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
            }
            let got = subject.encode(name)
            return Array(got.utf8) == expected
                ? nil : "encoded \(got), expected \(String(decoding: expected, as: UTF8.self))"
        }
    }

    static var encodedish: Gen<String> {
        Gen<String>.oneOf(
            Gen<String>.string(Alphabet("%+AaFf09 zZ-._~!$&'()*,;=:@/?#[]\"é"), length: 0...12),
            Gen<String>.appName.map { PercentEncoding.encodeComponent($0) },
            Gen<(String, [UInt8])>.zip(Gen<String>.appName, Gen<[UInt8]>.bytes(count: 1...3)).map { (name, edits) in
                var b = Array(PercentEncoding.encodeComponent(name).utf8)
                for e in edits where !b.isEmpty {
                    b[Int(e) % b.count] =
                        [UInt8(ascii: "%"), UInt8(ascii: "G"), e & 0x7F, UInt8(ascii: "c")][Int(e) % 4]
                }
                return String(decoding: b, as: UTF8.self)
            },
            Gen<[UInt8]>.bytes(count: 0...6).map { PercentEncoding.encodeComponent(bytes: $0) }
        )
    }

    public static func urlDecodeTotal(_ subject: URLSubject = .reference) -> Property {
        Property(
            "url.decode-total",
            summary:
                "decoding any text gives a string or a typed error in range; `+` stays `+`; lower-case hex decodes alike (§4)",
            encodedish, describe: { String(reflecting: $0) }
        ) { text in
            switch subject.decode(text) {
            case .failure(let error):
                if error.offset < 0 || error.offset > text.utf8.count {
                    return "offset \(error.offset) outside 0…\(text.utf8.count)"
                }
                return nil
            case .success(let decoded):
                if decoded.filter({ $0 == "+" }).count < text.filter({ $0 == "+" }).count {
                    return "a + was decoded to something else: \(String(reflecting: decoded))"
                }
                guard case .success(let again) = subject.decode(subject.encode(decoded)), again == decoded else {
                    return "re-encoding the result does not round-trip"
                }
                let lowered = String(decoding: lowerHex(Array(text.utf8)), as: UTF8.self)
                guard case .success(let low) = subject.decode(lowered), low == decoded else {
                    return "lower-case hex \(lowered) decodes differently"
                }
                return nil
            }
        }
    }

    static func lowerHex(_ b: [UInt8]) -> [UInt8] {
        var out = b
        var i = 0
        while i + 2 < out.count + 0 && i < out.count {
            if out[i] == UInt8(ascii: "%"), i + 2 < out.count {
                for k in (i + 1)...(i + 2) where out[k] >= 0x41 && out[k] <= 0x46 { out[k] |= 0x20 }
                i += 3
            } else {
                i += 1
            }
        }
        return out
    }

    static var urlProperties: [Property] {
        [urlRoundTrip(), urlOutputAlphabet(), urlUppercaseHex(), urlDecodeTotal()]
    }
}
