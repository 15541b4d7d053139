// Passes that lower choices as numbers. A choice drawn as an integer (``IntegerChoice``) is lowered in value space:
// its index in the sign-interleaved order (0, 1, -1, 2, -2, …) is not monotone in the value, so "index − 1" would
// flip the sign, while "magnitude − 1, same sign" is what moves toward zero. Other choices are their own value.

/// A choice seen as a number: its offset from the bottom of its range, in the order it was drawn with.
struct NumericChoice {
    let order: IntegerOrder
    var offset: UInt64

    init(order: IntegerOrder, index: UInt64) {
        self.order = order
        offset = order.offset(forIndex: Swift.min(index, order.span))
    }

    /// At or above the simplest value (the positive side, or zero).
    var isAbove: Bool { offset >= order.target }
    /// Distance from the simplest value.
    var magnitude: UInt64 { isAbove ? offset - order.target : order.target - offset }
    var index: UInt64 { order.index(forOffset: offset) }

    /// The index of the value `magnitude` away from the simplest, on one side; nil outside the range.
    func index(magnitude m: UInt64, above: Bool) -> UInt64? {
        if above { return m <= order.span - order.target ? order.index(forOffset: order.target + m) : nil }
        return m <= order.target ? order.index(forOffset: order.target - m) : nil
    }

    /// The index of the value moved by `delta` toward larger values (`up`) or smaller ones; nil outside the range,
    /// unless `wrapping` and the range is a whole fixed-width type (its span all ones: `Int16`, `UInt64`, …),
    /// where the move wraps around as two's-complement arithmetic does.
    func index(movedBy delta: UInt64, up: Bool, wrapping: Bool = false) -> UInt64? {
        let fits = up ? delta <= order.span - offset : delta <= offset
        if fits { return order.index(forOffset: up ? offset + delta : offset - delta) }
        guard wrapping, isWholeType else { return nil }
        let size = order.span &+ 1  // 0 for a 64-bit type: arithmetic modulo 2^64
        let moved = up ? offset &+ delta : offset &- delta
        return order.index(forOffset: size == 0 ? moved : moved % size)
    }

    /// Whether the range is every value of an 8-, 16-, 32- or 64-bit type.
    var isWholeType: Bool {
        [UInt64(UInt8.max), UInt64(UInt16.max), UInt64(UInt32.max), UInt64.max].contains(order.span)
    }
}

extension Shrinker {
    /// Choice `index` of `best` as a number (the identity order when it is not a recorded integer).
    func numeric(_ index: Int) -> NumericChoice {
        let max = best.maxima[index]
        let order = structure?.order(ofChoice: index, max: max) ?? IntegerOrder(span: max, target: 0)
        return NumericChoice(order: order, index: best.choices[index])
    }

    /// `best` with the choices at `indices` set to `value`.
    func setting(_ indices: [Int], to value: UInt64) -> [UInt64] {
        var candidate = best.choices
        for i in indices where i < candidate.count { candidate[i] = value }
        return candidate
    }

    /// Lowers the number at `indices` (one choice, or several holding the same value) as far as it still fails:
    /// zero first; then, on the number's side of zero, the smallest magnitude that fails (``smallestFailing``);
    /// then the other side's largest simpler value (5 → −4, −5 → 5), searching again there if that fails too.
    /// Assumes, without needing it, that failing is monotone in the magnitude on each side.
    mutating func lowerNumber(at indices: [Int]) {
        guard let first = indices.first, first < best.choices.count, best.choices[first] > 0 else { return }
        if consider(setting(indices, to: 0)) { return }
        func stillHolds(_ expected: UInt64) -> Bool {
            indices.allSatisfy { $0 < best.choices.count && best.choices[$0] == expected }
        }
        for _ in 0..<2 {
            let number = numeric(first)
            let above = number.isAbove
            smallestFailing(below: number.magnitude) { magnitude in
                guard !exhausted, let index = number.index(magnitude: magnitude, above: above),
                    stillHolds(best.choices[first])
                else { return false }
                return consider(setting(indices, to: index))
            }
            // The other side: −m comes right after +m in the order, +m right after −(m − 1).
            let value = best.choices[first]
            let magnitude = numeric(first).magnitude
            let otherMagnitude = above ? magnitude - 1 : magnitude
            guard otherMagnitude > 0, let other = numeric(first).index(magnitude: otherMagnitude, above: !above),
                other < value, stillHolds(value), consider(setting(indices, to: other))
            else { return }
        }
    }

    /// Searches `1..<failing` for the smallest value at which `fails` holds, `failing` itself being known to fail
    /// and 0 to pass: 1 first (the usual answer), then a bisection of the bit length, then one within it. That
    /// costs about log₂(bits) + log₂(answer) calls: 7 for a 64-bit number whose answer is 1, against 63 for a
    /// bisection of the whole range.
    func smallestFailing(below failing: UInt64, _ fails: (UInt64) -> Bool) {
        guard failing > 1 else { return }
        if fails(1) { return }
        var passing: UInt64 = 1
        var known = failing
        // Bit lengths: 2^low passes (low = 0 is the value 1), 2^high fails or is past `known`.
        var low = 0
        var high = 64 - known.leadingZeroBitCount
        while high - low > 1 {
            let mid = (low + high) / 2
            let value: UInt64 = 1 << UInt64(mid)
            guard value < known else {
                high = mid
                continue
            }
            if fails(value) {
                high = mid
                known = value
            } else {
                low = mid
                passing = value
            }
        }
        while known - passing > 1 {
            let mid = passing + (known - passing) / 2
            if fails(mid) { known = mid } else { passing = mid }
        }
    }

