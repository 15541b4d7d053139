import PropertyTesting
import Testing

@Suite struct IntegerOrderTests {
    @Test(arguments: [(-5, 5), (-128, 127), (3, 20), (-20, -3), (0, 0), (-1, 0), (0, 7), (-7, 2)])
    func indexAndOffsetAreInverse(range: (Int, Int)) {
        let span = UInt64(range.1 - range.0)
        let target: UInt64 = (range.0...range.1).contains(0) ? UInt64(-range.0) : (range.0 > 0 ? 0 : span)
        let order = IntegerOrder(span: span, target: target)
        var seen = Set<UInt64>()
        for index in 0...span {
            let offset = order.offset(forIndex: index)
            #expect(offset <= span)
            #expect(order.index(forOffset: offset) == index)
            seen.insert(offset)
        }
        #expect(seen.count == Int(span) + 1, "not a bijection")
        #expect(order.offset(forIndex: 0) == target)
    }

    @Test func zeroIsSimplestAndSignsAlternate() {
        let gen = Gen.int(in: -3...3)
        #expect((0...6).map { gen.generate(replaying: [$0]) } == [0, 1, -1, 2, -2, 3, -3])
        #expect(Gen.int(in: 10...20).generate(replaying: [0]) == 10)
        #expect(Gen.int(in: -20 ... -10).generate(replaying: [0]) == -10)
    }

    @Test func fullWidthTypesStayInRangeAndReachBounds() {
        #expect(Gen<Int64>.int().generate(replaying: [UInt64.max]) == Int64.min)
        #expect(Gen<Int64>.int().generate(replaying: [UInt64.max - 1]) == Int64.min + 1)
        #expect(Gen<Int64>.int().generate(replaying: [UInt64.max - 2]) == Int64.max)
        #expect(Gen<UInt64>.int().generate(replaying: [UInt64.max]) == UInt64.max)
        #expect(Gen<Int8>.int().generate(replaying: [255]) == Int8.min)
        #expect(Gen<UInt16>.int(in: 100...200).generate(replaying: [100]) == 200)
        var sawMin = false
        var sawMax = false
        for seed in 0..<2_000 as Range<UInt64> {
            let v = Gen<Int16>.int(in: -300...300).generate(seed: seed)
            #expect((-300...300).contains(v))
            sawMin = sawMin || v == -300
            sawMax = sawMax || v == 300
        }
        #expect(sawMin && sawMax, "random mode should hit the bounds")
        for seed in 0..<200 as Range<UInt64> {
            _ = Gen<Int32>.int().generate(seed: seed)
            _ = Gen<UInt32>.int().generate(seed: seed)
            _ = Gen<UInt>.int().generate(seed: seed)
            #expect((5...9).contains(Gen<UInt8>.int(in: 5...9).generate(seed: seed)))
        }
    }
}

@Suite struct ChoiceEncodingTests {
    @Test func bytesReplayExactlyTheRecordedChoices() {
        let gen = Gen.zip(
            Gen.int(in: 0...100_000).array(count: 0...6), Gen.string(.unicode, length: 0...5), Gen<Int64>.int())
        for seed in 0..<300 as Range<UInt64> {
            let source = ChoiceSource(seed: seed)
            let value = gen.generate(using: source)
            let bytes = ChoiceSequence(choices: source.choices, maxima: source.maxima).bytes
            let replayed = gen.generate(from: bytes)
            #expect(String(reflecting: replayed) == String(reflecting: value))
            #expect(gen.generate(from: Hex.decode(Hex.encode(bytes)) ?? [0xFF]).2 == value.2)
        }
    }

    @Test func hexParsing() {
        #expect(Hex.decode("00ff10") == [0, 255, 16])
        #expect(Hex.decode("0xAB cd") == [0xAB, 0xCD])
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.encode([0, 1, 0xFE]) == "0001fe")
    }

    @Test func shortlexOrder() {
        #expect(ChoiceSequence.isSimpler([9, 9], than: [0, 0, 0]))
        #expect(ChoiceSequence.isSimpler([1, 0], than: [1, 1]))
        #expect(!ChoiceSequence.isSimpler([1, 1], than: [1, 1]))
    }

    @Test func fnvKnownValues() {
        #expect(FNV1a64.hex([]) == "cbf29ce484222325")
        #expect(FNV1a64.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
    }
}

