// What the shrinker knows about a recorded case beyond its choices: where each generated sub-value starts and ends
// (spans), and which choices are integers with a simplest value inside their range. Recorded only on the
// shrinker's replays (`ChoiceSource(replaying:recordingStructure:)`), never on the hot paths (random cases, fuzz
// inputs), and never saved: a regression file holds the choices alone, and replaying it records the structure
// again.

/// What kind of generated sub-value a span holds. The shrinker only swaps a span with, or replaces it by, one of the
/// same label.
public struct SpanLabel: Hashable, Sendable {
    public let rawValue: UInt64

    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// An element of ``Gen/array(count:)`` or ``Gen/set(count:)`` past the minimum count: its "one more?" choice
    /// and the element's choices. Deleting the span deletes the element and nothing else.
    public static let element = SpanLabel(rawValue: 1)
    /// An element the minimum count requires (no "one more?" choice before it).
    public static let requiredElement = SpanLabel(rawValue: 2)
    /// A whole collection: its elements and its final "no more" choice.
    public static let collection = SpanLabel(rawValue: 3)
    /// The choice of ``Gen/oneOf(_:)-([Gen<Value>])`` or ``Gen/frequency(_:)`` and the chosen generator's choices.
    public static let branch = SpanLabel(rawValue: 4)
    /// ``Gen/optional(probability:)``: the "value?" choice and the value.
    public static let optional = SpanLabel(rawValue: 5)
    /// One attempt of ``Gen/filter(maxTries:_:)``.
    public static let attempt = SpanLabel(rawValue: 6)
    /// A generator run through ``Gen/generate(using:)`` (how hand-written generators compose).
    public static let generated = SpanLabel(rawValue: 7)
}

/// A generated sub-value's choices: indices `start..<end` of the case's choice sequence.
public struct ChoiceSpan: Hashable, Sendable {
    public var start: Int
    public var end: Int
    public var label: SpanLabel

    public init(start: Int, end: Int, label: SpanLabel) {
        self.start = start
        self.end = end
        self.label = label
    }

    public var range: Range<Int> { start..<end }
    public var count: Int { end - start }
}

/// The spans and integer choices of one recorded case.
public struct ChoiceStructure: Hashable, Sendable {
    /// Every non-empty span, outermost first and in choice order (a span comes before the spans inside it).
    public private(set) var spans: [ChoiceSpan]
    /// For each span, the index in `spans` of the innermost span holding it, or -1 for a top-level span.
    public private(set) var parents: [Int]
    /// The simplest offset (see ``IntegerOrder``) of each choice drawn as an integer, by choice index.
    public private(set) var integerTargets: [Int: UInt64]

    /// The structure of spans given in any order (as recorded: innermost first), with the integer choices.
    public init(spans recorded: [ChoiceSpan], integerTargets: [Int: UInt64] = [:]) {
        // Outer before inner: by start, then longest first; equal ranges keep the outer (recorded later) first.
        let ordered = recorded.enumerated().filter { $0.element.count > 0 }.sorted { a, b in
            if a.element.start != b.element.start { return a.element.start < b.element.start }
            if a.element.end != b.element.end { return a.element.end > b.element.end }
            return a.offset > b.offset
        }.map(\.element)
        var parents: [Int] = []
        parents.reserveCapacity(ordered.count)
        var open: [Int] = []  // the spans enclosing the current one, innermost last
        for (index, span) in ordered.enumerated() {
            while let last = open.last, ordered[last].end <= span.start { open.removeLast() }
            parents.append(open.last ?? -1)
            open.append(index)
        }
        self.spans = ordered
        self.parents = parents
        self.integerTargets = integerTargets
    }

    /// The order of choice `index` drawn with maximum `max`: the integer order it was drawn with, or the identity
    /// (offset = index) for any other choice.
    public func order(ofChoice index: Int, max: UInt64) -> IntegerOrder {
        IntegerOrder(span: max, target: Swift.min(integerTargets[index] ?? 0, max))
    }

    /// The spans directly inside span `index` (or the top-level spans for -1), in order.
    public func children(of index: Int) -> [Int] {
        parents.indices.filter { parents[$0] == index }
    }
}
