import PropertyTesting
import ScreenTimeReference

// Anything an app might find in its App Group `UserDefaults` under the selection key: valid stored strings,
// near-valid ones, byte-level mutations of valid ones, base64 of arbitrary JSON, random base64-ish text,
// and arbitrary bytes.

extension Gen where Value == StoredString {
    /// Random JSON texts (valid or not), for base64 wrapping.
    static var jsonish: Gen<[UInt8]> {
        let atoms = Gen<String>.element(of: [
            "{}", "[]", "null", "true", "1", "-0.0e-1", #""a""#, #""\ud800""#, #""\u0000""#, "{\"data\":\"AAAA\"}",
            #""applicationTokens""#, ":", ",", "[", "]", "{", "}", "\u{FEFF}", " ", "\"", "\\", "01", "1.", "\u{1}",
        ])
        return atoms.array(count: 0...24).map { Array($0.joined().utf8) }
    }

    /// Any stored string, from valid to garbage.
    public static var storedString: Gen<StoredString> {
        Gen<StoredString>.frequency([
            (
                3,
                Gen<EncodedSelection>.encodedSelection(universe: 8).map {
                    StoredString(bytes: Array($0.base64.utf8), origin: "valid")
                }
            ),
            (
                3,
                Gen<NearValidSelection>.nearValidSelection().map {
                    StoredString(bytes: Array($0.stored.utf8), origin: "near-valid (\($0.mutation))")
                }
            ),
            (
                2,
                Gen<EncodedSelection>.encodedSelection(universe: 8).flatMap { encoded in
                    Gen<[UInt8]>.bytes(count: 1...4).map { edit in
                        var bytes = Array(encoded.base64.utf8)
                        // Each edit byte: position and operation (flip, delete, insert, truncate).
                        for e in edit where !bytes.isEmpty {
                            let at = Int(e) % bytes.count
                            switch e % 4 {
                            case 0: bytes[at] ^= 1 << (e % 8)
                            case 1: bytes.remove(at: at)
                            case 2: bytes.insert(e, at: at)
                            default: bytes.removeSubrange(at...)
                            }
                        }
                        return StoredString(bytes: bytes, origin: "mutated valid")
                    }
                }
            ),
            (2, jsonish.map { StoredString(bytes: Array(Base64.encode($0).utf8), origin: "base64 of JSON-ish") }),
            (
                1,
                Gen<String>.string(
                    Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= -_\n"), length: 0...40
                )
                .map { StoredString(bytes: Array($0.utf8), origin: "base64-ish text") }
            ),
            (1, Gen<[UInt8]>.bytes(count: 0...40).map { StoredString(bytes: $0, origin: "arbitrary bytes") }),
            (
                1,
                Gen<[UInt8]>.bytes(count: 0...60).map {
                    StoredString(bytes: Array(Base64.encode($0).utf8), origin: "base64 of bytes")
                }
            ),
        ])
    }
}
