// Shrinking on the choice sequence (Hypothesis' "internal reduction").
//
// The shrinker never sees values, only a failing `[UInt64]`. It proposes edits, replays the generator and
// the property on each, and keeps a candidate only when it still fails AND the choices it actually used are
// simpler in shortlex order (shorter, or equally long and lexicographically smaller). That order is
// well-founded, so the loop always ends; `budget` additionally bounds the number of replays.
//
// When the replays record their structure (`ShrinkTrial.structure`: where each generated sub-value starts and
// ends, which choices are integers), the passes work on whole sub-values and on numbers; without it they fall back
// to working on runs of raw choices. The passes, in the order of a round (Shrinker+Deletion.swift,
// Shrinker+Spans.swift, Shrinker+Values.swift):
//
//   1. delete spans (an element, a subtree, a filter's rejected attempt) and the siblings after them, repairing
//      a length or an index the deletion broke
//   2. delete runs of 2 raw choices (joins two lists); without spans, runs of 8, 4, 3, 2 and 1
//   3. replace a span by the simplest choices (all zero), and a subtree by a subtree of it
//   4. lower equal choices together (duplicates must stay duplicates)
//   5. lower each choice, as a number in value space (toward zero, keeping or flipping its sign)
//   6. sort sibling spans of one kind (put the simpler first)
//
// and, when a round did not shorten the sequence:
//
//   7. delete single raw choices
//   8. move value between two nearby numbers, keeping their sum (`[600, 400]` → `[0, 1000]`)
//   9. lower two nearby numbers together, keeping their difference
//  10. swap adjacent runs of choices (and, without spans, nearby single choices)
//
// Rounds repeat until one changes nothing.

/// What the shrinker learns from replaying one candidate.
public struct ShrinkTrial: Sendable {
    public var failed: Bool
    /// The choices the replay actually made (may differ from the candidate: shorter, zero-filled, reduced).
    public var sequence: ChoiceSequence
    /// Where the replay's sub-values start and end, and which choices are integers (see ``ChoiceStructure``); nil
    /// when the replay did not record it. Only a failing trial's structure is ever used.
    public var structure: ChoiceStructure?

    public init(failed: Bool, sequence: ChoiceSequence) {
        self.init(failed: failed, sequence: sequence, structure: nil)
    }

    public init(failed: Bool, sequence: ChoiceSequence, structure: ChoiceStructure?) {
        self.failed = failed
        self.sequence = sequence
        self.structure = structure
    }
}

/// Reduces a failing choice sequence to a locally minimal one.
public struct Shrinker {
    public private(set) var best: ChoiceSequence
    /// The structure of `best`, when the trials record one.
    public private(set) var structure: ChoiceStructure?
    /// Replays performed so far.
    public private(set) var steps = 0
    /// Accepted improvements so far.
    public private(set) var improvements = 0
    public let budget: Int
    let trial: ([UInt64]) -> ShrinkTrial
    var seen = Set<[UInt64]>()
    /// Whether `best` was replayed to learn its structure (once: a trial that records none will not start to).
    var askedForStructure = false

    /// `trial` replays the generator and property on a candidate and reports whether it still fails.
    public init(failing: ChoiceSequence, budget: Int, trial: @escaping ([UInt64]) -> ShrinkTrial) {
        self.best = failing
        self.budget = Swift.max(0, budget)
        self.trial = trial
    }

    var exhausted: Bool { steps >= budget }

    /// What one proposed candidate came to.
    struct Attempt {
        /// The candidate became the new best.
        var accepted: Bool
        /// The replay, when there was one (nil: skipped as not simpler, already tried, or out of budget).
        var trial: ShrinkTrial?

        static let skipped = Attempt(accepted: false, trial: nil)

        /// Whether the replay used other choices than the candidate's: it read past the end, stopped early, or
        /// reduced a value into a smaller range. A deletion that did so broke a length or an index.
        func misaligned(_ candidate: [UInt64]) -> Bool {
            guard let trial else { return false }
            return trial.sequence.choices != candidate
        }
    }

