// Deletion passes: fewer choices is always simpler, so these run first in each round.

extension Shrinker {
    /// Deletes each span (outermost first): an element with its "one more?" choice, a subtree, a filter's rejected
    /// attempt. A deletion that breaks a dependency (a length drawn before the elements, values that index the
    /// list) replays misaligned, and is tried again repaired (see ``deleteRepaired(_:in:)``). After a success the
    /// siblings that followed go in one search (``deleteFollowingSiblings(of:in:from:length:)``), and the same
    /// position is tried again with whatever now follows.
    mutating func deleteSpans() {
        var index = 0
        while !exhausted, let structure = currentStructure(), index < structure.spans.count {
            if !deleteRepaired(index, in: structure) { index += 1 }
        }
    }

    /// Deletes span `index`; when the replay misaligns, also tries, in order: the choice before the span or before
    /// its parent lowered by one (a length drawn first), each later number in the span's parent lowered by one
    /// (values that index the list shift with it), and both.
    mutating func deleteRepaired(_ index: Int, in structure: ChoiceStructure) -> Bool {
        let span = structure.spans[index]
        let current = best.choices
        var deleted = current
        deleted.removeSubrange(span.range)
        let plain = attempt(deleted)
        if plain.accepted {
            deleteFollowingSiblings(of: index, in: structure, from: current, length: nil)
            return true
        }
        // Repairs only matter when the replay misaligned; a deletion skipped as tried before may have.
        if plain.trial != nil, !plain.misaligned(deleted) { return false }

        let parent = structure.parents[index]
        let parentEnd = (parent >= 0 ? structure.spans[parent].end : current.count) - span.count
        var lengths: [Int] = []
        if span.start > 0 { lengths.append(span.start - 1) }
        if parent >= 0, structure.spans[parent].start > 0, structure.spans[parent].start - 1 != span.start - 1 {
            lengths.append(structure.spans[parent].start - 1)
        }
        var misalignedShorter: [[UInt64]] = []
        for length in lengths where deleted[length] > 0 {
            var shorter = deleted
            shorter[length] -= 1
            let repaired = attempt(shorter, shorter: true)
            if repaired.accepted {
                deleteFollowingSiblings(of: index, in: structure, from: current, length: length)
                return true
            }
            if repaired.misaligned(shorter) { misalignedShorter.append(shorter) }
        }
        let shifted = lowerNumbers(in: deleted, from: span.start, to: parentEnd, deleted: span.count)
        if shifted != deleted, attempt(shifted, shorter: true).accepted { return true }
        for shorter in misalignedShorter where !exhausted {
            let both = lowerNumbers(in: shorter, from: span.start, to: parentEnd, deleted: span.count)
            if both != shorter, attempt(both, shorter: true).accepted { return true }
        }
        return false
    }

    /// After span `index` was deleted from `original` (with the choice at `length` lowered by one, if given),
    /// deletes as many of the siblings right after it as still fails (lowering `length` by as many), searching
    /// their number (1, 2, 3, 4, then doubling and bisecting): a list's tail of irrelevant elements goes in a few
    /// replays rather than one each.
    mutating func deleteFollowingSiblings(
        of index: Int, in structure: ChoiceStructure, from original: [UInt64], length: Int?
    ) {
        let span = structure.spans[index]
        let parent = structure.parents[index]
        var run: [ChoiceSpan] = []
        var end = span.end
        var next = index + 1
        while next < structure.spans.count, structure.spans[next].start < end { next += 1 }  // inside `span`
        while next < structure.spans.count, structure.parents[next] == parent, structure.spans[next].start == end {
            run.append(structure.spans[next])
            end = structure.spans[next].end
            next += 1
            while next < structure.spans.count, structure.spans[next].start < end { next += 1 }
        }
        guard !run.isEmpty else { return }
        let limit = length.map { Swift.min(run.count, Int(clamping: original[$0]) - 1) } ?? run.count
        _ = largestTrue(upTo: limit) { k in
            guard !exhausted else { return false }
            var candidate = original
            if let length { candidate[length] -= UInt64(k + 1) }
            candidate.removeSubrange(span.start..<run[k - 1].end)
            return consider(candidate)
        }
    }

    /// `choices` (`best` with `deleted` choices removed at `start`) with every non-zero number (a choice with more
    /// than two options) in `start..<end` lowered by one.
    func lowerNumbers(in choices: [UInt64], from start: Int, to end: Int, deleted: Int) -> [UInt64] {
        var out = choices
        let maxima = best.maxima
        for k in start..<Swift.min(end, out.count) where out[k] > 0 {
            let original = k + deleted  // where this choice was in `best`
            if original < maxima.count && maxima[original] > 1 { out[k] -= 1 }
        }
        return out
    }

    /// Deletes runs of `widths` raw choices at every position, from the end: what spans cannot do, such as joining
    /// two lists into one (deleting the first's "no more" and the second's "one more?"), and all deletion for a
    /// trial that records no spans. A run whose deletion misaligns the replay is tried again with the choice
    /// before it lowered by one (a length).
    mutating func deleteRuns(widths: [Int]) {
        for width in widths {
            var i = best.choices.count - width
            while i >= 0 && !exhausted {
                let current = best.choices
                if i + width <= current.count {
                    var candidate = current
                    candidate.removeSubrange(i..<(i + width))
                    let plain = attempt(candidate)
                    if !plain.accepted, plain.misaligned(candidate), i > 0, candidate[i - 1] > 0 {
                        candidate[i - 1] -= 1
                        consider(candidate)
                    }
                }
                i -= 1
                i = Swift.min(i, best.choices.count - width)
            }
        }
    }
}
