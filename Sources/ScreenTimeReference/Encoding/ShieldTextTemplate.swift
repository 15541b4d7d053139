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

    private enum Segment: Sendable, Hashable {
        /// Bytes `range` of the template, copied as they are.
        case literal(Range<Int>)
        /// A placeholder for `keys[key]`; `fallback` is a byte range of the template, `nil` for `{key}`.
        case placeholder(key: Int, fallback: Range<Int>?)
    }

    private let bytes: [UInt8]
    private let segments: [Segment]

    /// The placeholder keys in order of first appearance, each once.
    public let keys: [String]

    /// Parses `text`. Never fails: whatever is not a placeholder is literal text.
    public init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        (segments, keys) = Self.parse(bytes)
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
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var missing: [String] = []
        var isListed: [Bool] = []  // by key index, once a key is missing
        bytes.withUnsafeBufferPointer { template in
            for segment in segments {
                switch segment {
                case .literal(let range):
                    out.append(contentsOf: template[range])
                case .placeholder(let k, let fallback):
                    if let value = values[keys[k]] ?? nil, !value.isEmpty {
                        out.append(contentsOf: value.utf8)
                    } else {
                        if isListed.isEmpty { isListed = Array(repeating: false, count: keys.count) }
                        if !isListed[k] {
                            isListed[k] = true
                            missing.append(keys[k])
                        }
                        if let fallback { out.append(contentsOf: template[fallback]) }
                    }
                }
            }
        }
        return Rendering(text: String(decoding: out, as: UTF8.self), missing: missing)
    }

    // MARK: Parsing

    private static func isKeyByte(_ byte: UInt8) -> Bool {
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
    private static func parse(_ bytes: [UInt8]) -> (segments: [Segment], keys: [String]) {
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        let bar = UInt8(ascii: "|")
        let n = bytes.count
        var segments: [Segment] = []
        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        var literalStart = 0
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
            var fallback: Range<Int>? = nil
            var matched = false
            if keyEnd > i + 1, k < n {
                if bytes[k] == close {
                    matched = true
                } else if bytes[k] == bar {
                    k += 1
                    let fallbackStart = k
                    while k < n, bytes[k] != open, bytes[k] != close { k += 1 }
                    if k < n, bytes[k] == close {
                        fallback = fallbackStart..<k
                        matched = true
                    }
                }
            }
            if matched {
                if literalStart < i { segments.append(.literal(literalStart..<i)) }
                let key = String(decoding: bytes[(i + 1)..<keyEnd], as: UTF8.self)
                let number: Int
                if let known = keyIndex[key] {
                    number = known
                } else {
                    number = keys.count
                    keyIndex[key] = number
                    keys.append(key)
                }
                segments.append(.placeholder(key: number, fallback: fallback))
                i = k + 1
                literalStart = i
            } else {
                // Bytes i..<k are literal; bytes[k] (if any) is scanned next, since it may be a `{`.
                i = max(k, i + 1)
            }
        }
        if literalStart < n { segments.append(.literal(literalStart..<n)) }
        return (segments, keys)
    }
}
