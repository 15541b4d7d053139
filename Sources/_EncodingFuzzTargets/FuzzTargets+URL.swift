import ScreenTimeEncoding
import _FuzzCore

extension FuzzTargets {
    /// `url`: the bytes both as a string to percent-encode and as an encoded component to decode (SPEC §4).
    ///
    /// Invariants: decode(encode(s)) == s byte for byte; the encoder writes only unreserved ASCII and `%` with two
    /// upper-case hex digits, one escape per byte it did not keep; decoding is total (a string or a typed error
    /// pointing into the input) and agrees with a naive second decoder written here; decoding what the encoder
    /// wrote never fails; raw bytes round-trip when they are UTF-8 and fail with `invalidUTF8` when not.
    ///
    /// `maxLength` 512: the codec works byte by byte, so longer inputs add time and nothing else.
    public static let url = FuzzTarget(
        name: "url",
        summary: "bytes as text to percent-encode and as a component to decode: round trip, alphabet, strict decode",
        maxLength: 512,
        inPlace: { input in EncodingInvariants.checkURL(input, ReferencePercentCodec.self) })
}

/// The `url` checks: the encoder's alphabet and round trip, and strict decoding against a naive second decoder.
extension EncodingInvariants {
    public static func checkURL(_ bytes: [UInt8]) -> HarnessFailure? {
        checkURL(bytes, codec: ReferencePercentCodec.self)
    }

    public static func checkURL<Codec: PercentCodecUnderTest>(_ bytes: [UInt8], codec: Codec.Type) -> HarnessFailure? {
        bytes.withUnsafeBufferPointer { input in checkURL(input, codec) }
    }

    /// The checks on bytes in place (libFuzzer's buffer: no copy into an array).
    public static func checkURL<Codec: PercentCodecUnderTest>(
        _ input: UnsafeBufferPointer<UInt8>, _: Codec.Type
    ) -> HarnessFailure? {
        // 1. As text: any bytes, made into a String (ill-formed UTF-8 becomes U+FFFD).
        let text = string(input)
        let isUTF8 = sameBytes(text, input)  // nothing was repaired
        let encoded = Codec.encodeComponent(text)
        if let failure = withUTF8(encoded, { out in withUTF8(text) { checkEncoderOutput(out, of: $0) } }) {
            return failure
        }
        do throws(PercentDecodingError) {
            let decoded = try Codec.decodeComponent(encoded)
            if !sameBytes(decoded, text) {
                return HarnessFailure(
                    "decode(encode(s)) != s",
                    "s = \(hexPreview(Array(text.utf8))), got \(hexPreview(Array(decoded.utf8)))")
            }
        } catch {
            return HarnessFailure("decoding the encoder's output failed", "\(error); encoded \(preview(encoded))")
        }

        // 2. As raw bytes (not necessarily UTF-8): the encoder still keeps its alphabet, and the decoder gives the
        //    bytes back when they are UTF-8 and says invalidUTF8 when they are not.
        let rawEncoded = Codec.encodeComponent(bytesInPlace: input)
        if isUTF8 {
            // The bytes are `text`'s bytes. If the bytes encoder wrote what the text encoder wrote, the checks of
            // part 1 were made on these very values (alphabet of `encoded` for these bytes, decode(encoded) gives
            // them back), so they are not repeated; if it wrote anything else, one of the two is wrong.
            if !sameBytes(rawEncoded, encoded) {
                return HarnessFailure(
                    "encodeComponent(bytes:) and encodeComponent(_:) differ on UTF-8",
                    "\(preview(rawEncoded)) against \(preview(encoded))")
            }
        } else {
            if let failure = withUTF8(rawEncoded, { checkEncoderOutput($0, of: input) }) { return failure }
            do throws(PercentDecodingError) {
                _ = try Codec.decodeComponent(rawEncoded)
                return HarnessFailure("ill-formed UTF-8 decoded without an error", hexPreview(input))
            } catch {
                if error.code != .invalidUTF8 {
                    return HarnessFailure(
                        "encoded ill-formed UTF-8 failed with \(error.code), not invalidUTF8", "\(error)")
                }
            }
        }

        // 3. As an encoded component: decoding is total and agrees with the naive decoder below.
        let result = Result { () throws(PercentDecodingError) in try Codec.decodeComponent(utf8InPlace: input) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: input.count) { buffer in
            let unescaped = naiveUnescape(input, into: buffer).map { UnsafeBufferPointer(rebasing: buffer[..<$0]) }
            switch result {
            case .success(let decoded):
                guard let unescaped else {
                    return HarnessFailure(
                        "decode accepted an invalid component",
                        "naive decoder: \(PercentDecodingError.Code.invalidPercentEncoding); input \(preview(input))")
                }
                // A String's bytes are well-formed UTF-8: equal to them, the naive decoder's bytes pass its UTF-8
                // check too, so that check is only made when they differ (to say which failure it is).
                if !sameBytes(decoded, unescaped) {
                    if !isWellFormedUTF8(unescaped) {
                        return HarnessFailure(
                            "decode accepted an invalid component",
                            "naive decoder: \(PercentDecodingError.Code.invalidUTF8); input \(preview(input))")
                    }
                    return HarnessFailure("decode differs from the naive decoder", "input \(preview(input))")
                }
                // What decodes, re-encoded, decodes to the same text. When it decoded to the input itself (no
                // escapes), that is decode(encode(text)) == text, checked in part 1 on the same bytes.
                if !sameBytes(decoded, input) {
                    let again = Result { () throws(PercentDecodingError) in
                        try Codec.decodeComponent(Codec.encodeComponent(decoded))
                    }
                    if case .success(let value) = again, sameBytes(value, decoded) {
                    } else {
                        return HarnessFailure("decode(encode(decode(x))) != decode(x)", preview(input))
                    }
                }
                return nil
            case .failure(let error):
                let naiveSaysInvalidUTF8 = unescaped.map { !isWellFormedUTF8($0) }
                if naiveSaysInvalidUTF8 == false {
                    return HarnessFailure("decode rejected a valid component", "\(error); input \(preview(input))")
                }
                return checkDecodingError(error, input: input, naiveSaysInvalidUTF8: naiveSaysInvalidUTF8 == true)
            }
        }
    }