    /// Lowers each choice on its own (``lowerNumber(at:)``), first to last.
    mutating func lowerEachChoice() {
        var i = 0
        while i < best.choices.count && !exhausted {
            lowerNumber(at: [i])
            i += 1
        }
    }

    /// Lowers choices holding the same value with the same maximum together: `([x, x], 0)` must keep both equal to
    /// fail, so lowering either alone never succeeds (the deletion and difference challenges).
    mutating func lowerDuplicates() {
        var groups: [[UInt64]: [Int]] = [:]
        for (i, (value, max)) in zip(best.choices, best.maxima).enumerated() where value > 0 && max > 1 {
            groups[[value, max], default: []].append(i)
        }
        let duplicated = groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        for indices in duplicated where !exhausted {
            let value = best.choices.count > indices[0] ? best.choices[indices[0]] : 0
            guard indices.allSatisfy({ $0 < best.choices.count && best.choices[$0] == value }) else { continue }
            lowerNumber(at: indices)
        }
    }

    /// The pairs of nearby numbers (choices with more than two options, at most 8 apart) the pair passes look at.
    func nearbyNumberPairs() -> [(Int, Int)] {
        let maxima = best.maxima
        let integers = structure?.integerTargets
        func isNumber(_ i: Int) -> Bool { maxima[i] > 1 && (integers == nil || integers?[i] != nil) }
        var pairs: [(Int, Int)] = []
        for i in maxima.indices where isNumber(i) && best.choices[i] > 0 {
            for j in (i + 1)..<Swift.min(maxima.count, i + 9) where isNumber(j) { pairs.append((i, j)) }
        }
        return pairs
    }

    /// Moves value from a number to a later nearby one, keeping their sum: the first moves toward zero by `k`, the
    /// second away by the same amount, with `k` searched (1, 2, 3, 4, then doubling and bisecting). `[600, 400]`
    /// with "sum ≥ 1000" → `[0, 1000]`; bound5's `[-3]`, `[-32766]` → `[-1]`, `[-32768]`. In a whole fixed-width
    /// type the second may wrap around, keeping the sum as overflowing arithmetic sees it: `[1, 32767]` →
    /// `[0, -32768]` in `Int16`.
    mutating func redistributePairs() {
        for (i, j) in nearbyNumberPairs() where !exhausted {
            shiftPair(i, j, keepingSum: true)
        }
    }

    /// Lowers two nearby numbers together, keeping their difference: `(30, 27)` with "the first at least 10 and
    /// the difference 3" → `(10, 7)`, which lowering either alone cannot reach.
    mutating func lowerPairsTogether() {
        for (i, j) in nearbyNumberPairs() where !exhausted {
            shiftPair(i, j, keepingSum: false)
        }
    }

    /// Moves number `i` toward zero by the largest amount that still fails, moving number `j` by the same amount:
    /// the other way (`keepingSum`) or the same way.
    mutating func shiftPair(_ i: Int, _ j: Int, keepingSum: Bool) {
        guard j < best.choices.count, best.choices[i] > 0 else { return }
        let base = best.choices
        let a = numeric(i)
        let b = numeric(j)
        let towardZeroIsUp = !a.isAbove
        let bUp = keepingSum ? !towardZeroIsUp : towardZeroIsUp
        func candidate(_ k: Int) -> [UInt64]? {
            guard let newA = a.index(movedBy: UInt64(k), up: towardZeroIsUp),
                let newB = b.index(movedBy: UInt64(k), up: bUp, wrapping: keepingSum)
            else { return nil }
            var c = base
            c[i] = newA
            c[j] = newB
            return c
        }
        let limit = Int(clamping: a.magnitude)
        _ = largestTrue(upTo: limit) { k in
            guard !exhausted, let c = candidate(k) else { return false }
            return consider(c)
        }
    }

    /// Swaps adjacent runs of 1, 2 and 4 choices when that is simpler (parts of one span, which ``sortSiblings()``
    /// does not see); without spans, also single choices up to 8 apart.
    mutating func swapNearby() {
        for width in [1, 2, 4] {
            var i = 0
            while i + 2 * width <= best.choices.count && !exhausted {
                let current = best.choices
                let a = Array(current[i..<(i + width)])
                let b = Array(current[(i + width)..<(i + 2 * width)])
                if ChoiceSequence.isSimpler(b, than: a) {
                    var candidate = current
                    candidate.replaceSubrange(i..<(i + 2 * width), with: b + a)
                    consider(candidate)
                }
                i += 1
            }
        }
        guard structure == nil else { return }
        var i = 0
        while i < best.choices.count && !exhausted {
            var j = i + 2
            while j < Swift.min(best.choices.count, i + 9) && !exhausted {
                let current = best.choices
                if current[j] < current[i] {
                    var candidate = current
                    candidate.swapAt(i, j)
                    consider(candidate)
                }
                j += 1
            }
            i += 1
        }
    }
}
