import PropertyTesting

/// The thirteen challenges of the public shrinking challenge, each with its documented minimum.
public enum ShrinkingChallenges {
    public static let all: [ShrinkingChallenge] = [
        bound5, largeUnionList, reverse, calculator, lengthList, differenceMustNotBeZero, differenceMustNotBeSmall,
        differenceMustNotBeOne, binHeap, coupling, deletion, distinct, nestedLists,
    ]

    public static func named(_ name: String) -> ShrinkingChallenge? {
        all.first { $0.name == name }
    }

    /// Five lists of 16-bit integers, each summing (with overflow) to less than 256; the sum of all of them should
    /// then be below 5 × 256, but overflow makes it wrap.
    public static let bound5: ShrinkingChallenge = {
        @Sendable func sum(_ xs: [Int16]) -> Int16 { xs.reduce(0, &+) }
        let list = Gen<Int16>.int().array().filter { sum($0) < 256 }
        return ShrinkingChallenge(
            "bound5", minimum: "([-32768], [-1], [], [], []), the lists in any order", list.array(count: 5),
            holds: { lists in lists.map(sum).reduce(0, &+) < 5 * 256 },
            isMinimal: { lists in
                lists.filter { !$0.isEmpty }.sorted { $0[0] < $1[0] } == [[-32768], [-1]]
            })
    }()

    /// Lists of lists of integers with no more than four distinct integers among them.
    public static let largeUnionList = ShrinkingChallenge(
        "large_union_list", minimum: "[[0, 1, -1, 2, -2]]", Gen<Int>.int().array().array(),
        holds: { lists in Set(lists.joined()).count < 5 },
        isMinimal: { $0 == [[0, 1, -1, 2, -2]] })

    /// A list equal to its reverse.
    public static let reverse = ShrinkingChallenge(
        "reverse", minimum: "[0, 1]", Gen<Int>.int().array(),
        holds: { $0 == Array($0.reversed()) },
        isMinimal: { $0 == [0, 1] })

    /// Expressions of integers, additions and divisions: with no literal division by zero, evaluating them should
    /// not divide by zero.
    public static let calculator: ShrinkingChallenge = {
        let expressions = Gen.recursive(maxDepth: 5, base: Gen<Int>.int().map(Expression.literal)) { child in
            Gen.oneOf(
                Gen.zip(child, child).map { Expression.add($0, $1) },
                Gen.zip(child, child).map { Expression.divide($0, $1) })
        }
        return ShrinkingChallenge(
            "calculator", minimum: "0 / (0 + 0)", expressions,
            holds: { expression in
                try assume(!expression.dividesByLiteralZero)
                return expression.value != nil
            },
            isMinimal: { $0 == .divide(.literal(0), .add(.literal(0), .literal(0))) })
    }()

    /// A list whose length is drawn first (bind): no element should be 900 or more.
    public static let lengthList = ShrinkingChallenge(
        "lengthlist", minimum: "[900]",
        Gen.int(in: 1...100).flatMap { n in Gen.int(in: 0...1_000).array(count: n) },
        holds: { ($0.max() ?? 0) < 900 },
        isMinimal: { $0 == [900] })

    /// Two positive integers: the first below 10 or the two different.
    public static let differenceMustNotBeZero = difference(
        "difference-must-not-be-zero", minimum: (10, 10), { $0 != 0 })

    /// Two positive integers: the first below 10 or their difference not in 1…4.
    public static let differenceMustNotBeSmall = difference(
        "difference-must-not-be-small", minimum: (10, 6), { !(1...4).contains($0) })

    /// Two positive integers: the first below 10 or their difference not 1.
    public static let differenceMustNotBeOne = difference(
        "difference-must-not-be-one", minimum: (10, 9), { $0 != 1 }, iterations: 1_000_000)

    static func difference(
        _ name: String, minimum: (Int32, Int32), _ allowed: @escaping @Sendable (Int64) -> Bool,
        iterations: Int = 100_000
    ) -> ShrinkingChallenge {
        let positive = Gen<Int32>.int(in: 1...Int32.max)
        return ShrinkingChallenge(
            name, minimum: "(\(minimum.0), \(minimum.1))", iterations: iterations, Gen.zip(positive, positive),
            holds: { x, y in x < 10 || allowed(abs(Int64(x) - Int64(y))) },
            isMinimal: { $0 == minimum })
    }

    /// Binary heaps (each key at least its parent's), and a wrong conversion to a sorted list.
    public static let binHeap = ShrinkingChallenge(
        "binheap", minimum: "(0, None, (0, (0, None, None), (1, None, None)))", iterations: 10_000,
        Heap.generator(atLeast: 0),
        holds: { heap in
            let sorted = heap.wronglySorted
            return sorted == sorted.sorted() && heap.elements.sorted() == sorted
        },
        isMinimal: { $0 == .node(0, .empty, .node(0, .node(0, .empty, .empty), .node(1, .empty, .empty))) })