    /// The encoder's output: only unreserved ASCII, or `%` and two upper-case hex digits encoding exactly the
    /// byte that was not kept; one output unit per input byte.
    static func checkEncoderOutput(_ out: [UInt8], of input: [UInt8]) -> HarnessFailure? {
        out.withUnsafeBufferPointer { o in input.withUnsafeBufferPointer { checkEncoderOutput(o, of: $0) } }
    }

    /// Exactly one output satisfies the rules above (each input byte has exactly one allowed encoding), so the
    /// check writes it and compares; ``diagnoseEncoderOutput(_:of:)`` says where it differs.
    static func checkEncoderOutput(
        _ out: UnsafeBufferPointer<UInt8>, of input: UnsafeBufferPointer<UInt8>
    ) -> HarnessFailure? {
        // Branch-free, one table load and three 1-byte stores per byte: each byte's entry holds its three output
        // units (itself or `%`, then both hex digits) and how far to move on (1 or 3), so a kept byte's digits
        // are overwritten by what follows. (Every memory access here is an ASan check; one unaligned 4-byte
        // store would be a memcpy, which ASan checks as a region, several times slower than three bytes.)
        let same: Bool = encodedUnits.withUnsafeBufferPointer { units in
            withUnsafeTemporaryAllocation(byteCount: 3 * input.count + 4, alignment: 4) { expected in
                guard let base = expected.baseAddress else { return out.isEmpty }
                var o = 0
                for byte in input {
                    let entry = units[Int(byte)]
                    base.storeBytes(of: UInt8(truncatingIfNeeded: entry), toByteOffset: o, as: UInt8.self)
                    base.storeBytes(of: UInt8(truncatingIfNeeded: entry >> 8), toByteOffset: o + 1, as: UInt8.self)
                    base.storeBytes(of: UInt8(truncatingIfNeeded: entry >> 16), toByteOffset: o + 2, as: UInt8.self)
                    o += Int(entry >> 24)
                }
                return equal(out, UnsafeBufferPointer(start: base.bindMemory(to: UInt8.self, capacity: o), count: o))
            }
        }
        if same { return nil }
        return diagnoseEncoderOutput(out, of: input)
            ?? HarnessFailure("encoder output is not the byte-by-byte encoding", preview(out))
    }

    /// Where the encoder's output breaks the rules (only run once it did).
    static func diagnoseEncoderOutput(
        _ out: UnsafeBufferPointer<UInt8>, of input: UnsafeBufferPointer<UInt8>
    ) -> HarnessFailure? {
        var o = 0
        for byte in input {
            if isUnreserved(byte) {
                guard o < out.count, out[o] == byte else {
                    return HarnessFailure(
                        "encoder did not keep an unreserved byte", "byte 0x\(hex2(byte)) at output \(o)")
                }
                o += 1
            } else {
                guard o + 2 < out.count, out[o] == UInt8(ascii: "%"), out[o + 1] == upperHex(byte >> 4),
                    out[o + 2] == upperHex(byte & 0x0F)
                else {
                    return HarnessFailure(
                        "encoder did not write %XX (upper-case hex) for a reserved byte",
                        "byte 0x\(hex2(byte)) at output \(o): \(preview(out[min(o, out.count)...].prefix(8)))")
                }
                o += 3
            }
        }
        if o != out.count {
            return HarnessFailure("encoder wrote extra bytes", "\(out.count - o) after the last escape")
        }
        return nil
    }

