import StrictJSON

/// Percent-encoding of one URL component (RFC 3986 §2.1), in pure Swift so coverage-guided fuzzing sees it.
///
/// **Encoding.** The text's UTF-8 bytes are written out one by one. A byte that is RFC 3986 *unreserved* ASCII
/// (`A–Z a–z 0–9 - . _ ~`, RFC 3986 §2.3) is kept; every other byte becomes `%XX` with upper-case hex (RFC 3986 §2.1: "URI producers
/// should use uppercase hexadecimal digits"). A space is `%20`, never `+`; `+` itself is `%2B`.
///
/// ```swift
/// PercentEncoding.encodeComponent("Café & Co")   // "Caf%C3%A9%20%26%20Co"
/// PercentEncoding.encodeComponent("C++")         // "C%2B%2B"
/// ```
///
/// The result is safe in any component of any URI (path segment, query name or value, fragment), because no
/// reserved character survives. Source: RFC 3986, `SPEC.md` §4.
///
/// **Decoding** is strict, and undoes any RFC 3986-conforming encoding of the component, not only ours:
/// - `%` must be followed by two hex digits, else ``PercentDecodingError/Code/invalidPercentEncoding``.
///   Lower-case hex (`%c3%a9`) **is accepted**: RFC 3986 §2.1 makes it equivalent to upper case, and only
///   producers are asked to use upper case. Escaped unreserved characters (`%41` for `A`) are accepted (RFC 3986 §2.3).
/// - A character may appear unencoded only if RFC 3986 allows it raw in a query component
///   (`pchar / "/" / "?"`, RFC 3986 §3.4): unreserved, the sub-delims `! $ & ' ( ) * + , ; =`, and `: @ / ?`.
///   A raw space, control, `` " # < > [ \ ] ^ ` { | } ``, DEL or any non-ASCII character **is rejected** as
///   ``PercentDecodingError/Code/invalidPercentEncoding``: it is not a URL component at all, and usually the
///   sign of a producer that forgot to encode (field bug 7: `CharacterSet.alphanumerics` applied scalar by scalar
///   lets `é` through).
///   This is stricter than Foundation's `removingPercentEncoding` and JavaScript's `decodeURIComponent`,
///   which both pass such characters through (**assumption**: the spec only names the two error codes;
///   we read "strict" as "the input must be a valid component").
/// - `+` is a literal plus. This is not `application/x-www-form-urlencoded`.
/// - The decoded bytes must be well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF),
///   else ``PercentDecodingError/Code/invalidUTF8``.
///
/// ```swift
/// try PercentEncoding.decodeComponent("Caf%C3%A9+%26")   // "Café+&"
/// try PercentEncoding.decodeComponent("100%")            // throws invalidPercentEncoding at byte 3
/// try PercentEncoding.decodeComponent("%C3%28")          // throws invalidUTF8 at byte 0
/// ```
///
/// For every string `s`, `decodeComponent(encodeComponent(s)) == s`.
public enum PercentEncoding {
    // MARK: Byte classes

