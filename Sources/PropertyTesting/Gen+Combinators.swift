// Combinators. Each one draws through the same source, so shrinking composes through all of them:
// deleting a chunk of choices shortens a collection, zeroing a choice picks the first alternative, etc.

extension Gen {
    /// Transforms each value; shrinks as the underlying generator does.
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
        Gen<T> { source in transform(self.body(source)) }
    }

    /// Uses a value to choose the next generator (dependent generation).
    @inlinable
    public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { source in transform(self.body(source)).body(source) }
    }

    /// Keeps drawing until `predicate` holds, at most `maxTries` times; then the case is marked invalid
    /// (the runner discards it) and the last value is returned. Prefer constructing valid values directly.
    @inlinable
    public func filter(maxTries: Int = 100, _ predicate: @escaping @Sendable (Value) -> Bool) -> Gen<Value> {
        let tries = Swift.max(1, maxTries)
        return Gen { source in
            var start = source.position
            var value = self.body(source)
            source.closeSpan(.attempt, from: start)
            if predicate(value) { return value }
            for _ in 1..<tries {
                start = source.position
                value = self.body(source)
                source.closeSpan(.attempt, from: start)
                if predicate(value) { return value }
                if source.didOverrun { break }
            }
            source.reject()
            return value
        }
    }

    /// `nil` or a value; `nil` is the simplest. `probability` is the chance of a value in random mode.
    @inlinable
    public func optional(probability: Double = 0.8) -> Gen<Value?> {
        Gen<Value?> { source in
            let start = source.position
            let value = source.drawBool(probability: probability) ? self.body(source) : nil
            source.closeSpan(.optional, from: start)
            return value
        }
    }

    /// Pairs this generator with another.
    @inlinable
    public func zip<B>(_ other: Gen<B>) -> Gen<(Value, B)> {
        Gen<(Value, B)> { source in (self.body(source), other.body(source)) }
    }

    /// Two generators side by side: `Gen.zip(a, b)`.
    @inlinable
    public static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)> where Value == (A, B) {
        Gen { source in (a.body(source), b.body(source)) }
    }

    /// Three generators side by side.
    @inlinable
    public static func zip<A, B, C>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>) -> Gen<(A, B, C)> where Value == (A, B, C) {
        Gen { source in (a.body(source), b.body(source), c.body(source)) }
    }

    /// Four generators side by side.
    @inlinable
    public static func zip<A, B, C, D>(
        _ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>, _ d: Gen<D>
    ) -> Gen<(A, B, C, D)> where Value == (A, B, C, D) {
        Gen { source in (a.body(source), b.body(source), c.body(source), d.body(source)) }
    }

    /// One of the generators, chosen uniformly; shrinks toward the first (put the simplest first).
    @inlinable
    public static func oneOf(_ generators: Gen<Value>...) -> Gen<Value> {
        oneOf(generators)
    }

    /// One of the generators, chosen uniformly; shrinks toward the first. Must not be empty.
    @inlinable
    public static func oneOf(_ generators: [Gen<Value>]) -> Gen<Value> {
        precondition(!generators.isEmpty, "Gen.oneOf needs at least one generator")
        let last = UInt64(generators.count - 1)
        return Gen { source in
            let start = source.position
            let index = Int(source.draw(upTo: last))
            let value = generators[index < generators.count ? index : 0].body(source)
            source.closeSpan(.branch, from: start)
            return value
        }
    }

    /// One of the generators with relative weights; shrinks toward the first. Weights must be
    /// non-negative and not all zero.
    @inlinable
    public static func frequency(_ weighted: [(Int, Gen<Value>)]) -> Gen<Value> {
        let entries = weighted.filter { $0.0 > 0 }
        precondition(!entries.isEmpty, "Gen.frequency needs a positive weight")
        var cumulative: [UInt64] = []
        var total: UInt64 = 0
        for (weight, _) in entries {
            total &+= UInt64(weight)
            cumulative.append(total)
        }
        let generators = entries.map { $0.1 }
        let thresholds = cumulative
        let last = total &- 1
        return Gen { source in
            let start = source.position
            let roll = source.draw(upTo: last)
            var index = 0
            while index < thresholds.count - 1 && roll >= thresholds[index] { index += 1 }
            let value = generators[index].body(source)
            source.closeSpan(.branch, from: start)
            return value
        }
    }

    /// Defers building the generator until it is used (for mutually recursive definitions).
    public static func lazy(_ make: @escaping @Sendable () -> Gen<Value>) -> Gen<Value> {
        Gen { source in make().body(source) }
    }

    /// A recursive generator with bounded depth. `extend` receives the generator for one level deeper
    /// and builds a compound value from it. At each level the choice is between `base` (first, so the
    /// simplest) and `extend`; at `maxDepth` only `base` remains, so generation always terminates.
    ///
    ///     indirect enum Tree { case leaf(Int), node([Tree]) }
    ///     let trees = Gen.recursive(maxDepth: 4, base: Gen.int(in: 0...9).map(Tree.leaf)) { child in
    ///         child.array(count: 0...3).map(Tree.node)
    ///     }
    public static func recursive(
        maxDepth: Int,
        base: Gen<Value>,
        extend: @escaping @Sendable (Gen<Value>) -> Gen<Value>
    ) -> Gen<Value> {
        var level = base
        for _ in 0..<Swift.max(0, maxDepth) {
            level = oneOf(base, extend(level))
        }
        return level
    }
}

// MARK: - Collections

