import ScreenTimeReference

extension FuzzTargets {
    /// `url`: the bytes both as a string to percent-encode and as an encoded component to decode (SPEC §4).
    ///
    /// Invariants: decode(encode(s)) == s byte for byte; the encoder writes only unreserved ASCII and `%` with two
    /// upper-case hex digits, one escape per byte it did not keep; decoding is total (a string or a typed error
    /// pointing into the input) and agrees with a naive second decoder written here; decoding what the encoder
    /// wrote never fails; raw bytes round-trip when they are UTF-8 and fail with `invalidUTF8` when not.
    public static let url = FuzzTarget(
        name: "url", summary: "bytes as text to percent-encode and as a component to decode: round trip, alphabet, strict decode"
    ) { bytes in
        EncodingInvariants.checkURL(bytes)
    }

    /// `template`: the bytes split at NUL into a shield-text template and `key=value` items (an item without
    /// `=` maps its key to `nil`); the template is rendered and checked against a second, naive renderer.
    ///
    /// Invariants: the rendering equals the naive one; values are copied verbatim and never re-scanned (rendering
    /// with opaque stand-ins and substituting the values back gives the same text); a key that has no value never
    /// leaks its name (renaming it changes nothing); `missing` is exactly the keys without a value, each once, in
    /// order of first appearance. Rendering is linear (libFuzzer's `-timeout` catches anything worse).
    public static let template = FuzzTarget(
        name: "template", summary: "bytes as a shield-text template + NUL-separated key=value items: one pass, no leaks, missing keys"
    ) { bytes in
        EncodingInvariants.checkTemplate(bytes)
    }
}

/// The invariants behind the `url` and `template` fuzz targets; `public` so that property tests can reuse them.
public enum EncodingInvariants {
    // MARK: url

    public static func checkURL(_ bytes: [UInt8]) -> HarnessFailure? {
        // 1. As text: any bytes, made into a String (ill-formed UTF-8 becomes U+FFFD).
        let text = String(decoding: bytes, as: UTF8.self)
        let encoded = PercentEncoding.encodeComponent(text)
        if let failure = checkEncoderOutput(Array(encoded.utf8), of: Array(text.utf8)) { return failure }
        do throws(PercentDecodingError) {
            let decoded = try PercentEncoding.decodeComponent(encoded)
            if !decoded.utf8.elementsEqual(text.utf8) {
                return HarnessFailure("decode(encode(s)) != s", "s = \(hexPreview(Array(text.utf8))), got \(hexPreview(Array(decoded.utf8)))")
            }
        } catch {
            return HarnessFailure("decoding the encoder's output failed", "\(error); encoded \(preview(encoded))")
        }

        // 2. As raw bytes (not necessarily UTF-8): the encoder still keeps its alphabet, and the decoder gives the
        //    bytes back when they are UTF-8 and says invalidUTF8 when they are not.
        let rawEncoded = PercentEncoding.encodeComponent(bytes: bytes)
        if let failure = checkEncoderOutput(Array(rawEncoded.utf8), of: bytes) { return failure }
        let isUTF8 = text.utf8.elementsEqual(bytes)
        do throws(PercentDecodingError) {
            let decoded = try PercentEncoding.decodeComponent(rawEncoded)
            if !isUTF8 { return HarnessFailure("ill-formed UTF-8 decoded without an error", hexPreview(bytes)) }
            if !decoded.utf8.elementsEqual(bytes) { return HarnessFailure("decode(encode(bytes)) != bytes", hexPreview(bytes)) }
        } catch {
            if isUTF8 { return HarnessFailure("decoding the encoder's output failed", "\(error); encoded \(preview(rawEncoded))") }
            if error.code != .invalidUTF8 {
                return HarnessFailure("encoded ill-formed UTF-8 failed with \(error.code), not invalidUTF8", "\(error)")
            }
        }

        // 3. As an encoded component: decoding is total and agrees with the naive decoder below.
        let expected = naiveDecode(bytes)
        do throws(PercentDecodingError) {
            let decoded = try PercentEncoding.decodeComponent(utf8: bytes)
            switch expected {
            case .decoded(let value):
                if !decoded.utf8.elementsEqual(value) {
                    return HarnessFailure("decode differs from the naive decoder", "input \(preview(bytes))")
                }
            case .rejected(let code):
                return HarnessFailure("decode accepted an invalid component", "naive decoder: \(code); input \(preview(bytes))")
            }
            // What decodes, re-encoded, decodes to the same text.
            let again = Result { () throws(PercentDecodingError) in try PercentEncoding.decodeComponent(PercentEncoding.encodeComponent(decoded)) }
            if case .success(let value) = again, value.utf8.elementsEqual(decoded.utf8) {} else {
                return HarnessFailure("decode(encode(decode(x))) != decode(x)", preview(bytes))
            }
        } catch {
            if case .decoded = expected {
                return HarnessFailure("decode rejected a valid component", "\(error); input \(preview(bytes))")
            }
            if let failure = checkDecodingError(error, input: bytes, naive: expected) { return failure }
        }
        return nil
    }

