@_exported import _FuzzCore  // the shims of `url` and `template` import only this module
import ScreenTimeEncoding
import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let encodingTargets = [url, template]

    /// `url`: the bytes both as a string to percent-encode and as an encoded component to decode (SPEC §4).
    ///
    /// Invariants: decode(encode(s)) == s byte for byte; the encoder writes only unreserved ASCII and `%` with two
    /// upper-case hex digits, one escape per byte it did not keep; decoding is total (a string or a typed error
    /// pointing into the input) and agrees with a naive second decoder written here; decoding what the encoder
    /// wrote never fails; raw bytes round-trip when they are UTF-8 and fail with `invalidUTF8` when not.
    ///
    /// `maxLength` 512: the codec works byte by byte, so longer inputs add time and nothing else.
    public static let url = FuzzTarget(
        name: "url", summary: "bytes as text to percent-encode and as a component to decode: round trip, alphabet, strict decode",
        maxLength: 512,
        inPlace: { input in EncodingInvariants.checkURL(input, ReferencePercentCodec.self) })

    /// `template`: the bytes split at NUL into a shield-text template and `key=value` items (an item without
    /// `=` maps its key to `nil`); the template is rendered and checked against a second, naive renderer.
    ///
    /// Invariants: the rendering equals the naive one; values are copied verbatim and never re-scanned (rendering
    /// with opaque stand-ins and substituting the values back gives the same text); a key that has no value never
    /// leaks its name (renaming it changes nothing); `missing` is exactly the keys without a value, each once, in
    /// order of first appearance. Rendering is linear (libFuzzer's `-timeout` catches anything worse).
    ///
    /// `maxLength` 1024: room for several placeholders, fallbacks and `key=value` items.
    public static let template = FuzzTarget(
        name: "template", summary: "bytes as a shield-text template + NUL-separated key=value items: one pass, no leaks, missing keys",
        maxLength: 1024,
        inPlace: { input in EncodingInvariants.checkTemplate(input, as: ShieldTextTemplate.self) })
}

/// The percent codec the `url` checks run against: ``ReferencePercentCodec`` under libFuzzer and replay, a
/// deliberately wrong one in the tests that show each check still catches what it is there for.
public protocol PercentCodecUnderTest {
    static func encodeComponent(_ text: String) -> String
    static func encodeComponent(bytes: [UInt8]) -> String
    static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String
    static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String
    /// `encodeComponent(bytes:)` on bytes in place (libFuzzer's buffer); by default through an array.
    static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String
    /// `decodeComponent(utf8:)` on bytes in place; by default through an array.
    static func decodeComponent(utf8InPlace bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> String
}

extension PercentCodecUnderTest {
    public static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String { encodeComponent(bytes: Array(bytes)) }
    public static func decodeComponent(utf8InPlace bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> String {
        try decodeComponent(utf8: Array(bytes))
    }
}

/// `PercentEncoding`, the reference, as a ``PercentCodecUnderTest``.
public enum ReferencePercentCodec: PercentCodecUnderTest {
    public static func encodeComponent(_ text: String) -> String { PercentEncoding.encodeComponent(text) }
    public static func encodeComponent(bytes: [UInt8]) -> String { PercentEncoding.encodeComponent(bytes: bytes) }
    public static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(text)
    }
    public static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(utf8: bytes)
    }
    /// The reference takes any collection of bytes: the buffer itself, no array.
    public static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String { PercentEncoding.encodeComponent(bytes: bytes) }
    public static func decodeComponent(utf8InPlace bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(utf8: bytes)
    }
}

/// The shield-text template the `template` checks run against: `ShieldTextTemplate` under libFuzzer and replay,
/// a deliberately wrong one in the tests.
public protocol ShieldTextTemplateUnderTest {
    init(_ text: String)
    var keys: [String] { get }
    func render(_ values: [String: String?]) -> ShieldTextTemplate.Rendering
}

extension ShieldTextTemplate: ShieldTextTemplateUnderTest {}

/// The invariants behind the `url` and `template` fuzz targets; `public` so that property tests can reuse them.
///
/// They run under libFuzzer with ASan, where every temporary Array or String is an allocation through ASan's
/// allocator and every byte loop in the reference's modules a coverage edge per byte (the harness itself carries
/// no coverage since the seventh round, and comparisons were traced until the eighth). So: byte equality is one
/// `memcmp`, byte searches are `memchr`, the harness's own byte classes are 256-entry tables (built once from the
/// definitions written here, nothing shared with the reference), and failure messages and diagnoses are only
/// computed once something failed. Where a check is skipped because an earlier one already covered the very
/// same values, a comment says why and `FuzzCorpusTests` shows the planted bug it is about is still caught.
public enum EncodingInvariants {
    // MARK: Bytes

