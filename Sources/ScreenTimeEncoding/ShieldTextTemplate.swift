/// A shield text with placeholders, such as `"{applicationName|This app} is blocked until {time}"`.
///
/// Rules (`SPEC.md` §4; the details marked *ours* are decisions of this reference):
/// - A placeholder is `{key}` or `{key|fallback}`. A key is one or more of `A–Z a–z 0–9 _ . -` (case-sensitive);
///   a fallback is any text without `{` or `}` (it may be empty, and may contain `|` and any Unicode).
/// - Rendering is one pass over the template: a value is copied to the output and never scanned again, so a
///   value holding `{other}` comes out literally, and the result does not depend on the order of the values.
/// - A value that is missing, `nil` or empty renders the fallback, or nothing. The key's own name never appears.
///   A value of only spaces is not empty (*ours*: it is what the caller gave).
/// - Braces that do not form a placeholder are literal text: `{`, `}`, `{}`, `{|x}`, `{asNumber:}`, `{ key }`,
///   unbalanced braces. Parsing never fails and never traps.
/// - Nested braces: the scan is leftmost, so in `{{a}}` the outer braces are literal and `{a}` is a placeholder:
///   with `a = "Mail"` it renders `{Mail}`; with `a` missing, `{}` (*ours*: this keeps the key's name out of the
///   output even for a Mustache-style `{{applicationName}}`). Likewise `{a|x{b}}` is the literal `{a|x`, then the
///   placeholder `{b}`, then a literal `}`.
/// - ``Rendering/missing`` lists the keys that had no value (missing, `nil` or empty, whether or not they had a
///   fallback), each once, in order of first appearance in the template.
/// - Parsing is one linear scan of the UTF-8 bytes: a failed placeholder never contains a `{`, so scanning goes
///   on from where it failed. Rendering is linear in the template plus the values used.
///
/// ```swift
/// let template = ShieldTextTemplate("{applicationName|This app} is blocked. {{oops}")
/// let rendering = template.render(["applicationName": nil])
/// rendering.text      // "This app is blocked. {"
/// rendering.missing   // ["applicationName", "oops"]
/// ```
///
/// iOS gives `Application.localizedDisplayName` as `nil` outside the shield-configuration extension (and
/// sometimes inside): write every template so that it reads well without the name.
public struct ShieldTextTemplate: Sendable, Hashable {
    /// The template as written.
    public let text: String

    /// One placeholder: template bytes `start..<end` (from its `{` to after its `}`) stand for `keys[key]`.
    /// The key's bytes end at `keyEnd`: at `end - 1` (the `}`) for `{key}`; otherwise at the `|` of
    /// `{key|fallback}`, and the fallback is the bytes between that `|` and the `}`. (Only `Int`s, so that
    /// reading one is a few plain loads.) The bytes between placeholders are literal.
    private struct Placeholder: Sendable, Hashable {
        var start: Int
        var keyEnd: Int
        var end: Int
        var key: Int

        /// Byte range of the fallback in the template, `nil` for `{key}`.
        var fallback: Range<Int>? { keyEnd < end - 1 ? (keyEnd + 1)..<(end - 1) : nil }
    }

    /// In template order.
    private let placeholders: [Placeholder]

    /// The placeholder keys in order of first appearance, each once.
    public let keys: [String]

    /// Parses `text`. Never fails: whatever is not a placeholder is literal text.
    public init(_ text: String) {
        self.text = text
        (placeholders, keys) = Self.withUTF8(text, Self.parse)
    }

    /// The rendered text and the keys that had no value.
    public struct Rendering: Sendable, Hashable {
        /// The template with every placeholder replaced by its value, its fallback, or nothing.
        public let text: String
        /// Keys that were missing, `nil` or empty, each once, in order of first appearance.
        public let missing: [String]

        public init(text: String, missing: [String]) {
            self.text = text
            self.missing = missing
        }
    }