    /// The encoder's output: only unreserved ASCII, or `%` and two upper-case hex digits encoding exactly the
    /// byte that was not kept; one output unit per input byte.
    static func checkEncoderOutput(_ out: [UInt8], of input: [UInt8]) -> HarnessFailure? {
        var o = 0
        for byte in input {
            if PercentEncoding.isUnreserved(byte) {
                guard o < out.count, out[o] == byte else {
                    return HarnessFailure("encoder did not keep an unreserved byte", "byte 0x\(hex2(byte)) at output \(o)")
                }
                o += 1
            } else {
                guard o + 2 < out.count, out[o] == UInt8(ascii: "%"), out[o + 1] == upperHex(byte >> 4), out[o + 2] == upperHex(byte & 0x0F)
                else {
                    return HarnessFailure("encoder did not write %XX (upper-case hex) for a reserved byte", "byte 0x\(hex2(byte)) at output \(o): \(preview(Array(out[min(o, out.count)...].prefix(8))))")
                }
                o += 3
            }
        }
        if o != out.count { return HarnessFailure("encoder wrote extra bytes", "\(out.count - o) after the last escape") }
        return nil
    }

    /// A typed decoding error must point at the byte that explains it.
    static func checkDecodingError(_ error: PercentDecodingError, input: [UInt8], naive: NaiveDecoding) -> HarnessFailure? {
        guard error.offset >= 0, error.offset < input.count else {
            return HarnessFailure("decoding error offset outside the input", "\(error), input \(input.count) bytes")
        }
        let at = input[error.offset]
        switch error.reason {
        case .malformedEscape:
            if at != UInt8(ascii: "%") { return HarnessFailure("malformedEscape does not point at a '%'", "\(error); input \(preview(input))") }
        case .unencodedCharacter:
            if at == UInt8(ascii: "%") || allowedRaw(at) {
                return HarnessFailure("unencodedCharacter points at a byte that may appear raw", "\(error); input \(preview(input))")
            }
        case .invalidUTF8:
            // Only escapes can make bytes >= 0x80, so an ill-formed sequence starts at a '%'.
            if at != UInt8(ascii: "%") { return HarnessFailure("invalidUTF8 does not point at a '%'", "\(error); input \(preview(input))") }
            // When every escape and raw character is fine, the UTF-8 check is what failed.
        }
        if case .rejected(.invalidUTF8) = naive, error.code != .invalidUTF8 {
            return HarnessFailure("well-formed escapes of ill-formed UTF-8 reported as \(error.code)", "\(error); input \(preview(input))")
        }
        return nil
    }

    enum NaiveDecoding {
        case decoded([UInt8])
        case rejected(PercentDecodingError.Code)
    }

    /// Decodes in two separate passes (escapes and raw characters, then UTF-8 validation by the standard library),
    /// nothing shared with the reference: a second opinion.
    static func naiveDecode(_ input: [UInt8]) -> NaiveDecoding {
        var out: [UInt8] = []
        var i = 0
        while i < input.count {
            let c = input[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < input.count, let h = hexValue(input[i + 1]), let l = hexValue(input[i + 2]) else {
                    return .rejected(.invalidPercentEncoding)
                }
                out.append(h * 16 + l)
                i += 3
            } else if allowedRaw(c) {
                out.append(c)
                i += 1
            } else {
                return .rejected(.invalidPercentEncoding)
            }
        }
        // The standard library repairs ill-formed UTF-8; a repair changes the bytes.
        if !String(decoding: out, as: UTF8.self).utf8.elementsEqual(out) { return .rejected(.invalidUTF8) }
        return .decoded(out)
    }