    /// Bit 1: unreserved (kept by the encoder). Bit 2: allowed raw by the decoder (unreserved, sub-delims,
    /// `: @ / ?`). Bit 4: `%`. All other bytes 0.
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8 { table[Int(byte)] = 3 }
        for byte in "!$&'()*+,;=:@/?".utf8 { table[Int(byte)] = 2 }
        table[Int(UInt8(ascii: "%"))] = 4
        return table
    }()

    /// What the encoder writes for each byte, as bytes 0…2 of the entry, and in byte 3 how many of them count:
    /// the byte itself and 1 when it is unreserved, else `%`, its two upper-case hex digits and 3.
    private static let encodedUnits: [UInt32] = (0...255).map { byte in
        let hexDigits = UInt32(upperHex[byte >> 4]) << 8 | UInt32(upperHex[byte & 0x0F]) << 16
        return classes[byte] & 1 != 0 ? UInt32(byte) | 1 << 24 : UInt32(UInt8(ascii: "%")) | hexDigits | 3 << 24
    }

    /// 0…15 for an ASCII hex digit of either case, 0xFF otherwise.
    private static let hexValues: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "0123456789ABCDEF".utf8.enumerated() { table[Int(c)] = UInt8(i) }
        for (i, c) in "abcdef".utf8.enumerated() { table[Int(c)] = UInt8(10 + i) }
        return table
    }()

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// ``UTF8Lead`` as a table, one load instead of a chain of comparisons: for a byte that can start a
    /// multi-byte sequence, the continuation count in bits 0–7 and the first continuation's range in bits 8–15
    /// (lowest) and 16–23 (highest); 0 for any other byte.
    private static let utf8Leads: [UInt32] = (0...255).map { byte in
        guard let lead = UTF8Lead(UInt8(byte)) else { return 0 }
        return UInt32(lead.continuationCount) | UInt32(lead.firstContinuation.lowerBound) << 8
            | UInt32(lead.firstContinuation.upperBound) << 16
    }

    /// Whether `byte` is RFC 3986 unreserved ASCII (`A–Z a–z 0–9 - . _ ~`), the only bytes the encoder keeps.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    // MARK: Encoding

    /// Percent-encodes `text` for use as one URL component: unreserved ASCII kept, every other UTF-8 byte `%XX`.
    ///
    /// ```swift
    /// PercentEncoding.encodeComponent("日本")   // "%E6%97%A5%E6%9C%AC"
    /// ```
    /// Source: RFC 3986 §2.1 and §2.3, `SPEC.md` §4.
    public static func encodeComponent(_ text: String) -> String {
        var utf8 = text
        return utf8.withUTF8 { escaping($0) } ?? text  // nothing to encode: the text itself, not a copy
    }

    /// Percent-encodes arbitrary bytes (not necessarily UTF-8) as one URL component.
    ///
    /// ```swift
    /// PercentEncoding.encodeComponent(bytes: [0x00, 0xFF, 0x41])   // "%00%FFA"
    /// ```
    public static func encodeComponent(bytes: some Collection<UInt8>) -> String {
        if let result = bytes.withContiguousStorageIfAvailable({ encodeComponent(bytes: $0) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { encodeComponent(bytes: $0) }
    }

    private static func encodeComponent(bytes input: UnsafeBufferPointer<UInt8>) -> String {
        escaping(input) ?? String(decoding: input, as: UTF8.self)  // only unreserved ASCII: the bytes as they are
    }

    /// The encoding of `input`, or nil when every byte is kept (the encoding is `input` itself).
    private static func escaping(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        // Written once into a scratch buffer (at most 3 bytes per byte), then copied into the String. Without a
        // branch per byte (a branch is a coverage edge under the fuzzer, and was a traced comparison): a byte's
        // `encodedUnits` entry holds its three output units and how far to move on, so the two spare units of a
        // kept byte are overwritten by what follows.
        if input.isEmpty { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * input.count) { out -> String? in
            encodedUnits.withUnsafeBufferPointer { units -> String? in
                var o = 0
                for byte in input {
                    let entry = units[Int(byte)]
                    out[o] = UInt8(truncatingIfNeeded: entry)
                    out[o + 1] = UInt8(truncatingIfNeeded: entry >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: entry >> 16)
                    o += Int(entry >> 24)
                }
                if o == input.count { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<o]), as: UTF8.self)  // ASCII
            }
        }
    }

    // MARK: Decoding

    /// Decodes one percent-encoded URL component strictly (see ``PercentEncoding`` for the rules).
    ///
    /// ```swift
    /// try PercentEncoding.decodeComponent("%F0%9F%93%B1%20Phone")   // "📱 Phone"
    /// ```
    /// - Throws: ``PercentDecodingError`` with the code the wire sees and the byte offset in `text`.
    public static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PercentDecodingError) -> String in try decode(bytes) }
        }.get()
    }

    /// Decodes one percent-encoded URL component given as raw bytes (for example fuzzer input).
    /// Any byte outside the allowed ASCII set is rejected, so `text` need not be valid UTF-8.
    public static func decodeComponent(utf8 text: some Collection<UInt8>) throws(PercentDecodingError) -> String {
        let result: Result<String, PercentDecodingError>? = text.withContiguousStorageIfAvailable { bytes in
            Result { () throws(PercentDecodingError) -> String in try decode(bytes) }
        }
        if let result { return try result.get() }
        let copy = Array(text)
        return try copy.withUnsafeBufferPointer { (bytes) throws(PercentDecodingError) -> String in try decode(bytes) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> String {
        // Into a scratch buffer, then copied into the String: a component that does not decode allocates nothing.
        if input.isEmpty { return "" }
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: input.count) { out in
            hexValues.withUnsafeBufferPointer { hexTable in
                classes.withUnsafeBufferPointer { classTable in
                    utf8Leads.withUnsafeBufferPointer { leadTable in
                        Result { () throws(PercentDecodingError) -> String in
                            let count = try decode(
                                input, into: out, hexTable: hexTable, classTable: classTable, leadTable: leadTable)
                            // `decode` checked the bytes are well-formed UTF-8.
                            return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
                        }
                    }
                }
            }
        }
        return try result.get()
    }

    /// Decodes `input` into `out` (at least `input.count` bytes: decoding never lengthens); the number of bytes
    /// written.
    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
        hexTable: UnsafeBufferPointer<UInt8>, classTable: UnsafeBufferPointer<UInt8>,
        leadTable: UnsafeBufferPointer<UInt32>
    ) throws(PercentDecodingError) -> Int {
        let n = input.count
        var o = 0
        // Incremental UTF-8 check (RFC 3629 table 4) over the decoded bytes.
        var pending = 0  // continuation bytes still expected
        var low: UInt8 = 0x80  // allowed range of the next continuation byte
        var high: UInt8 = 0xBF
        var sequenceStart = 0  // input offset where the current UTF-8 sequence began

        var i = 0
        while i < n {
            let start = i
            let c = input[i]
            let byteClass = classTable[Int(c)]
            if byteClass & 2 != 0 {
                // Allowed raw, so ASCII: well-formed UTF-8 unless it interrupts a sequence.
                guard pending == 0 else { throw PercentDecodingError(.invalidUTF8, at: sequenceStart) }
                out[o] = c
                o += 1
                i += 1
                continue
            }
            guard byteClass == 4 else { throw PercentDecodingError(.unencodedCharacter, at: start) }
            guard i + 2 < n else { throw PercentDecodingError(.malformedEscape, at: start) }
            let h = hexTable[Int(input[i + 1])]
            let l = hexTable[Int(input[i + 2])]
            guard h | l < 0x10 else { throw PercentDecodingError(.malformedEscape, at: start) }  // both 0…15
            let byte = h << 4 | l
            i += 3

            if pending > 0 {
                // low <= byte <= high in one comparison: a byte below `low` wraps around to a large difference.
                guard byte &- low <= high &- low else { throw PercentDecodingError(.invalidUTF8, at: sequenceStart) }
                pending -= 1
                low = 0x80
                high = 0xBF
            } else if byte >= 0x80 {
                sequenceStart = start
                let lead = leadTable[Int(byte)]  // UTF8Lead(byte)
                guard lead != 0 else { throw PercentDecodingError(.invalidUTF8, at: start) }
                pending = Int(lead & 0xFF)
                low = UInt8(truncatingIfNeeded: lead >> 8)
                high = UInt8(truncatingIfNeeded: lead >> 16)
            }
            out[o] = byte
            o += 1
        }
        if pending > 0 { throw PercentDecodingError(.invalidUTF8, at: sequenceStart) }
        return o
    }
}

