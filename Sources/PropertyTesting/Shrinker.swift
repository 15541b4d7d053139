// Shrinking on the choice sequence (Hypothesis' "internal reduction").
//
// The shrinker never sees values, only a failing `[UInt64]`. It proposes edits, replays the generator and
// the property on each, and keeps a candidate only when it still fails AND the choices it actually used are
// simpler in shortlex order (shorter, or equally long and lexicographically smaller). That order is
// well-founded, so the loop always ends; `budget` additionally bounds the number of replays.
//
// Passes, repeated until a whole round changes nothing:
//   1. delete chunks (8, 4, 2, 1 choices), also "delete and decrement the choice before" (length prefixes)
//   2. zero chunks (8, 4, 2, 1)
//   3. minimise each choice (try 0, then binary search down)
//   4. sort: swap adjacent chunks (1, 2, 4 wide) and nearby single choices when that is simpler
//   5. redistribute between two nearby numeric choices (lower one, raise the other), which takes
//      `[600, 400]` with "sum >= 1000" to `[0, 1000]`, after which deletion finishes the job

/// What the shrinker learns from replaying one candidate.
public struct ShrinkTrial: Sendable {
    public var failed: Bool
    /// The choices the replay actually made (may differ from the candidate: shorter, zero-filled, reduced).
    public var sequence: ChoiceSequence
    public init(failed: Bool, sequence: ChoiceSequence) {
        self.failed = failed
        self.sequence = sequence
    }
}

/// Reduces a failing choice sequence to a locally minimal one.
public struct Shrinker {
    public private(set) var best: ChoiceSequence
    /// Replays performed so far.
    public private(set) var steps = 0
    /// Accepted improvements so far.
    public private(set) var improvements = 0
    public let budget: Int
    let trial: ([UInt64]) -> ShrinkTrial
    var seen = Set<[UInt64]>()

    /// `trial` replays the generator and property on a candidate and reports whether it still fails.
    public init(failing: ChoiceSequence, budget: Int, trial: @escaping ([UInt64]) -> ShrinkTrial) {
        self.best = failing
        self.budget = Swift.max(0, budget)
        self.trial = trial
    }

    var exhausted: Bool { steps >= budget }

    /// Tries a candidate; true if it became the new best.
    @discardableResult
    mutating func consider(_ candidate: [UInt64]) -> Bool {
        guard !exhausted, ChoiceSequence.isSimpler(candidate, than: best.choices) else { return false }
        guard seen.insert(candidate).inserted else { return false }
        if seen.count > 50_000 { seen.removeAll(keepingCapacity: true) }
        steps += 1
        let result = trial(candidate)
        guard result.failed, ChoiceSequence.isSimpler(result.sequence.choices, than: best.choices) else { return false }
        best = result.sequence
        improvements += 1
        return true
    }

    /// Runs all passes to a fixed point or until the budget is spent; returns the best sequence.
    public mutating func shrink() -> ChoiceSequence {
        // The empty sequence (all simplest choices) is the global minimum; try it first.
        if !best.choices.isEmpty { consider([]) }
        while !exhausted {
            let before = best.choices
            deleteChunks()
            zeroChunks()
            minimiseValues()
            sortChunks()
            if best.choices == before { redistribute() }
            if best.choices == before { break }
        }
        return best
    }

    mutating func deleteChunks() {
        for width in [8, 4, 2, 1] {
            var i = best.choices.count - width
            while i >= 0 && !exhausted {
                let current = best.choices
                if i + width <= current.count {
                    var candidate = current
                    candidate.removeSubrange(i..<(i + width))
                    if !consider(candidate), i > 0, candidate[i - 1] > 0 {
                        candidate[i - 1] -= 1
                        consider(candidate)
                    }
                }
                i -= 1
                i = Swift.min(i, best.choices.count - width)
            }
        }
    }

    mutating func zeroChunks() {
        for width in [8, 4, 2, 1] {
            var i = 0
            while i + width <= best.choices.count && !exhausted {
                let current = best.choices
                if current[i..<(i + width)].contains(where: { $0 != 0 }) {
                    var candidate = current
                    for k in i..<(i + width) { candidate[k] = 0 }
                    consider(candidate)
                }
                i += 1
            }
        }
    }

    mutating func minimiseValues() {
        var i = 0
        while i < best.choices.count && !exhausted {
            minimise(at: i)
            i += 1
        }
    }

    /// Lowest value at position `i` that still fails, assuming (not requiring) monotonicity.
    mutating func minimise(at i: Int) {
        guard i < best.choices.count, best.choices[i] > 0 else { return }
        if replace(i, with: 0) { return }
        if best.choices[i] > 1, replace(i, with: 1) { return }
        var low: UInt64 = 1  // known to pass (or be rejected)
        while i < best.choices.count, !exhausted {
            let high = best.choices[i]
            guard high > low + 1 else { break }
            let mid = low + (high - low) / 2
            if !replace(i, with: mid) { low = mid }
        }
    }

    mutating func replace(_ i: Int, with value: UInt64) -> Bool {
        guard i < best.choices.count else { return false }
        var candidate = best.choices
        candidate[i] = value
        return consider(candidate)
    }

    mutating func sortChunks() {
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
        // Swap nearby single choices (an element and the one after its "more?" flag, and so on).
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

    mutating func redistribute() {
        var i = 0
        while i < best.choices.count && !exhausted {
            var j = i + 1
            while j < Swift.min(best.choices.count, i + 9) && !exhausted {
                move(from: i, to: j)
                j += 1
            }
            i += 1
        }
    }

    /// Moves as much as possible from choice `i` to the later choice `j` (numeric choices only).
    mutating func move(from i: Int, to j: Int) {
        let current = best.choices
        let maxima = best.maxima
        guard j < current.count, j < maxima.count, maxima[i] > 1, maxima[j] > 1, current[i] > 0 else { return }
        let room = maxima[j] - current[j]
        let full = Swift.min(current[i], room)
        guard full > 0 else { return }
        func candidate(_ amount: UInt64) -> [UInt64] {
            var c = current
            c[i] -= amount
            c[j] += amount
            return c
        }
        if consider(candidate(full)) { return }
        // Smaller moves, halving: any accepted move is an improvement.
        var amount = full / 2
        while amount > 0 && !exhausted {
            if consider(candidate(amount)) { return }
            amount /= 2
        }
    }
}