/// A generator using every combinator, for totality checks.
indirect enum Tree: Equatable, Sendable {
    case leaf(Int8)
    case node([Tree])
}

let everything: Gen<(Tree, Set<String>, String?, [UInt8], Int, Bool, [Int: UInt16])> = {
    let tree = Gen.recursive(maxDepth: 4, base: Gen<Int8>.int().map(Tree.leaf)) { child in
        child.array(count: 0...4).map(Tree.node)
    }
    let strings = Gen.string(.unicode, length: 0...6).set(count: 1...4)
    let optional = Gen.string(.asciiPrintable, length: 1...3).filter { $0.first != "0" }.optional()
    let mixed = Gen.frequency([(3, Gen.int(in: 0...9)), (1, Gen.int(in: 1_000...2_000))])
        .flatMap { n in Gen.oneOf(Gen.constant(n), Gen.int(in: 0...max(0, n))) }
    let flags = Gen.element(of: [true, false])
    let dict = Gen.int(in: 0...50).dictionary(values: Gen<UInt16>.int(), count: 0...5)
    return Gen.zip(Gen.zip(tree, strings, optional, Gen.bytes(count: 0...8)), Gen.zip(mixed, flags, dict))
        .map { a, b in (a.0, a.1, a.2, a.3, b.0, b.1, b.2) }
}()

@Suite struct ByteDrivingTests {
    @Test func emptyAndShortInputsGiveTheSimplestValues() {
        let (tree, set, optional, bytes, mixed, flag, dict) = everything.generate(from: [])
        #expect(tree == .leaf(0))
        #expect(set == [""])
        #expect(optional == nil)
        #expect(bytes == [])
        #expect(mixed == 0)
        #expect(flag == true)
        #expect(dict == [:])
        #expect(Gen.string().generate(from: []) == "")
        #expect(Gen.int(in: 5...9).generate(from: []) == 5)
    }

    @Test func anyBytesAreDeterministicAndTotal() {
        var rng = Xoshiro256(seed: 7)
        for round in 0..<3_000 {
            let length = round < 256 ? round % 17 : Int(rng.next(upTo: 600))
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if round % 5 == 0 { bytes = bytes.map { _ in 0xFF } }
            let first = ChoiceSource(bytes: bytes)
            let second = ChoiceSource(bytes: bytes)
            let a = everything.generate(using: first)
            let b = everything.generate(using: second)
            #expect(first.choices == second.choices)
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4 && a.5 == b.5 && a.6 == b.6)
            let string = Gen.string(.unicode, length: 0...40).generate(from: bytes)
            #expect(string.unicodeScalars.allSatisfy { !(0xD800...0xDFFF).contains($0.value) })
        }
    }

    @Test func rawBufferEntryPointMatchesArray() {
        let bytes: [UInt8] = [3, 1, 4, 1, 5, 9, 2, 6]
        let viaBuffer = bytes.withUnsafeBytes { Gen.string(length: 0...8).generate(from: $0) }
        #expect(viaBuffer == Gen.string(length: 0...8).generate(from: bytes))
    }

    @Test func choiceLimitStopsRunawayGeneration() {
        let nested = Gen.int(in: 0...9).array(count: 0...1_000).array(count: 0...1_000)
        let source = ChoiceSource(bytes: Array(repeating: 0xFF, count: 100_000), maxChoices: 500)
        let value = nested.generate(using: source)
        #expect(source.didOverrun && source.isInvalid)
        #expect(source.choices.count <= 500)
        #expect(value.count <= 500)
    }
}