    /// Renders the template with `values`; a key mapped to `nil` counts as missing.
    ///
    /// ```swift
    /// ShieldTextTemplate("Open {app|the app}").render(["app": "日本語アプリ"]).text   // "Open 日本語アプリ"
    /// ```
    public func render(_ values: [String: String?]) -> Rendering {
        // Each key is looked up once. `keys` is in order of first appearance, so the keys without a value, in
        // that order, are `missing`. Then the output's length is summed and the text written straight into the
        // String: one allocation for the text (none when it is short), one for `missing` (none when empty).
        withUnsafeTemporaryAllocation(of: String?.self, capacity: keys.count) { found in
            var missing: [String] = []
            for (k, key) in keys.enumerated() {
                let value = values[key] ?? nil
                if let value, !value.isEmpty {
                    found.initializeElement(at: k, to: value)
                } else {
                    found.initializeElement(at: k, to: nil)
                    if missing.isEmpty { missing.reserveCapacity(keys.count - k) }
                    missing.append(key)
                }
            }
            defer { _ = found.baseAddress.map { $0.deinitialize(count: keys.count) } }
            let text = Self.withUTF8(self.text) { template in
                var count = template.count
                for p in placeholders {
                    count += (found[p.key]?.utf8.count ?? p.fallback?.count ?? 0) - (p.end - p.start)
                }
                if count == 0 { return "" }
                return String(unsafeUninitializedCapacity: count) { out in
                    var o = 0
                    var literalStart = 0
                    for p in placeholders {
                        o = Self.copy(template[literalStart..<p.start], to: out, at: o)
                        if let value = found[p.key] {
                            o = Self.withUTF8(value) { Self.copy($0[...], to: out, at: o) }
                        } else if let fallback = p.fallback {
                            o = Self.copy(template[fallback], to: out, at: o)
                        }
                        literalStart = p.end
                    }
                    return Self.copy(template[literalStart...], to: out, at: o)
                }
            }
            return Rendering(text: text, missing: missing)
        }
    }

    /// Copies `bytes` to `out` at offset `o`; the offset after them.
    private static func copy(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, to out: UnsafeMutableBufferPointer<UInt8>, at o: Int
    ) -> Int {
        guard let source = bytes.base.baseAddress, let target = out.baseAddress, !bytes.isEmpty else { return o }
        UnsafeMutableRawPointer(target + o).copyMemory(from: source + bytes.startIndex, byteCount: bytes.count)
        return o + bytes.count
    }

    /// `text`'s UTF-8 bytes in place (a native String's are contiguous), else a copy.
    private static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    // MARK: Parsing

    static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// One left-to-right scan. Every byte is looked at a bounded number of times: when a placeholder attempt
    /// starting at `{` fails at byte `k`, bytes before `k` hold no `{` (keys, `|` and fallbacks have none),
    /// so the scan resumes at `k` and nothing is rescanned.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (placeholders: [Placeholder], keys: [String]) {
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        let bar = UInt8(ascii: "|")
        let n = bytes.count
        var placeholders: [Placeholder] = []
        var keys: [String] = []
        // Known keys are found by a linear search while there are few, then by this index (built only then).
        var keyIndex: [String: Int] = [:]
        let linearSearchLimit = 8
        var i = 0
        while i < n {
            guard bytes[i] == open else {
                i += 1
                continue
            }
            // Try a placeholder at i.
            var k = i + 1
            while k < n, isKeyByte(bytes[k]) { k += 1 }
            let keyEnd = k
            var matched = false
            if keyEnd > i + 1, k < n {
                if bytes[k] == close {
                    matched = true
                } else if bytes[k] == bar {
                    k += 1
                    while k < n, bytes[k] != open, bytes[k] != close { k += 1 }
                    matched = k < n && bytes[k] == close
                }
            }
            guard matched else {
                // Bytes i..<k are literal; bytes[k] (if any) is scanned next, since it may be a `{`.
                i = max(k, i + 1)
                continue
            }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<keyEnd]), as: UTF8.self)
            var number = keys.count <= linearSearchLimit ? keys.firstIndex(of: key) : nil
            if number == nil, keys.count > linearSearchLimit {
                if keyIndex.isEmpty {
                    keyIndex.reserveCapacity(2 * keys.count)
                    for (known, name) in keys.enumerated() { keyIndex[name] = known }
                }
                number = keyIndex[key]
                if number == nil { keyIndex[key] = keys.count }
            }
            if number == nil {
                if keys.isEmpty { keys.reserveCapacity(4) }
                keys.append(key)
            }
            if placeholders.isEmpty { placeholders.reserveCapacity(8) }
            placeholders.append(Placeholder(start: i, keyEnd: keyEnd, end: k + 1, key: number ?? keys.count - 1))
            i = k + 1
        }
        return (placeholders, keys)
    }
}
