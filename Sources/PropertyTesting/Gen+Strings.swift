// Unicode scalars and strings over chosen alphabets.
//
// An `Alphabet` is an ordered list of valid scalars (surrogates are never included). A scalar is one choice:
// its index in that order, so shrinking moves toward the alphabet's first scalar. In random mode the index
// is picked with a bias toward interesting scalars: ASCII, controls and NUL, Latin-1, combining marks, CJK,
// emoji, zero-width and bidi controls, BOM, U+FFFD, the last scalar U+10FFFF.

/// An ordered set of Unicode scalars to draw from.
public struct Alphabet: Sendable, Equatable {
    /// Scalar ranges in shrink order (index 0 = the simplest scalar).
    public let ranges: [ClosedRange<UInt32>]
    @usableFromInline let starts: [UInt64]
    /// Number of scalars in the alphabet.
    public let count: UInt64
    @usableFromInline let bias: [BiasEntry]
    @usableFromInline let biasTotal: UInt64

    @usableFromInline
    struct BiasEntry: Sendable, Equatable {
        @usableFromInline let cumulativeWeight: UInt64
        /// nil: uniform over the whole alphabet.
        @usableFromInline let range: ClosedRange<UInt32>?
    }

    /// An alphabet from scalar ranges, in the order given. Surrogate code points and values past U+10FFFF
    /// are removed. Must contain at least one scalar.
    public init(ranges: [ClosedRange<UInt32>]) {
        var cleaned: [ClosedRange<UInt32>] = []
        for range in ranges {
            for piece in Alphabet.validPieces(of: range) { cleaned.append(piece) }
        }
        precondition(!cleaned.isEmpty, "an Alphabet needs at least one valid scalar")
        var starts: [UInt64] = []
        var total: UInt64 = 0
        for range in cleaned {
            starts.append(total)
            total += UInt64(range.upperBound - range.lowerBound) + 1
        }
        self.ranges = cleaned
        self.starts = starts
        self.count = total

        // Bias: each interesting category that meets the alphabet, plus "anything in the alphabet".
        var entries: [BiasEntry] = []
        var weightSum: UInt64 = 0
        for (weight, category) in Alphabet.interesting {
            let pieces = cleaned.compactMap { r -> ClosedRange<UInt32>? in
                let lo = Swift.max(r.lowerBound, category.lowerBound)
                let hi = Swift.min(r.upperBound, category.upperBound)
                return lo <= hi ? lo...hi : nil
            }
            for piece in pieces {
                weightSum += Swift.max(1, weight / UInt64(pieces.count))
                entries.append(BiasEntry(cumulativeWeight: weightSum, range: piece))
            }
        }
        weightSum += 12
        entries.append(BiasEntry(cumulativeWeight: weightSum, range: nil))
        self.bias = entries
        self.biasTotal = weightSum
    }

    /// The scalars of `characters`, in order, without duplicates (e.g. `Alphabet("abc")`).
    public init(_ characters: String) {
        var seen = Set<UInt32>()
        var ranges: [ClosedRange<UInt32>] = []
        for scalar in characters.unicodeScalars where seen.insert(scalar.value).inserted {
            ranges.append(scalar.value...scalar.value)
        }
        self.init(ranges: ranges)
    }

    static func validPieces(of range: ClosedRange<UInt32>) -> [ClosedRange<UInt32>] {
        let lo = range.lowerBound
        let hi = Swift.min(range.upperBound, 0x10FFFF)
        guard lo <= hi else { return [] }
        var pieces: [ClosedRange<UInt32>] = []
        if lo < 0xD800 { pieces.append(lo...Swift.min(hi, 0xD7FF)) }
        if hi > 0xDFFF { pieces.append(Swift.max(lo, 0xE000)...hi) }
        return pieces
    }