@Suite struct GeneratorTests {
    @Test func unicodeStringsAreValidAndVaried() {
        var sawAscii = false
        var sawCombining = false
        var sawCJK = false
        var sawEmoji = false
        var sawNUL = false
        var sawLatin1 = false
        for seed in 0..<2_000 as Range<UInt64> {
            for scalar in Gen.string(.unicode, length: 0...10).generate(seed: seed).unicodeScalars {
                switch scalar.value {
                case 0: sawNUL = true
                case 0x20...0x7E: sawAscii = true
                case 0xA0...0xFF: sawLatin1 = true
                case 0x300...0x36F: sawCombining = true
                case 0x4E00...0x9FFF: sawCJK = true
                case 0x1F300...0x1FAFF: sawEmoji = true
                default: break
                }
            }
        }
        #expect(sawAscii && sawCombining && sawCJK && sawEmoji && sawNUL && sawLatin1)
    }

    @Test func alphabetsConstrainScalars() {
        let abc = Alphabet("cab")
        #expect(abc.count == 3)
        #expect(Gen.scalar(abc).generate(from: []) == "c")
        let surrogatesRemoved = Alphabet(ranges: [0xD700...0xE001])
        #expect(surrogatesRemoved.count == 0x100 + 2)
        for seed in 0..<500 as Range<UInt64> {
            let s = Gen.string(.alphanumeric, length: 1...8).generate(seed: seed)
            #expect(!s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(Gen.string(abc, length: 0...5).generate(seed: seed).allSatisfy { "abc".contains($0) })
        }
        #expect(Alphabet.unicode.count == 0x110000 - 0x800)
        #expect(Alphabet.unicode.scalar(at: 0) == "0")
        #expect(Alphabet.unicode.scalar(at: Alphabet.unicode.count - 1) == "\u{10FFFF}")
    }

    @Test func arraysAndSetsRespectSizes() {
        for seed in 0..<500 as Range<UInt64> {
            #expect((2...5).contains(Gen.int(in: 0...9).array(count: 2...5).generate(seed: seed).count))
            let source = ChoiceSource(seed: seed)
            let set = Gen.int(in: 0...3).set(count: 2...4).generate(using: source)
            #expect(set.count <= 4)
            #expect(set.count >= 2 || source.isInvalid)
        }
        #expect(
            Gen.int(in: 0...9).set(count: 5...5).generate(from: []).count < 5,
            "all-zero choices cannot make 5 distinct values")
    }

    @Test func filterGivesUpAndMarksTheCaseInvalid() {
        let impossible = Gen.int(in: 0...10).filter(maxTries: 5) { $0 > 100 }
        let source = ChoiceSource(seed: 1)
        _ = impossible.generate(using: source)
        #expect(source.isInvalid)
        #expect(source.choices.count == 5)
        #expect(impossible.generateIfValid(from: [1, 2, 3]) == nil)
        let even = Gen.int(in: 0...1_000).filter { $0 % 2 == 0 }
        for seed in 0..<200 as Range<UInt64> { #expect(even.generate(seed: seed) % 2 == 0) }
    }

    @Test func oneOfAndFrequencyPickTheFirstOnZero() {
        #expect(Gen.oneOf(Gen.constant("a"), Gen.constant("b")).generate(from: []) == "a")
        #expect(Gen.frequency([(1, Gen.constant(1)), (9, Gen.constant(2))]).generate(from: []) == 1)
        var counts = [0, 0]
        for seed in 0..<2_000 as Range<UInt64> {
            counts[Gen.frequency([(1, Gen.constant(0)), (9, Gen.constant(1))]).generate(seed: seed)] += 1
        }
        #expect(counts[1] > counts[0] * 5, "weights are respected: \(counts)")
    }

    @Test func shuffledIsAPermutation() {
        for seed in 0..<200 as Range<UInt64> {
            #expect(Gen.shuffled(Array(0..<10)).generate(seed: seed).sorted() == Array(0..<10))
        }
        #expect(Gen.shuffled([1, 2, 3]).generate(from: []) == [1, 2, 3])
    }

    @Test func recursionIsBoundedByDepth() {
        func depth(_ t: Tree) -> Int {
            if case .node(let children) = t { return 1 + (children.map(depth).max() ?? 0) }
            return 0
        }
        for seed in 0..<300 as Range<UInt64> {
            #expect(depth(everything.generate(seed: seed).0) <= 4)
        }
    }
}

