/// Standard base64 (RFC 4648 §4) for `<data>` elements: the writer's encoding, and the reader's canonical check
/// (`SPEC.md` §1's `base64` rule, applied by §1.2 to the text of `<data>` once whitespace is removed).
enum PropertyListBase64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of an alphabet byte, or nil for any other byte (`=` included).
    static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    /// Standard padded base64 of `bytes`.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { text.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let group = UInt32(bytes[index]) << 16
            text += [alphabet[Int(group >> 18 & 0x3F)], alphabet[Int(group >> 12 & 0x3F)], 0x3D, 0x3D]
        } else if rest == 2 {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            text += [
                alphabet[Int(group >> 18 & 0x3F)], alphabet[Int(group >> 12 & 0x3F)],
                alphabet[Int(group >> 6 & 0x3F)], 0x3D,
            ]
        }
        return text
    }

    /// Decodes `text` (whitespace already removed), where `offsets[i]` is where `text[i]` stands in the list, if
    /// it is canonical: only the alphabet and `=`, a length that is a multiple of 4, `=` only as the final one or
    /// two bytes of the last group, and zero pad bits. Otherwise the error names the first byte at fault (`end`,
    /// the offset of the closing tag, for a text cut short).
    static func decodeCanonical(_ text: [UInt8], offsets: [Int], end: Int) throws(PropertyListError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            guard index + 4 <= text.count else {
                throw PropertyListError(
                    at: end, "the base64 of <data> has \(text.count) characters, not a multiple of 4")
            }
            let last = index + 4 == text.count
            var values: [UInt8] = [0, 0, 0, 0]
            var padding = 0
            for position in 0..<4 {
                let byte = text[index + position]
                if byte == UInt8(ascii: "=") {
                    // `=` may stand only in the last group, as its final one or two characters.
                    guard last, position >= 2 else {
                        throw PropertyListError(at: offsets[index + position], "a base64 pad '=' stands too early")
                    }
                    padding += 1
                    continue
                }
                guard padding == 0 else {
                    throw PropertyListError(
                        at: offsets[index + position], "a base64 character follows a pad '='")
                }
                guard let value = sextet(byte) else {
                    throw PropertyListError(
                        at: offsets[index + position], "\(hex(byte)) is not a character of standard base64")
                }
                values[position] = value
            }
            let group = UInt32(values[0]) << 18 | UInt32(values[1]) << 12 | UInt32(values[2]) << 6 | UInt32(values[3])
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: group)) }
            // Canonical encoding (RFC 4648 §3.5): the bits the padding discards are zero.
            let discarded = padding == 2 ? group & 0xFFFF : padding == 1 ? group & 0xFF : 0
            if discarded != 0 {
                throw PropertyListError(
                    at: offsets[index + 3 - padding], "the base64 pad bits are not zero (not canonical)")
            }
            index += 4
        }
        return bytes
    }
}