    /// Replays a candidate unless it cannot be simpler than `best` or was tried before; keeps it if it still fails
    /// and the choices it used are simpler (with `shorter`, only if they are fewer: a repaired deletion must delete,
    /// or lowering numbers by one per replay could crawl through the budget).
    mutating func attempt(_ candidate: [UInt64], shorter: Bool = false) -> Attempt {
        guard !exhausted, ChoiceSequence.isSimpler(candidate, than: best.choices) else { return .skipped }
        // A shorter candidate that `best` continues with zeros alone replays exactly as `best` does.
        if candidate.count < best.choices.count, best.choices.starts(with: candidate),
            best.choices[candidate.count...].allSatisfy({ $0 == 0 })
        {
            return .skipped
        }
        guard seen.insert(candidate).inserted else { return .skipped }
        if seen.count > 50_000 { seen.removeAll(keepingCapacity: true) }
        steps += 1
        let result = trial(candidate)
        guard result.failed, ChoiceSequence.isSimpler(result.sequence.choices, than: best.choices) else {
            // Passing, or not simpler than `best`: no later, simpler `best` changes that, so remember it.
            seen.insert(result.sequence.choices)
            return Attempt(accepted: false, trial: result)
        }
        guard !shorter || result.sequence.choices.count < best.choices.count else {
            // A simpler failure, refused only here: another pass may propose it for itself.
            seen.remove(candidate)
            return Attempt(accepted: false, trial: result)
        }
        best = result.sequence
        structure = result.structure
        improvements += 1
        return Attempt(accepted: true, trial: result)
    }

    /// Tries a candidate; true if it became the new best.
    @discardableResult
    mutating func consider(_ candidate: [UInt64]) -> Bool {
        attempt(candidate).accepted
    }

    /// The structure of `best`, replaying it once if no accepted trial has brought one yet.
    mutating func currentStructure() -> ChoiceStructure? {
        if structure == nil, !askedForStructure, !exhausted {
            askedForStructure = true
            steps += 1
            let result = trial(best.choices)
            if result.failed, result.sequence.choices == best.choices { structure = result.structure }
        }
        return structure
    }

    /// Runs all passes to a fixed point or until the budget is spent; returns the best sequence.
    public mutating func shrink() -> ChoiceSequence {
        // The empty sequence (all simplest choices) is the global minimum; try it first.
        if !best.choices.isEmpty { consider([]) }
        while !exhausted {
            let before = best.choices
            deleteSpans()
            deleteRuns(widths: structure == nil ? [8, 4, 3, 2, 1] : [2])
            zeroSpans()
            replaceWithDescendants()
            lowerDuplicates()
            lowerEachChoice()
            sortSiblings()
            // A round that only lowered values can crawl (two numbers tied to each other, each lowered a little
            // per round): the pair moves get it out, and rounds that stall end here too.
            if best.choices.count == before.count {
                if structure != nil { deleteRuns(widths: [1]) }
                redistributePairs()
                lowerPairsTogether()
                swapNearby()
            }
            if best.choices == before { break }
        }
        return best
    }
}

/// `largestTrue(f)`: the largest `n` for which `f(n)` holds, given that `f(0)` holds and assuming `f` holds up to
/// some point and not past it; probes 1, 2, 3, 4, then doubles, then bisects, so a small answer costs few calls
/// and a large one logarithmically many.
func largestTrue(upTo limit: Int, _ f: (Int) -> Bool) -> Int {
    var low = 0
    for n in 1...4 {
        guard n <= limit else { return low }
        guard f(n) else { return low }
        low = n
    }
    var high = low * 2
    while high <= limit && f(high) {
        low = high
        high *= 2
    }
    high = Swift.min(high, limit + 1)  // f(high) is false, or high is past the limit
    while high - low > 1 {
        let mid = low + (high - low) / 2
        if f(mid) { low = mid } else { high = mid }
    }
    return low
}