    /// `a == b` byte for byte (`memcmp`).
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool { UTF8Bytes.equal(a, b) }

    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8(body)
    }

    /// Whether the two strings have the same UTF-8 bytes (`==` on String is canonical equivalence, weaker).
    static func sameBytes(_ a: String, _ b: String) -> Bool { UTF8Bytes.equal(a, b) }

    static func sameBytes(_ a: String, _ b: UnsafeBufferPointer<UInt8>) -> Bool { withUTF8(a) { equal($0, b) } }

    static func sameBytes(_ a: String, _ b: [UInt8]) -> Bool { b.withUnsafeBufferPointer { sameBytes(a, $0) } }

    /// `String(decoding: bytes, as: UTF8.self)`: on a buffer of bytes its fast path validates, and repairs
    /// ill-formed UTF-8, inside the standard library (not instrumented), allocating only the result. (Copying
    /// the bytes into `String(unsafeUninitializedCapacity:)` first costs an allocation more whenever the bytes
    /// are not UTF-8, which fuzz inputs often are: the repair makes a second String.)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The index of the first `byte` at or after `from`, or `b.count`.
    static func firstIndex(of byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard from < b.count, let base = b.baseAddress, let hit = memchr(base + from, Int32(byte), b.count - from) else {
            return b.count
        }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    static func table<T>(_ entry: (UInt8) -> T) -> [T] { (0...255).map { entry(UInt8($0)) } }

    // MARK: url

    public static func checkURL(_ bytes: [UInt8]) -> HarnessFailure? { checkURL(bytes, codec: ReferencePercentCodec.self) }

    public static func checkURL<Codec: PercentCodecUnderTest>(_ bytes: [UInt8], codec: Codec.Type) -> HarnessFailure? {
        bytes.withUnsafeBufferPointer { input in checkURL(input, codec) }
    }

    /// The checks on bytes in place (libFuzzer's buffer: no copy into an array).
    public static func checkURL<Codec: PercentCodecUnderTest>(_ input: UnsafeBufferPointer<UInt8>, _: Codec.Type) -> HarnessFailure? {
        // 1. As text: any bytes, made into a String (ill-formed UTF-8 becomes U+FFFD).
        let text = string(input)
        let isUTF8 = sameBytes(text, input)  // nothing was repaired
        let encoded = Codec.encodeComponent(text)
        if let failure = withUTF8(encoded, { out in withUTF8(text) { checkEncoderOutput(out, of: $0) } }) { return failure }
        do throws(PercentDecodingError) {
            let decoded = try Codec.decodeComponent(encoded)
            if !sameBytes(decoded, text) {
                return HarnessFailure("decode(encode(s)) != s", "s = \(hexPreview(Array(text.utf8))), got \(hexPreview(Array(decoded.utf8)))")
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
                    "encodeComponent(bytes:) and encodeComponent(_:) differ on UTF-8", "\(preview(rawEncoded)) against \(preview(encoded))")
            }
        } else {
            if let failure = withUTF8(rawEncoded, { checkEncoderOutput($0, of: input) }) { return failure }
            do throws(PercentDecodingError) {
                _ = try Codec.decodeComponent(rawEncoded)
                return HarnessFailure("ill-formed UTF-8 decoded without an error", hexPreview(input))
            } catch {
                if error.code != .invalidUTF8 {
                    return HarnessFailure("encoded ill-formed UTF-8 failed with \(error.code), not invalidUTF8", "\(error)")
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
                    return HarnessFailure("decode accepted an invalid component", "naive decoder: \(PercentDecodingError.Code.invalidPercentEncoding); input \(preview(input))")
                }
                // A String's bytes are well-formed UTF-8: equal to them, the naive decoder's bytes pass its UTF-8
                // check too, so that check is only made when they differ (to say which failure it is).
                if !sameBytes(decoded, unescaped) {
                    if !isWellFormedUTF8(unescaped) {
                        return HarnessFailure("decode accepted an invalid component", "naive decoder: \(PercentDecodingError.Code.invalidUTF8); input \(preview(input))")
                    }
                    return HarnessFailure("decode differs from the naive decoder", "input \(preview(input))")
                }
                // What decodes, re-encoded, decodes to the same text. When it decoded to the input itself (no
                // escapes), that is decode(encode(text)) == text, checked in part 1 on the same bytes.
                if !sameBytes(decoded, input) {
                    let again = Result { () throws(PercentDecodingError) in try Codec.decodeComponent(Codec.encodeComponent(decoded)) }
                    if case .success(let value) = again, sameBytes(value, decoded) {} else {
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
    static func checkEncoderOutput(_ out: UnsafeBufferPointer<UInt8>, of input: UnsafeBufferPointer<UInt8>) -> HarnessFailure? {
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
        return diagnoseEncoderOutput(out, of: input) ?? HarnessFailure("encoder output is not the byte-by-byte encoding", preview(out))
    }

    /// Where the encoder's output breaks the rules (only run once it did).
    static func diagnoseEncoderOutput(_ out: UnsafeBufferPointer<UInt8>, of input: UnsafeBufferPointer<UInt8>) -> HarnessFailure? {
        var o = 0
        for byte in input {
            if isUnreserved(byte) {
                guard o < out.count, out[o] == byte else {
                    return HarnessFailure("encoder did not keep an unreserved byte", "byte 0x\(hex2(byte)) at output \(o)")
                }
                o += 1
            } else {
                guard o + 2 < out.count, out[o] == UInt8(ascii: "%"), out[o + 1] == upperHex(byte >> 4), out[o + 2] == upperHex(byte & 0x0F)
                else {
                    return HarnessFailure("encoder did not write %XX (upper-case hex) for a reserved byte", "byte 0x\(hex2(byte)) at output \(o): \(preview(out[min(o, out.count)...].prefix(8)))")
                }
                o += 3
            }
        }
        if o != out.count { return HarnessFailure("encoder wrote extra bytes", "\(out.count - o) after the last escape") }
        return nil
    }

    /// A typed decoding error must point at the byte that explains it.
    static func checkDecodingError(_ error: PercentDecodingError, input: UnsafeBufferPointer<UInt8>, naiveSaysInvalidUTF8: Bool) -> HarnessFailure? {
        guard error.offset >= 0, error.offset < input.count else {
            return HarnessFailure("decoding error offset outside the input", "\(error), input \(input.count) bytes")
        }
        let at = input[error.offset]
        switch error.reason {
        case .malformedEscape:
            if at != UInt8(ascii: "%") { return HarnessFailure("malformedEscape does not point at a '%'", "\(error); input \(preview(input))") }
        case .unencodedCharacter:
            if at == UInt8(ascii: "%") || allowedRawTable[Int(at)] {
                return HarnessFailure("unencodedCharacter points at a byte that may appear raw", "\(error); input \(preview(input))")
            }
        case .invalidUTF8:
            // Only escapes can make bytes >= 0x80, so an ill-formed sequence starts at a '%'.
            if at != UInt8(ascii: "%") { return HarnessFailure("invalidUTF8 does not point at a '%'", "\(error); input \(preview(input))") }
            // When every escape and raw character is fine, the UTF-8 check is what failed.
        }
        if naiveSaysInvalidUTF8, error.code != .invalidUTF8 {
            return HarnessFailure("well-formed escapes of ill-formed UTF-8 reported as \(error.code)", "\(error); input \(preview(input))")
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
        let count = input.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { naiveUnescape(input, into: $0) } }
        guard let count else { return .rejected(.invalidPercentEncoding) }
        out.removeSubrange(count...)
        return out.withUnsafeBufferPointer(isWellFormedUTF8) ? .decoded(out) : .rejected(.invalidUTF8)
    }

    /// Decodes in two separate passes, nothing shared with the reference: a second opinion. This is the first:
    /// escapes and raw characters into `out` (at least `input.count` bytes); how many bytes it wrote, or nil when
    /// the component is not well formed. The second is ``isWellFormedUTF8(_:)``.
    static func naiveUnescape(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
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

    /// The functions above as tables, so that a byte's class is one load rather than a dozen traced comparisons.
    /// A byte's encoding as bytes 0…2 (itself or `%`, the upper-case hex digits) and its length in byte 3.
    static let encodedUnits: [UInt32] = table { byte in
        let first = isUnreserved(byte) ? byte : UInt8(ascii: "%")
        let length: UInt32 = isUnreserved(byte) ? 1 : 3
        return UInt32(first) | UInt32(upperHex(byte >> 4)) << 8 | UInt32(upperHex(byte & 0x0F)) << 16 | length << 24
    }
    static let allowedRawTable: [Bool] = table(allowedRaw)
    static let hexValueTable: [UInt8] = table { hexValue($0) ?? 0xFF }

    // MARK: template

    /// The input format of the `template` target: `TEMPLATE (NUL ITEM)*`, ITEM = `key=value` or `key` (nil).
    /// Later items win. Both parts are made into Strings (ill-formed UTF-8 becomes U+FFFD).
    public static func splitTemplateInput(_ bytes: [UInt8]) -> (template: String, values: [String: String?]) {
        bytes.withUnsafeBufferPointer(splitTemplateInput)
    }

    public static func splitTemplateInput(_ b: UnsafeBufferPointer<UInt8>) -> (template: String, values: [String: String?]) {
        func string(_ range: Range<Int>) -> String { EncodingInvariants.string(UnsafeBufferPointer(rebasing: b[range])) }
        var end = firstIndex(of: 0, in: b, from: 0)
        let template = string(0..<end)
        var items = 0  // counted first, so that the dictionary is allocated once
        var nul = end
        while nul < b.count {
            items += 1
            nul = firstIndex(of: 0, in: b, from: nul + 1)
        }
        var values = [String: String?](minimumCapacity: items)
        while end < b.count {  // b[end] is a NUL: an item follows
            let start = end + 1
            end = firstIndex(of: 0, in: b, from: start)
            let eq = firstIndex(of: UInt8(ascii: "="), in: UnsafeBufferPointer(rebasing: b[..<end]), from: start)
            if eq < end {
                values[string(start..<eq)] = .some(string((eq + 1)..<end))
            } else {
                values[string(start..<end)] = .some(nil)
            }
        }
        return (template, values)
    }

    public static func checkTemplate(_ bytes: [UInt8]) -> HarnessFailure? { checkTemplate(bytes, as: ShieldTextTemplate.self) }

    public static func checkTemplate<Template: ShieldTextTemplateUnderTest>(_ bytes: [UInt8], as template: Template.Type) -> HarnessFailure? {
        bytes.withUnsafeBufferPointer { checkTemplate($0, as: template) }
    }

    /// The checks on bytes in place (libFuzzer's buffer: no copy into an array).
    public static func checkTemplate<Template: ShieldTextTemplateUnderTest>(_ bytes: UnsafeBufferPointer<UInt8>, as _: Template.Type) -> HarnessFailure? {
        let (text, values) = splitTemplateInput(bytes)
        let template = Template(text)
        let rendering = template.render(values)
        let keys = template.keys

        // Each key's position in `keys`. A key listed twice is a difference from the naive parser (below).
        let position = KeyPositions(keys)

        // The naive renderer, an independent reading of SPEC §4: the rendering must be its text; `keys` its keys
        // in order of first appearance, each once; `missing` exactly those keys without a value, each once, in
        // that order. Compared piece by piece without building anything; what differs is only worked out on
        // failure, by ``diagnoseNaiveDifference``.
        if !position.keysAreUnique || !matchesNaive(text, values, rendering, keys, position) {
            return diagnoseNaiveDifference(text, values, rendering, keys)
        }

        // Two more renderings would be due, each with its own parse or render:
        // - No re-scan, order-independence: values replaced by opaque stand-ins (NUL cannot occur in the
        //   template), then substituted back, give the same text. Stand-in n is NUL, n in decimal, NUL;
        //   originals[n] its value. (When no value is non-empty there is nothing to stand in for.)
        // - A key without a value never shows its name: renaming every such key (in the placeholders only) to a
        //   fresh name changes nothing. Valid because the naive parser agreed with the reference above, so the
        //   keys without a value are `rendering.missing`, and `keys` are the template's keys.
        // They are made as one: the renamed template rendered with the stand-ins, substituted back, must give
        // the same text. The two changes touch disjoint placeholders (stand-ins replace only non-empty values,
        // renaming only keys without one), so a correct renderer passes; a renderer that re-scans values or
        // depends on their text shows it in the substituted text, one that shows a key's name shows a `zzN`
        // there, and neither can come from the other change. (`FuzzCorpusTests` plants both bugs: each is
        // still caught, and named, since the checks are made apart once the joint one failed.)
        let hasValues = values.values.contains { ($0 ?? "").isEmpty == false }
        if hasValues || !rendering.missing.isEmpty {
            let renaming = !rendering.missing.isEmpty
            guard let same = substitutesBack(template, text, values, rendering, position, standIns: hasValues, renaming: renaming) else {
                return HarnessFailure("missing lists a key that is not in keys", "\(rendering.missing)")
            }
            if !same {
                if hasValues, substitutesBack(template, text, values, rendering, position, standIns: true, renaming: false) == false {
                    return HarnessFailure("substituted text was re-scanned or depends on the values' text", "template \(preview(text))")
                }
                if renaming, substitutesBack(template, text, values, rendering, position, standIns: false, renaming: true) == false {
                    return HarnessFailure("the name of a key without a value shows in the output", "keys \(rendering.missing), template \(preview(text))")
                }
                return HarnessFailure(
                    "rendering with stand-ins for the values and fresh names for the keys without one differs", "template \(preview(text))")
            }
        }
        return nil
    }

    /// Each key's position in `keys`: found by a linear search while there are few keys (nothing to build), by a
    /// dictionary past that.
    struct KeyPositions {
        let keys: [String]
        let index: [String: Int]?
        /// Whether no key is listed twice.
        let keysAreUnique: Bool

        init(_ keys: [String]) {
            self.keys = keys
            if keys.count <= 8 {
                index = nil
                keysAreUnique = keys.indices.allSatisfy { k in !keys[..<k].contains(keys[k]) }
            } else {
                var index = [String: Int](minimumCapacity: keys.count)
                var unique = true
                for (k, key) in keys.enumerated() where index.updateValue(k, forKey: key) != nil { unique = false }
                self.index = index
                keysAreUnique = unique
            }
        }

        subscript(key: String) -> Int? {
            if let index { return index[key] }
            return keys.firstIndex(of: key)
        }
    }

    /// The stand-in and renaming checks of ``checkTemplate(_:as:)``, either or both: the template, with each key
    /// without a value renamed to a fresh name when `renaming`, rendered with `values` in which each non-empty
    /// value is replaced by an opaque stand-in when `standIns`, and with the stand-ins put back, gives
    /// `rendering.text`. Nil when `rendering.missing` lists a key that is not in `keys`. (`mapValues` keeps the
    /// dictionary's layout: no key is hashed again, and the result is a fresh dictionary that renaming changes
    /// in place.)
    static func substitutesBack<Template: ShieldTextTemplateUnderTest>(
        _ template: Template, _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering,
        _ position: KeyPositions, standIns: Bool, renaming: Bool
    ) -> Bool? {
        withUnsafeTemporaryAllocation(of: String.self, capacity: values.count) { originals -> Bool? in
            var n = 0
            // Without stand-ins, `values` itself (copied only if renaming moves an entry).
            var standInValues = !standIns ? values : values.mapValues { value -> String? in
                guard let value, !value.isEmpty else { return value }
                originals.initializeElement(at: n, to: value)
                n += 1
                return standIn(n - 1)
            }
            defer { _ = originals.baseAddress.map { $0.deinitialize(count: n) } }
            let opaque: String
            if renaming {
                guard let renamedText = renamingKeysWithoutValue(text, values, rendering, position, moving: &standInValues) else { return nil }
                opaque = Template(renamedText).render(standInValues).text
            } else {
                opaque = template.render(standInValues).text
            }
            return withUTF8(opaque) { o in
                withUTF8(rendering.text) { matchesSubstituted(o, UnsafeBufferPointer(rebasing: originals[..<n]), $0) }
            }
        }
    }

    /// Stand-in `n`: NUL, `n` in decimal, NUL. Written straight into a small string (inputs are long for
    /// `String(n)` and two concatenations per value: an input can hold hundreds of items).
    static func standIn(_ n: Int) -> String {
        guard n >= 0, n < 1_000_000 else { return "\u{0}" + String(n) + "\u{0}" }
        return String(unsafeUninitializedCapacity: 8) { out in
            var digits = 1
            var rest = n / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            out[0] = 0
            var value = n
            for k in stride(from: digits, to: 0, by: -1) {
                out[k] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            out[digits + 1] = 0
            return digits + 2
        }
    }

    /// `text` with every key without a value (`rendering.missing`) renamed, in its placeholders, to a fresh
    /// name (`zz` and a number, in neither `values` nor the template's keys), each key's entry in `moved` (if
    /// any, so nil or empty) moved to its new name. Nil when a missing key is not in `keys`.
    static func renamingKeysWithoutValue(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering, _ position: KeyPositions,
        moving moved: inout [String: String?]
    ) -> String? {
        withUnsafeTemporaryAllocation(of: String?.self, capacity: position.keys.count) { renamed -> String? in
            renamed.initialize(repeating: nil)  // by position in `keys`
            defer { renamed.deinitialize() }
            var fresh = 0
            var longestName = 0
            for key in rendering.missing {
                var name: String
                repeat {
                    name = "zz" + String(fresh)
                    fresh += 1
                } while values[name] != nil || position[name] != nil
                guard let k = position[key] else { return nil }  // cannot happen once matchesNaive agreed
                renamed[k] = name
                longestName = max(longestName, name.utf8.count)
                // A nil or empty value moves to the new name (still no value); an absent one stays absent.
                if let entry = moved[key] {
                    moved[key] = nil
                    moved[name] = entry
                }
            }
            return withUTF8(text) { t in
                NaiveTemplate.unparse(t, longestName: longestName) { key in position[key].flatMap { renamed[$0] } }
            }
        }
    }

    static func hasNoValue(_ key: String, _ values: [String: String?]) -> Bool {
        guard let entry = values[key], let value = entry else { return true }
        return value.isEmpty
    }

    /// Whether `rendering` and `keys` are what the naive renderer makes of `text` and `values` (see
    /// ``checkTemplate(_:as:)``), checked in one walk over the naive parser's pieces: each piece's output is
    /// compared in place with the next bytes of `rendering.text`; a placeholder's key must be in `keys`, and the
    /// first time it appears it must be the next key of `keys` not met yet, and, when it has no value, the next
    /// of `rendering.missing`. `position` maps each of `keys` (which are distinct) to its index.
    static func matchesNaive(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering, _ keys: [String], _ position: KeyPositions
    ) -> Bool {
        // A key's value, looked up once: `values[keys[k]]` is `values[key]` when `position[key] == k`.
        withUnsafeTemporaryAllocation(of: String?.self, capacity: keys.count) { value in
            for (k, key) in keys.enumerated() {
                let entry = values[key] ?? nil
                value.initializeElement(at: k, to: entry.flatMap { $0.isEmpty ? nil : $0 })
            }
            defer { _ = value.baseAddress.map { $0.deinitialize(count: keys.count) } }
            return withUTF8(text) { t in
                withUTF8(rendering.text) { out in
                    var o: Int? = 0  // bytes of the rendering matched so far; nil once something differed
                    var met = 0  // keys met so far: keys[..<met]
                    var m = 0  // entries of `missing` matched so far
                    var pieces = NaiveTemplate.Pieces(t)
                    while let at = o, let piece = pieces.next() {
                        switch piece {
                        case .literal(let range):
                            o = continues(out, at: at, with: t[range])
                        case .placeholder(let keyRange, let fallback):
                            let key = String(decoding: UnsafeBufferPointer(rebasing: t[keyRange]), as: UTF8.self)
                            guard let k = position[key], k <= met else { return false }  // unknown, or met too early
                            let isFirst = k == met
                            if isFirst { met += 1 }
                            if let found = value[k] {
                                o = withUTF8(found) { continues(out, at: at, with: $0[...]) }
                            } else {
                                if isFirst {  // a key without a value, met for the first time: the next missing one
                                    guard m < rendering.missing.count, rendering.missing[m] == key else { return false }
                                    m += 1
                                }
                                if let fallback { o = continues(out, at: at, with: t[fallback]) }
                            }
                        }
                    }
                    return o == out.count && met == keys.count && m == rendering.missing.count
                }
            }
        }
    }

    /// `at + part.count` when `out` goes on at `at` with `part`, else nil.
    static func continues(_ out: UnsafeBufferPointer<UInt8>, at: Int, with part: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard part.count <= out.count - at, equal(UnsafeBufferPointer(rebasing: part), UnsafeBufferPointer(rebasing: out[at..<(at + part.count)])) else {
            return nil
        }
        return at + part.count
    }

    /// What ``matchesNaive`` found different, worked out with the naive renderer's own lists (only on failure).
    static func diagnoseNaiveDifference(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering, _ keys: [String]
    ) -> HarnessFailure {
        let naive = NaiveTemplate(Array(text.utf8))
        let expected = naive.render(values)
        if !sameBytes(rendering.text, expected.text) {
            return HarnessFailure(
                "rendering differs from the naive renderer",
                "template \(preview(text)): got \(preview(rendering.text)), expected \(preview(expected.text))")
        }
        // The naive list holds each key once by construction, so equal to it means no duplicates.
        if rendering.missing != expected.missing {
            if Set(rendering.missing).count != rendering.missing.count {
                return HarnessFailure("missing lists a key twice", "\(rendering.missing)")
            }
            return HarnessFailure("missing is not the keys without a value in order of first appearance", "got \(rendering.missing), expected \(expected.missing)")
        }
        if keys != naive.keys { return HarnessFailure("keys differ from the naive parser", "got \(keys)") }
        return HarnessFailure("rendering, keys and missing agree with the naive renderer, but not piece by piece", "template \(preview(text))")
    }

    /// Whether `text` with every stand-in (NUL, n in decimal without leading zeros, NUL, n < originals.count)
    /// replaced by `originals[n]` is `expected`; any other NUL stays a NUL.
    static func matchesSubstituted(_ text: UnsafeBufferPointer<UInt8>, _ originals: [String], _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
        originals.withUnsafeBufferPointer { matchesSubstituted(text, $0, expected) }
    }

    static func matchesSubstituted(_ text: UnsafeBufferPointer<UInt8>, _ originals: UnsafeBufferPointer<String>, _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        var e = 0
        /// Whether `expected[e...]` starts with `part`; moves `e` past it.
        func consume(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
            guard part.count <= expected.count - e else { return false }
            guard equal(part, UnsafeBufferPointer(rebasing: expected[e..<(e + part.count)])) else { return false }
            e += part.count
            return true
        }
        while i < text.count {
            let nul = firstIndex(of: 0, in: text, from: i)
            guard consume(UnsafeBufferPointer(rebasing: text[i..<nul])) else { return false }
            i = nul
            if i == text.count { break }
            let end = firstIndex(of: 0, in: text, from: i + 1)
            if end < text.count, let n = decimal(UnsafeBufferPointer(rebasing: text[(i + 1)..<end])), n < originals.count {
                guard withUTF8(originals[n], consume) else { return false }
                i = end + 1
            } else {
                guard consume(UnsafeBufferPointer(rebasing: text[i..<(i + 1)])) else { return false }
                i += 1
            }
        }
        return e == expected.count
    }

    /// The value of canonical decimal digits (no sign, no leading zero unless just "0"), nil otherwise.
    static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 6, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        var n = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(d - UInt8(ascii: "0"))
        }
        return n
    }

    /// A second shield-text template implementation, written for clarity: at each `{`, look at the text up to
    /// the next brace; if that brace is `}` and the text is `key` or `key|fallback` with a valid key, it is a
    /// placeholder; otherwise the `{` is literal. Pieces are ranges of the template's bytes.
    struct NaiveTemplate {
        enum Piece {
            case literal(Range<Int>)
            case placeholder(key: Range<Int>, fallback: Range<Int>?)
        }

        static func isKeyByte(_ c: UInt8) -> Bool {
            isUnreserved(c) && c != UInt8(ascii: "~")
        }

        static let keyByteTable: [Bool] = table(isKeyByte)

        /// The pieces of template `t`, in order.
        struct Pieces: IteratorProtocol {
            let t: UnsafeBufferPointer<UInt8>
            /// The next `{` to look at, or `t.count`.
            var i: Int
            /// Where the current literal began.
            var literalStart = 0
            /// A placeholder found after a literal, returned next.
            var pending: Piece?

            init(_ t: UnsafeBufferPointer<UInt8>) {
                self.t = t
                i = firstIndex(of: UInt8(ascii: "{"), in: t, from: 0)
            }

            mutating func next() -> Piece? {
                if let piece = pending {
                    pending = nil
                    return piece
                }
                while i < t.count {  // t[i] is a `{`
                    let start = i
                    let nextOpen = firstIndex(of: UInt8(ascii: "{"), in: t, from: i + 1)
                    i = nextOpen  // the first `{` after this one, so also the first after a placeholder that ends before it
                    // The next brace is a `}` when there is one before the next `{`.
                    let close = firstIndex(of: UInt8(ascii: "}"), in: UnsafeBufferPointer(rebasing: t[..<nextOpen]), from: start + 1)
                    guard close < nextOpen else { continue }
                    let bar = firstIndex(of: UInt8(ascii: "|"), in: UnsafeBufferPointer(rebasing: t[..<close]), from: start + 1)
                    let key = UnsafeBufferPointer(rebasing: t[(start + 1)..<bar])
                    guard !key.isEmpty, keyByteTable.withUnsafeBufferPointer({ isKey in key.allSatisfy { isKey[Int($0)] } }) else { continue }
                    let placeholder = Piece.placeholder(key: (start + 1)..<bar, fallback: bar < close ? (bar + 1)..<close : nil)
                    let literal = literalStart..<start
                    literalStart = close + 1
                    if literal.isEmpty { return placeholder }
                    pending = placeholder
                    return .literal(literal)
                }
                guard literalStart < t.count else { return nil }
                defer { literalStart = t.count }
                return .literal(literalStart..<t.count)
            }
        }

        /// Template `t` with the key of each placeholder for which `newName` gives a name replaced by that name
        /// (at most `longestName` bytes).
        static func unparse(_ t: UnsafeBufferPointer<UInt8>, longestName: Int, _ newName: (String) -> String?) -> String {
            // A placeholder is at least 3 bytes and its key at least 1: renaming adds at most `longestName - 1`
            // bytes to each.
            let capacity = t.count + (t.count / 3) * max(longestName - 1, 0)
            if capacity == 0 { return "" }
            return String(unsafeUninitializedCapacity: capacity) { out in
                var o = 0
                var pieces = Pieces(t)
                while let piece = pieces.next() {
                    switch piece {
                    case .literal(let range): o = write(t[range], to: out, at: o)
                    case .placeholder(let keyRange, let fallback):
                        out[o] = UInt8(ascii: "{")
                        o += 1
                        if let name = newName(String(decoding: UnsafeBufferPointer(rebasing: t[keyRange]), as: UTF8.self)) {
                            o = withUTF8(name) { write($0[...], to: out, at: o) }
                        } else {
                            o = write(t[keyRange], to: out, at: o)
                        }
                        if let fallback {
                            out[o] = UInt8(ascii: "|")
                            o = write(t[fallback], to: out, at: o + 1)
                        }
                        out[o] = UInt8(ascii: "}")
                        o += 1
                    }
                }
                return o
            }
        }

        /// Copies `part` to `out` at `o`; the offset after it.
        static func write(_ part: Slice<UnsafeBufferPointer<UInt8>>, to out: UnsafeMutableBufferPointer<UInt8>, at o: Int) -> Int {
            guard let base = part.base.baseAddress, let target = out.baseAddress, !part.isEmpty else { return o }
            UnsafeMutableRawPointer(target + o).copyMemory(from: base + part.startIndex, byteCount: part.count)
            return o + part.count
        }

        // The same, as lists: for the tests and for saying what differs once a check failed.

        let bytes: [UInt8]
        let pieces: [Piece]
        /// The placeholder keys in order of first appearance, each once.
        let keys: [String]

        init(_ t: [UInt8]) {
            bytes = t
            var pieces: [Piece] = []
            var keys: [String] = []
            t.withUnsafeBufferPointer { t in
                var iterator = Pieces(t)
                while let piece = iterator.next() {
                    pieces.append(piece)
                    if case .placeholder(let key, _) = piece {
                        let name = String(decoding: UnsafeBufferPointer(rebasing: t[key]), as: UTF8.self)
                        if !keys.contains(name) { keys.append(name) }
                    }
                }
            }
            self.pieces = pieces
            self.keys = keys
        }

        func render(_ values: [String: String?]) -> (text: [UInt8], missing: [String]) {
            var text: [UInt8] = []
            var missing: [String] = []
            for piece in pieces {
                switch piece {
                case .literal(let range): text += bytes[range]
                case .placeholder(let keyRange, let fallback):
                    let key = String(decoding: bytes[keyRange], as: UTF8.self)
                    if !hasNoValue(key, values), let entry = values[key], let value = entry {
                        text += value.utf8
                    } else {
                        if !missing.contains(key) { missing.append(key) }
                        if let fallback { text += bytes[fallback] }
                    }
                }
            }
            return (text, missing)
        }
    }

    // MARK: Messages

    static func hex2(_ b: UInt8) -> String { String(decoding: [upperHex(b >> 4), upperHex(b & 0x0F)], as: UTF8.self) }

    static func hexPreview(_ bytes: some Collection<UInt8>) -> String {
        bytes.prefix(48).map(hex2).joined(separator: " ") + (bytes.count > 48 ? " … (\(bytes.count) bytes)" : "")
    }

    /// Printable ASCII as is, anything else as `\xNN`, at most 120 bytes.
    static func preview(_ bytes: some Collection<UInt8>) -> String {
        var out = "\""
        for b in bytes.prefix(120) {
            if b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "\\x" + hex2(b)
            }
        }
        return out + "\"" + (bytes.count > 120 ? " … (\(bytes.count) bytes)" : "")
    }

    static func preview(_ text: String) -> String { preview(text.utf8) }
}