extension Gen {
    /// Average element count used in random mode for a size range (Hypothesis' heuristic).
    @usableFromInline
    static func averageSize(_ count: ClosedRange<Int>) -> Double {
        let lo = Double(count.lowerBound)
        let hi = Double(count.upperBound)
        return Swift.min(Swift.max(lo * 2, lo + 5), (lo + hi) / 2)
    }

    /// Arrays with a length in `count` (negative bounds are treated as 0). Each element past the minimum
    /// is preceded by a "one more?" choice, so shrinking deletes elements (toward shorter) and then
    /// simplifies the remaining ones.
    @inlinable
    public func array(count: ClosedRange<Int> = 0...10) -> Gen<[Value]> {
        let length = CollectionLength(count)
        return Gen<[Value]> { source in
            var result: [Value] = []
            // Room for the minimum and a few more: growing one element at a time reallocates at 1, 2, 4, 8.
            result.reserveCapacity(Swift.min(length.maxCount, Swift.max(length.minCount, 8), 1024))
            let start = source.position
            var elementStart = start
            while length.wantsAnother(after: result.count, from: source) {
                result.append(self.body(source))
                source.closeSpan(length.spanLabel(after: result.count), from: elementStart)
                elementStart = source.position
            }
            source.closeSpan(.collection, from: start)
            return result
        }
    }

    /// Arrays of exactly `count` elements.
    @inlinable
    public func array(count: Int) -> Gen<[Value]> {
        array(count: count...count)
    }

    /// Sets with a size in `count`. Duplicate draws are retried a bounded number of times; a set that
    /// cannot reach its minimum size marks the case invalid.
    public func set(count: ClosedRange<Int> = 0...10) -> Gen<Set<Value>> where Value: Hashable & SendableMetatype {
        let minCount = Swift.max(0, count.lowerBound)
        let maxCount = Swift.max(minCount, count.upperBound)
        let average = Gen.averageSize(minCount...maxCount)
        let extra = Swift.max(0, average - Double(minCount))
        let more = extra / (extra + 1)
        return Gen<Set<Value>> { source in
            var result = Set<Value>()
            var duplicates = 0
            let maxDuplicates = 2 * maxCount + 10
            let start = source.position
            while result.count < maxCount && duplicates <= maxDuplicates && !source.didOverrun {
                let elementStart = source.position
                let required = result.count < minCount
                if !required && !source.drawBool(probability: more) { break }
                if result.insert(self.body(source)).inserted == false { duplicates += 1 }
                source.closeSpan(required ? .requiredElement : .element, from: elementStart)
            }
            source.closeSpan(.collection, from: start)
            if result.count < minCount { source.reject() }
            return result
        }
    }

    /// Dictionaries with keys from `self` and values from `values`; later duplicates of a key are dropped.
    public func dictionary<V>(values: Gen<V>, count: ClosedRange<Int> = 0...10) -> Gen<[Value: V]>
    where Value: Hashable & SendableMetatype {
        self.zip(values).array(count: count).map { pairs in
            var result: [Value: V] = [:]
            for (key, value) in pairs where result[key] == nil { result[key] = value }
            return result
        }
    }

    /// A permutation of `elements`; shrinks toward the original order.
    public static func shuffled(_ elements: [Value]) -> Gen<[Value]> where Value: Sendable {
        Gen<[Value]> { source in source.shuffled(elements) }
    }
}

extension Gen where Value == [UInt8] {
    /// Byte arrays, each byte shrinking toward 0.
    public static func bytes(count: ClosedRange<Int> = 0...32) -> Gen<[UInt8]> {
        Gen<UInt8>.int().array(count: count)
    }
}

/// The length rule of ``Gen/array(count:)``, for generators written as straight code over a ``ChoiceSource``
/// (no combinator tree to build or call through): the same choices, so the same values from the same bytes.
///
///     let length = CollectionLength(0...3)
///     var items: [Int] = []
///     while length.wantsAnother(after: items.count, from: source) { items.append(digit.draw(from: source)) }
public struct CollectionLength: Sendable, Hashable {
    /// The least and the most elements (negative bounds read as 0).
    public let minCount: Int
    public let maxCount: Int
    /// Random-mode chance of one more element past the minimum (geometric, Hypothesis' average size).
    public let moreProbability: Double

    public init(_ count: ClosedRange<Int>) {
        minCount = Swift.max(0, count.lowerBound)
        maxCount = Swift.max(minCount, count.upperBound)
        let lo = Double(minCount)
        let hi = Double(maxCount)
        let average = Swift.min(Swift.max(lo * 2, lo + 5), (lo + hi) / 2)
        let extra = Swift.max(0, average - lo)
        moreProbability = extra / (extra + 1)  // expected extra elements = `extra`
    }

    /// The span label of the element that made the collection `count` long: required up to the minimum.
    @inlinable
    public func spanLabel(after count: Int) -> SpanLabel {
        count <= minCount ? .requiredElement : .element
    }

    /// Whether a collection holding `count` elements gets one more: always up to the minimum (unless the source
    /// overran), then a "one more?" choice up to the maximum.
    @inlinable
    public func wantsAnother(after count: Int, from source: ChoiceSource) -> Bool {
        if count < minCount { return count == 0 || !source.didOverrun }
        return count < maxCount && !source.didOverrun && source.drawBool(probability: moreProbability)
    }
}

extension ChoiceSource {
    /// A permutation of `elements` (what ``Gen/shuffled(_:)`` draws); shrinks toward the original order.
    public func shuffled<T>(_ elements: [T]) -> [T] {
        var result = elements
        var i = 0
        while i + 1 < result.count {
            let j = i + Int(draw(upTo: UInt64(result.count - 1 - i)))
            if j != i, j < result.count { result.swapAt(i, j) }
            i += 1
        }
        return result
    }
}