    /// Lists whose elements are indices into the list: no two elements should point at each other.
    public static let coupling = ShrinkingChallenge(
        "coupling", minimum: "[1, 0]",
        Gen.int(in: 0...10).array().filter { xs in xs.allSatisfy { $0 < xs.count } },
        holds: { xs in xs.indices.allSatisfy { i in xs[i] == i || xs[xs[i]] != i } },
        isMinimal: { $0 == [1, 0] })

    /// A list and an index into it: removing the first occurrence of that element should leave none of it.
    public static let deletion = ShrinkingChallenge(
        "deletion", minimum: "([0, 0], 0)",
        Gen<Int>.int().array(count: 1...10).flatMap { xs in Gen.int(in: 0...(xs.count - 1)).map { (xs, $0) } },
        describe: { "(\($0.0), \($0.1))" },
        holds: { xs, i in
            var rest = xs
            if let first = rest.firstIndex(of: xs[i]) { rest.remove(at: first) }
            return !rest.contains(xs[i])
        },
        isMinimal: { $0.0 == [0, 0] && $0.1 == 0 })

    /// A list of integers with fewer than three distinct elements.
    public static let distinct = ShrinkingChallenge(
        "distinct", minimum: "[0, 1, -1] or [0, 1, 2]", Gen<Int>.int().array(),
        holds: { Set($0).count < 3 },
        isMinimal: { $0 == [0, 1, -1] || $0 == [0, 1, 2] })

    /// Lists of lists whose lengths add up to at most 10.
    public static let nestedLists = ShrinkingChallenge(
        "nestedlists", minimum: "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]",
        Gen<Int>.int().array(count: 0...20).array(count: 0...20),
        holds: { lists in lists.reduce(0) { $0 + $1.count } <= 10 },
        isMinimal: { $0 == [Array(repeating: 0, count: 11)] })
}

/// The calculator challenge's expressions.
public indirect enum Expression: Sendable, Equatable, CustomStringConvertible {
    case literal(Int)
    case add(Expression, Expression)
    case divide(Expression, Expression)

    /// The value, or nil when evaluating divides by zero (overflow wraps).
    var value: Int? {
        switch self {
        case .literal(let n): return n
        case .add(let a, let b):
            guard let x = a.value, let y = b.value else { return nil }
            return x &+ y
        case .divide(let a, let b):
            guard let x = a.value, let y = b.value, y != 0 else { return nil }
            return x.dividedReportingOverflow(by: y).partialValue
        }
    }

    var dividesByLiteralZero: Bool {
        switch self {
        case .literal: return false
        case .add(let a, let b): return a.dividesByLiteralZero || b.dividesByLiteralZero
        case .divide(let a, let b): return b == .literal(0) || a.dividesByLiteralZero || b.dividesByLiteralZero
        }
    }

    public var description: String {
        switch self {
        case .literal(let n): return "\(n)"
        case .add(let a, let b): return "(\(a) + \(b))"
        case .divide(let a, let b): return "(\(a) / \(b))"
        }
    }
}

/// The binheap challenge's trees, written as the challenge writes them: `(key, left, right)` or `None`.
public indirect enum Heap: Sendable, Equatable, CustomStringConvertible {
    case empty
    case node(Int, Heap, Heap)

    /// Heaps whose keys are at least `minimum`: a subtree is empty three times in four, so generation ends (two
    /// nodes on average) without a depth limit, as in the challenge's jqwik and Hypothesis versions.
    static func generator(atLeast minimum: Int) -> Gen<Heap> {
        let node = Gen.int(in: minimum...Int.max).flatMap { key in
            Gen.zip(generator(atLeast: key), generator(atLeast: key)).map { Heap.node(key, $0, $1) }
        }
        return Gen.frequency([(3, .constant(.empty)), (1, node)])
    }

    /// The keys in preorder, right subtrees first (as the challenge's stack-based `toList`).
    var elements: [Int] {
        var out: [Int] = []
        var stack: [Heap] = [self]
        while let top = stack.popLast() {
            guard case .node(let key, let left, let right) = top else { continue }
            out.append(key)
            stack.append(left)
            stack.append(right)
        }
        return out
    }

    /// The wrong conversion: the root, then the merged subtrees' keys in `elements` order (not sorted).
    var wronglySorted: [Int] {
        guard case .node(let key, let left, let right) = self else { return [] }
        return [key] + Heap.merge(left, right).elements
    }

    static func merge(_ a: Heap, _ b: Heap) -> Heap {
        guard case .node(let x, let xl, let xr) = a else { return b }
        guard case .node(let y, let yl, let yr) = b else { return a }
        return x <= y ? .node(x, merge(xr, b), xl) : .node(y, merge(yr, a), yl)
    }

    public var description: String {
        switch self {
        case .empty: return "None"
        case .node(let key, let left, let right): return "(\(key), \(left), \(right))"
        }
    }
}
