// Passes over whole sub-values: they need the recorded spans (``ChoiceStructure``) and do nothing without them.

extension Shrinker {
    /// Sets every choice of a span to 0, the simplest choice, outermost spans first: a whole sub-value becomes its
    /// simplest form in one replay (a branch its first alternative with the smallest numbers, a required element
    /// the simplest element). Not for elements past a collection's minimum nor whole collections: zeroing those
    /// truncates the collection, which deletion already tries. Single choices are left to ``lowerEachChoice()``.
    mutating func zeroSpans() {
        var index = 0
        while !exhausted, let structure = currentStructure(), index < structure.spans.count {
            let span = structure.spans[index]
            index += 1
            let current = best.choices
            guard span.count > 1, span.label != .element, span.label != .collection, span.end <= current.count,
                current[span.range].contains(where: { $0 != 0 })
            else { continue }
            var candidate = current
            for k in span.range { candidate[k] = 0 }
            consider(candidate)
        }
    }

    /// Replaces a span by one of its descendants of the same kind (same label, same number of options in their
    /// first choice), outermost first: a tree by one of its subtrees, an expression by one of its operands.
    /// Deleting cannot do this, since what lies around the subtree is what makes it a tree.
    mutating func replaceWithDescendants() {
        var index = 0
        while !exhausted, let structure = currentStructure(), index < structure.spans.count {
            var replaced = false
            for descendant in alikeDescendants(of: index, in: structure) where !exhausted {
                let outer = structure.spans[index]
                let inner = structure.spans[descendant]
                let current = best.choices
                guard outer.end <= current.count else { break }
                let candidate = Array(current[..<outer.start]) + current[inner.range] + current[outer.end...]
                if consider(candidate) {
                    replaced = true
                    break
                }
            }
            if !replaced { index += 1 }
        }
    }

    /// Whether two spans hold the same kind of sub-value, as far as the shrinker can tell: the same label, and a
    /// first choice with the same maximum (the same alternatives, the same range).
    func alike(_ a: ChoiceSpan, _ b: ChoiceSpan) -> Bool {
        a.label == b.label && a.start < best.maxima.count && b.start < best.maxima.count
            && best.maxima[a.start] == best.maxima[b.start]
    }

    /// The descendants of span `index` alike to it, in order (outer before inner), at most 32. Not only the
    /// nearest: the alternatives of a recursive generator nest one `oneOf` in another, so the nearest alike span is
    /// often the inner choice of the same node rather than a subtree.
    func alikeDescendants(of index: Int, in structure: ChoiceStructure) -> [Int] {
        let outer = structure.spans[index]
        guard outer.label == .branch || outer.label == .generated else { return [] }
        var found: [Int] = []
        var next = index + 1
        while next < structure.spans.count, structure.spans[next].start < outer.end, found.count < 32 {
            let span = structure.spans[next]
            if alike(outer, span), span.range != outer.range { found.append(next) }
            next += 1
        }
        return found
    }

    /// Sorts the spans of one kind under one parent, simplest first (shortlex on their choices), then, if the
    /// sorted whole no longer fails, swaps single pairs where the later one is simpler: `([], [5], [])` →
    /// `([], [], [5])`, and a heap whose left subtree is the larger → the mirror image. The swapped spans may
    /// differ in length.
    mutating func sortSiblings() {
        guard let initial = currentStructure() else { return }
        var parent = -1
        while !exhausted, parent < initial.spans.count {
            guard let structure = currentStructure(), parent < structure.spans.count else { break }
            let children = structure.children(of: parent)
            var groups: [[Int]] = []
            for child in children {
                if let g = groups.firstIndex(where: { alike(structure.spans[$0[0]], structure.spans[child]) }) {
                    groups[g].append(child)
                } else {
                    groups.append([child])
                }
            }
            for group in groups where group.count > 1 && !exhausted {
                if sortGroup(group.map { structure.spans[$0] }) { break }
            }
            parent += 1
        }
    }

    /// Sorts one group of alike sibling spans, or failing that swaps one out-of-order pair; true on a success.
    mutating func sortGroup(_ spans: [ChoiceSpan]) -> Bool {
        let current = best.choices
        guard let last = spans.last, last.end <= current.count else { return false }
        let slices = spans.map { Array(current[$0.range]) }
        let sorted = slices.sorted { ChoiceSequence.isSimpler($0, than: $1) }
        if sorted == slices { return false }
        if consider(rebuilt(current, spans, with: sorted)) { return true }
        for i in 0..<slices.count {
            for j in (i + 1)..<slices.count where ChoiceSequence.isSimpler(slices[j], than: slices[i]) {
                guard !exhausted else { return false }
                var swapped = slices
                swapped.swapAt(i, j)
                if consider(rebuilt(current, spans, with: swapped)) { return true }
            }
        }
        return false
    }

    /// `choices` with each of the (ordered, disjoint) `spans` holding the matching slice instead.
    func rebuilt(_ choices: [UInt64], _ spans: [ChoiceSpan], with slices: [[UInt64]]) -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(choices.count)
        var cursor = 0
        for (span, slice) in zip(spans, slices) {
            out.append(contentsOf: choices[cursor..<span.start])
            out.append(contentsOf: slice)
            cursor = span.end
        }
        out.append(contentsOf: choices[cursor...])
        return out
    }
}
