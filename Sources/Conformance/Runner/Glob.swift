/// Shell-style patterns over case ids: `*` any run of characters (`/` included), `?` one character,
/// `[abc]`, `[a-z]`, `[!abc]` one character of (or not of) a set, `\x` the character `x`.
/// A malformed class (no closing `]`) matches its `[` literally.
public struct Glob: Sendable, Hashable {
    public let pattern: String
    private let scalars: [Unicode.Scalar]

    /// A pattern, compiled once.
    ///
    /// - Parameter pattern: The shell-style pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        self.scalars = Array(pattern.unicodeScalars)
    }

    /// Whether the whole of `text` matches the pattern.
    ///
    /// - Parameter text: A case id.
    /// - Returns: `true` when it matches.
    public func matches(_ text: String) -> Bool {
        let t = Array(text.unicodeScalars)
        var p = 0
        var i = 0
        var starP = -1
        var starI = 0
        while i < t.count {
            if p < scalars.count {
                let c = scalars[p]
                if c == "*" {
                    starP = p
                    starI = i
                    p += 1
                    continue
                }
                let (matched, next) = matchOne(at: p, t[i])
                if matched {
                    p = next
                    i += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starI += 1
            i = starI
        }
        while p < scalars.count, scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }

    /// Whether the pattern element at `p` matches `ch`, and where the next element starts.
    private func matchOne(at p: Int, _ ch: Unicode.Scalar) -> (Bool, Int) {
        let c = scalars[p]
        switch c {
        case "?": return (true, p + 1)
        case "\\":
            if p + 1 < scalars.count { return (scalars[p + 1] == ch, p + 2) }
            return (ch == "\\", p + 1)
        case "[":
            var k = p + 1
            var negate = false
            if k < scalars.count, scalars[k] == "!" || scalars[k] == "^" {
                negate = true
                k += 1
            }
            var matched = false
            var first = true
            while k < scalars.count, scalars[k] != "]" || first {
                first = false
                let low = scalars[k]
                if k + 2 < scalars.count, scalars[k + 1] == "-", scalars[k + 2] != "]" {
                    if low.value <= ch.value && ch.value <= scalars[k + 2].value { matched = true }
                    k += 3
                } else {
                    if low == ch { matched = true }
                    k += 1
                }
            }
            guard k < scalars.count else { return (ch == "[", p + 1) }
            return (matched != negate, k + 1)
        default:
            return (c == ch, p + 1)
        }
    }
}