    /// A typed decoding error must point at the byte that explains it.
    static func checkDecodingError(
        _ error: PercentDecodingError, input: UnsafeBufferPointer<UInt8>, naiveSaysInvalidUTF8: Bool
    ) -> HarnessFailure? {
        guard error.offset >= 0, error.offset < input.count else {
            return HarnessFailure("decoding error offset outside the input", "\(error), input \(input.count) bytes")
        }
        let at = input[error.offset]
        switch error.reason {
        case .malformedEscape:
            if at != UInt8(ascii: "%") {
                return HarnessFailure("malformedEscape does not point at a '%'", "\(error); input \(preview(input))")
            }
        case .unencodedCharacter:
            if at == UInt8(ascii: "%") || allowedRawTable[Int(at)] {
                return HarnessFailure(
                    "unencodedCharacter points at a byte that may appear raw", "\(error); input \(preview(input))")
            }
        case .invalidUTF8:
            // Only escapes can make bytes >= 0x80, so an ill-formed sequence starts at a '%'.
            if at != UInt8(ascii: "%") {
                return HarnessFailure("invalidUTF8 does not point at a '%'", "\(error); input \(preview(input))")
            }
        // When every escape and raw character is fine, the UTF-8 check is what failed.
        }
        if naiveSaysInvalidUTF8, error.code != .invalidUTF8 {
            return HarnessFailure(
                "well-formed escapes of ill-formed UTF-8 reported as \(error.code)",
                "\(error); input \(preview(input))")
        }
        return nil
    }

    enum NaiveDecoding {
        case decoded([UInt8])
        case rejected(PercentDecodingError.Code)
    }

    /// The naive decoder's answer on its own: both passes, the second always (``checkURL(_:codec:)`` runs the
    /// second only when its answer is not already known).
    static func naiveDecode(_ input: [UInt8]) -> NaiveDecoding {
        var out = [UInt8](repeating: 0, count: input.count)
        let count = input.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { naiveUnescape(input, into: $0) }
        }
        guard let count else { return .rejected(.invalidPercentEncoding) }
        out.removeSubrange(count...)
        return out.withUnsafeBufferPointer(isWellFormedUTF8) ? .decoded(out) : .rejected(.invalidUTF8)
    }

    /// Decodes in two separate passes, nothing shared with the reference: a second opinion. This is the first:
    /// escapes and raw characters into `out` (at least `input.count` bytes); how many bytes it wrote, or nil when
    /// the component is not well formed. The second is ``isWellFormedUTF8(_:)``.
    static func naiveUnescape(
        _ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        allowedRawTable.withUnsafeBufferPointer { raw in
            hexValueTable.withUnsafeBufferPointer { hex in
                var i = 0
                var o = 0
                while i < input.count {
                    let c = input[i]
                    if c == UInt8(ascii: "%") {
                        guard i + 2 < input.count else { return nil }
                        let h = hex[Int(input[i + 1])]
                        let l = hex[Int(input[i + 2])]
                        guard h != 0xFF, l != 0xFF else { return nil }
                        out[o] = h * 16 + l
                        i += 3
                    } else if raw[Int(c)] {
                        out[o] = c
                        i += 1
                    } else {
                        return nil
                    }
                    o += 1
                }
                return o
            }
        }
    }

    /// UTF-8 validation by the standard library, which repairs ill-formed UTF-8: a repair changes the bytes.
    static func isWellFormedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        sameBytes(string(bytes), bytes)
    }

    /// RFC 3986 unreserved ASCII (`A–Z a–z 0–9 - . _ ~`), the only bytes an encoder keeps.
    static func isUnreserved(_ c: UInt8) -> Bool {
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8.contains(c)
    }

    /// RFC 3986 query characters that may appear unencoded: unreserved, sub-delims and `: @ / ?`.
    static func allowedRaw(_ c: UInt8) -> Bool {
        isUnreserved(c) || "!$&'()*+,;=:@/?".utf8.contains(c)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    static func upperHex(_ nibble: UInt8) -> UInt8 {
        let n = nibble & 0x0F
        return n < 10 ? UInt8(ascii: "0") + n : UInt8(ascii: "A") + n - 10
    }

    /// The functions above as tables, so that a byte's class is one load rather than a chain of comparisons.
    /// A byte's encoding as bytes 0…2 (itself or `%`, the upper-case hex digits) and its length in byte 3.
    static let encodedUnits: [UInt32] = table { byte in
        let first = isUnreserved(byte) ? byte : UInt8(ascii: "%")
        let length: UInt32 = isUnreserved(byte) ? 1 : 3
        return UInt32(first) | UInt32(upperHex(byte >> 4)) << 8 | UInt32(upperHex(byte & 0x0F)) << 16 | length << 24
    }
    static let allowedRawTable: [Bool] = table(allowedRaw)
    static let hexValueTable: [UInt8] = table { hexValue($0) ?? 0xFF }
}