    /// Categories favoured in random mode, with weights.
    static let interesting: [(UInt64, ClosedRange<UInt32>)] = [
        (40, 0x20...0x7E),  // printable ASCII
        (4, 0x00...0x1F),  // C0 controls
        (2, 0x00...0x00),  // NUL
        (1, 0x7F...0x7F),  // DEL
        (8, 0x80...0xFF),  // Latin-1 supplement (with C1 controls, NBSP, é…)
        (6, 0x300...0x36F),  // combining diacritical marks
        (2, 0x370...0x52F),  // Greek, Cyrillic
        (2, 0x590...0x6FF),  // Hebrew, Arabic (right to left)
        (6, 0x4E00...0x9FFF),  // CJK unified ideographs
        (2, 0x3040...0x30FF),  // kana
        (6, 0x1F300...0x1FAFF),  // emoji
        (2, 0x1F1E6...0x1F1FF),  // regional indicators (flags)
        (1, 0x1F3FB...0x1F3FF),  // skin-tone modifiers
        (2, 0x200B...0x200F),  // zero-width space/joiners, LRM, RLM
        (1, 0x2028...0x202E),  // line/paragraph separators, bidi embeddings
        (1, 0xFE0F...0xFE0F),  // variation selector 16
        (1, 0xFEFF...0xFEFF),  // byte order mark
        (1, 0xFFFD...0xFFFD),  // replacement character
        (1, 0xE000...0xE000),  // private use
        (1, 0x10FFFF...0x10FFFF),  // the last scalar
    ]

    /// The scalar at `index` (reduced into range; never traps).
    @inlinable
    public func scalar(at index: UInt64) -> Unicode.Scalar {
        let i = count == 0 ? 0 : index % count
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {  // last range whose start <= i
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        let value = ranges[lo].lowerBound + UInt32(truncatingIfNeeded: i - starts[lo])
        return Unicode.Scalar(value) ?? "\u{0}"
    }

    /// The index of `scalar`, or nil if it is not in the alphabet.
    public func index(of scalar: Unicode.Scalar) -> UInt64? {
        for (k, range) in ranges.enumerated() where range.contains(scalar.value) {
            return starts[k] + UInt64(scalar.value - range.lowerBound)
        }
        return nil
    }

    @usableFromInline
    func randomIndex(_ rng: inout Xoshiro256) -> UInt64 {
        let roll = rng.next(upTo: biasTotal - 1)
        for entry in bias where roll < entry.cumulativeWeight {
            guard let range = entry.range else { break }
            let value =
                range.lowerBound
                + UInt32(truncatingIfNeeded: rng.next(upTo: UInt64(range.upperBound - range.lowerBound)))
            if let scalar = Unicode.Scalar(value), let i = index(of: scalar) { return i }
            break
        }
        return rng.next(upTo: count - 1)
    }

    // MARK: Standard alphabets

    /// Every valid scalar. Order: `0`…`~`, then space…`/`, C0 controls (NUL first), then everything from
    /// DEL upward; so shrinking ends at `"0"`, other printable ASCII, then controls, then the rest.
    public static let unicode = Alphabet(ranges: [0x30...0x7E, 0x20...0x2F, 0x00...0x1F, 0x7F...0x10FFFF])
    /// U+0000…U+007F (printable first, as in `unicode`).
    public static let ascii = Alphabet(ranges: [0x30...0x7E, 0x20...0x2F, 0x00...0x1F, 0x7F...0x7F])
    /// Space…`~`.
    public static let asciiPrintable = Alphabet(ranges: [0x30...0x7E, 0x20...0x2F])
    /// U+0000…U+00FF (printable ASCII first).
    public static let latin1 = Alphabet(ranges: [0x30...0x7E, 0x20...0x2F, 0x00...0x1F, 0x7F...0xFF])
    /// `0-9`.
    public static let digits = Alphabet(ranges: [0x30...0x39])
    /// `a-z`.
    public static let lowercase = Alphabet(ranges: [0x61...0x7A])
    /// `a-z`, `A-Z`, `0-9` (lowercase first).
    public static let alphanumeric = Alphabet(ranges: [0x61...0x7A, 0x41...0x5A, 0x30...0x39])
}

extension Gen where Value == Unicode.Scalar {
    /// One scalar from `alphabet`; shrinks toward the alphabet's first scalar.
    public static func scalar(_ alphabet: Alphabet = .unicode) -> Gen<Unicode.Scalar> {
        let last = alphabet.count - 1
        return Gen { source in
            alphabet.scalar(at: source.draw(upTo: last) { rng in alphabet.randomIndex(&rng) })
        }
    }
}

extension Gen where Value == String {
    /// Strings of `length` scalars (not characters: combining marks and joiners form clusters freely)
    /// from `alphabet`. Shrinks toward shorter, then toward the alphabet's first scalars.
    public static func string(_ alphabet: Alphabet = .unicode, length: ClosedRange<Int> = 0...16) -> Gen<String> {
        Gen<Unicode.Scalar>.scalar(alphabet).array(count: length).map { scalars in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }
    }
}