/// Why a URL component did not percent-decode. Ours: Foundation answers `nil` without saying why.
///
/// ``code`` is what the vector format sees (`invalidPercentEncoding`, `invalidUTF8`); ``reason`` and ``offset``
/// are for people.
public struct PercentDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The wire error code (`SPEC.md` §5).
    public enum Code: String, Sendable, CaseIterable {
        /// A `%` not followed by two hex digits, or a character that must be encoded appears raw.
        case invalidPercentEncoding
        /// The decoded bytes are not well-formed UTF-8.
        case invalidUTF8
    }

    /// What exactly went wrong.
    public enum Reason: String, Sendable, CaseIterable {
        /// A `%` not followed by two hex digits (`%`, `%4`, `%G1`, `%%`).
        case malformedEscape = "'%' not followed by two hex digits"
        /// A character that RFC 3986 does not allow raw in a component (space, control, `#`, non-ASCII, …).
        case unencodedCharacter = "character that must be percent-encoded appears raw"
        /// The decoded bytes are not well-formed UTF-8.
        case invalidUTF8 = "decoded bytes are not well-formed UTF-8"
    }

    public var reason: Reason
    /// Byte offset in the encoded text (its UTF-8): of the offending `%` or raw character, or for `invalidUTF8`
    /// of the `%` that starts the ill-formed UTF-8 sequence.
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var code: Code {
        switch reason {
        case .malformedEscape, .unencodedCharacter: .invalidPercentEncoding
        case .invalidUTF8: .invalidUTF8
        }
    }

    public var description: String { "\(code.rawValue): \(reason.rawValue) (at byte \(offset))" }
}