    /// RFC 3986 query characters that may appear unencoded: unreserved, sub-delims and `: @ / ?`.
    static func allowedRaw(_ c: UInt8) -> Bool {
        PercentEncoding.isUnreserved(c) || "!$&'()*+,;=:@/?".utf8.contains(c)
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

    // MARK: template

    /// The input format of the `template` target: `TEMPLATE (NUL ITEM)*`, ITEM = `key=value` or `key` (nil).
    /// Later items win. Both parts are made into Strings (ill-formed UTF-8 becomes U+FFFD).
    public static func splitTemplateInput(_ bytes: [UInt8]) -> (template: String, values: [String: String?]) {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        let template = String(decoding: parts.first ?? [], as: UTF8.self)
        var values: [String: String?] = [:]
        for item in parts.dropFirst() {
            if let eq = item.firstIndex(of: UInt8(ascii: "=")) {
                values[String(decoding: item[..<eq], as: UTF8.self)] = .some(String(decoding: item[(eq + 1)...], as: UTF8.self))
            } else {
                values[String(decoding: item, as: UTF8.self)] = .some(nil)
            }
        }
        return (template, values)
    }

    public static func checkTemplate(_ bytes: [UInt8]) -> HarnessFailure? {
        let (text, values) = splitTemplateInput(bytes)
        let template = ShieldTextTemplate(text)
        let rendering = template.render(values)

        // The naive renderer: an independent reading of SPEC §4.
        let pieces = NaiveTemplate.parse(Array(text.utf8))
        let expected = NaiveTemplate.render(pieces, values)
        if !rendering.text.utf8.elementsEqual(expected.text) {
            return HarnessFailure(
                "rendering differs from the naive renderer",
                "template \(preview(Array(text.utf8))): got \(preview(Array(rendering.text.utf8))), expected \(preview(expected.text))")
        }

        // missing: no duplicates, exactly the keys without a value, in order of first appearance.
        if Set(rendering.missing).count != rendering.missing.count {
            return HarnessFailure("missing lists a key twice", "\(rendering.missing)")
        }
        if rendering.missing != expected.missing {
            return HarnessFailure("missing is not the keys without a value in order of first appearance", "got \(rendering.missing), expected \(expected.missing)")
        }
        let keys = template.keys
        if keys != NaiveTemplate.keys(pieces) { return HarnessFailure("keys differ from the naive parser", "got \(keys)") }
        if rendering.missing != keys.filter({ hasNoValue($0, values) }) {
            return HarnessFailure("missing disagrees with keys and values", "missing \(rendering.missing), keys \(keys)")
        }

        // No re-scan, order-independence: values replaced by opaque stand-ins (NUL cannot occur in the template),
        // then substituted back, give the same text.
        var standIns: [String: String?] = [:]
        var backs: [[UInt8]: [UInt8]] = [:]
        for (n, (key, value)) in values.enumerated() {
            guard let value, !value.isEmpty else {
                standIns[key] = value
                continue
            }
            let standIn: [UInt8] = [0] + Array(String(n).utf8) + [0]
            standIns[key] = .some(String(decoding: standIn, as: UTF8.self))
            backs[standIn] = Array(value.utf8)
        }
        let opaque = Array(template.render(standIns).text.utf8)
        let substituted = substituteStandIns(opaque, backs)
        if !rendering.text.utf8.elementsEqual(substituted) {
            return HarnessFailure("substituted text was re-scanned or depends on the values' text", "template \(preview(Array(text.utf8)))")
        }

        // A key without a value never shows its name: renaming every such key (in the placeholders only) to a
        // fresh name changes nothing. Valid because the naive parser agreed with the reference above.
        let missingKeys = Set(rendering.missing)
        if !missingKeys.isEmpty {
            var fresh = 0
            var renamed: [String: String] = [:]
            for key in keys where missingKeys.contains(key) {
                var name: String
                repeat {
                    name = "zz\(fresh)"
                    fresh += 1
                } while values[name] != nil || keys.contains(name)
                renamed[key] = name
            }
            var renamedValues = values
            for (key, name) in renamed {
                renamedValues[name] = values[key]  // nil, empty, or absent: still no value
                renamedValues[key] = nil
            }
            let renamedText = NaiveTemplate.unparse(pieces, renaming: renamed)
            let other = ShieldTextTemplate(String(decoding: renamedText, as: UTF8.self)).render(renamedValues)
            if !other.text.utf8.elementsEqual(rendering.text.utf8) {
                return HarnessFailure(
                    "the name of a key without a value shows in the output", "keys \(rendering.missing), template \(preview(Array(text.utf8)))")
            }
        }
        return nil
    }

    static func hasNoValue(_ key: String, _ values: [String: String?]) -> Bool {
        guard let entry = values[key], let value = entry else { return true }
        return value.isEmpty
    }

    static func substituteStandIns(_ text: [UInt8], _ backs: [[UInt8]: [UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < text.count {
            if text[i] == 0, let end = text[(i + 1)...].firstIndex(of: 0), let value = backs[Array(text[i...end])] {
                out.append(contentsOf: value)
                i = end + 1
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }

    /// A second shield-text template implementation, written for clarity: at each `{`, look at the text up to
    /// the next brace; if that brace is `}` and the text is `key` or `key|fallback` with a valid key, it is a
    /// placeholder; otherwise the `{` is literal.
    enum NaiveTemplate {
        enum Piece {
            case literal([UInt8])
            case placeholder(key: [UInt8], fallback: [UInt8]?)
        }

        static func isKeyByte(_ c: UInt8) -> Bool {
            PercentEncoding.isUnreserved(c) && c != UInt8(ascii: "~")
        }

        static func parse(_ t: [UInt8]) -> [Piece] {
            var pieces: [Piece] = []
            var literal: [UInt8] = []
            var i = 0
            while i < t.count {
                if t[i] == UInt8(ascii: "{"),
                    let next = t[(i + 1)...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }),
                    t[next] == UInt8(ascii: "}")
                {
                    let inside = t[(i + 1)..<next]
                    let bar = inside.firstIndex(of: UInt8(ascii: "|"))
                    let key = inside[..<(bar ?? next)]
                    if !key.isEmpty, key.allSatisfy(isKeyByte) {
                        if !literal.isEmpty { pieces.append(.literal(literal)) }
                        literal = []
                        pieces.append(.placeholder(key: Array(key), fallback: bar.map { Array(inside[($0 + 1)...]) }))
                        i = next + 1
                        continue
                    }
                }
                literal.append(t[i])
                i += 1
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            return pieces
        }

        static func render(_ pieces: [Piece], _ values: [String: String?]) -> (text: [UInt8], missing: [String]) {
            var text: [UInt8] = []
            var missing: [String] = []
            for piece in pieces {
                switch piece {
                case .literal(let bytes): text += bytes
                case .placeholder(let keyBytes, let fallback):
                    let key = String(decoding: keyBytes, as: UTF8.self)
                    if !hasNoValue(key, values), let entry = values[key], let value = entry {
                        text += Array(value.utf8)
                    } else {
                        if !missing.contains(key) { missing.append(key) }
                        text += fallback ?? []
                    }
                }
            }
            return (text, missing)
        }

        static func keys(_ pieces: [Piece]) -> [String] {
            var keys: [String] = []
            for case .placeholder(let key, _) in pieces {
                let name = String(decoding: key, as: UTF8.self)
                if !keys.contains(name) { keys.append(name) }
            }
            return keys
        }

        static func unparse(_ pieces: [Piece], renaming: [String: String]) -> [UInt8] {
            var out: [UInt8] = []
            for piece in pieces {
                switch piece {
                case .literal(let bytes): out += bytes
                case .placeholder(let keyBytes, let fallback):
                    let key = String(decoding: keyBytes, as: UTF8.self)
                    out.append(UInt8(ascii: "{"))
                    out += Array((renaming[key] ?? key).utf8)
                    if let fallback { out += [UInt8(ascii: "|")] + fallback }
                    out.append(UInt8(ascii: "}"))
                }
            }
            return out
        }
    }

    // MARK: Messages

    static func hex2(_ b: UInt8) -> String { String(decoding: [upperHex(b >> 4), upperHex(b & 0x0F)], as: UTF8.self) }

    static func hexPreview(_ bytes: [UInt8]) -> String {
        bytes.prefix(48).map(hex2).joined(separator: " ") + (bytes.count > 48 ? " … (\(bytes.count) bytes)" : "")
    }

    /// Printable ASCII as is, anything else as `\xNN`, at most 120 bytes.
    static func preview(_ bytes: [UInt8]) -> String {
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

    static func preview(_ text: String) -> String { preview(Array(text.utf8)) }
}