/// `IntegerChoice` and `CollectionLength` are what `Gen.int(in:)` and `Gen.array(count:)` draw with, and what
/// straight-code generators use in their place: they must keep drawing exactly as the first combinators did
/// (written out again here), or saved bytes and seeds would change meaning.
@Suite struct DirectDrawTests {
    /// `Gen.int(in:)` as first written.
    static func firstInt<V: FixedWidthInteger & Sendable>(in range: ClosedRange<V>) -> Gen<V> {
        func bits<T: FixedWidthInteger>(_ v: T) -> UInt64 {
            T.isSigned ? UInt64(bitPattern: Int64(truncatingIfNeeded: v)) ^ (1 << 63) : UInt64(truncatingIfNeeded: v)
        }
        let lower = bits(range.lowerBound)
        let span = bits(range.upperBound) &- lower
        let target: UInt64 = range.contains(0) ? bits(V.zero) &- lower : range.lowerBound > 0 ? 0 : span
        let order = IntegerOrder(span: span, target: target)
        return Gen { source in
            let index = source.draw(upTo: span) { rng in order.randomIndex(&rng) }
            let b = lower &+ order.offset(forIndex: index)
            return V.isSigned ? V(truncatingIfNeeded: Int64(bitPattern: b ^ (1 << 63))) : V(truncatingIfNeeded: b)
        }
    }

    /// `Gen.array(count:)` as first written.
    static func firstArray<V>(_ element: Gen<V>, count: ClosedRange<Int>) -> Gen<[V]> {
        let minCount = Swift.max(0, count.lowerBound)
        let maxCount = Swift.max(minCount, count.upperBound)
        let lo = Double(minCount)
        let hi = Double(maxCount)
        let average = Swift.min(Swift.max(lo * 2, lo + 5), (lo + hi) / 2)
        let extra = Swift.max(0, average - lo)
        let more = extra / (extra + 1)
        return Gen { source in
            var result: [V] = []
            while result.count < minCount {
                result.append(element.generate(using: source))
                if source.didOverrun { break }
            }
            while result.count < maxCount && !source.didOverrun && source.drawBool(probability: more) {
                result.append(element.generate(using: source))
            }
            return result
        }
    }

    func expectSame<V: Equatable>(_ a: Gen<V>, _ b: Gen<V>, maxChoices: Int = 10_000) {
        var rng = Xoshiro256(seed: 3)
        for seed in 0..<300 as Range<UInt64> {
            let x = ChoiceSource(seed: seed, maxChoices: maxChoices)
            let y = ChoiceSource(seed: seed, maxChoices: maxChoices)
            #expect(a.generate(using: x) == b.generate(using: y))
            #expect(x.choices == y.choices && x.isInvalid == y.isInvalid)
            let bytes = (0..<Int(rng.next(upTo: 40))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(a.generate(from: bytes, maxChoices: maxChoices) == b.generate(from: bytes, maxChoices: maxChoices))
        }
    }

    @Test func integersDrawAsBefore() {
        expectSame(Gen.int(in: 0...3), Self.firstInt(in: 0...3))
        expectSame(Gen.int(in: -7...2), Self.firstInt(in: -7...2))
        expectSame(Gen.int(in: 45...55), Self.firstInt(in: 45...55))
        expectSame(Gen.int(in: -20 ... -3), Self.firstInt(in: -20 ... -3))
        expectSame(Gen<UInt8>.int(), Self.firstInt(in: UInt8.min...UInt8.max))
        expectSame(Gen<Int64>.int(), Self.firstInt(in: Int64.min...Int64.max))
        let digit = IntegerChoice<Int>(in: 0...9)
        expectSame(Gen { digit.draw(from: $0) }, Self.firstInt(in: 0...9))
    }

    @Test func arraysDrawAsBefore() {
        let digit = Gen.int(in: 0...9)
        for count in [0...3, 0...10, 2...5, 3...3, 0...0, 1...40, -2...1] {
            expectSame(digit.array(count: count), Self.firstArray(digit, count: count))
            expectSame(digit.array(count: count), Self.firstArray(digit, count: count), maxChoices: 3)  // overruns
        }
    }
}
