// `Gen<Value>`: a recipe that turns choices into a value.
//
// A generator never sees randomness directly: it asks a `ChoiceSource` for numbers in `0...max`, and the
// source records them. Shrinking edits that record and runs the generator again, so every generator built
// from these pieces (including through `map`, `flatMap`, `zip`, `filter`) shrinks without writing a shrinker.
//
//     let pairs = Gen.zip(Gen.int(in: 0...100), Gen.string(.asciiPrintable, length: 0...8))
//     let value = pairs.generate(seed: 42)            // random
//     let same  = pairs.generate(from: fuzzerBytes)   // libFuzzer / regression bytes; total for any input

/// A generator of values built from recorded choices.
public struct Gen<Value>: Sendable {
    @usableFromInline
    let body: @Sendable (ChoiceSource) -> Value

    /// A generator from a function that draws from the source. Draw only through the source so the
    /// value can be replayed and shrunk; return some value even when the source is exhausted or invalid.
    @inlinable
    public init(_ body: @escaping @Sendable (ChoiceSource) -> Value) {
        self.body = body
    }

    /// Runs the generator against a source (the source records the choices, and, on the shrinker's replays, the
    /// span they make: how hand-written generators show their parts to the shrinker).
    @inlinable
    public func generate(using source: ChoiceSource) -> Value {
        guard source.recordsStructure else { return body(source) }
        let start = source.position
        let value = body(source)
        source.closeSpan(.generated, from: start)
        return value
    }

    /// One random value for a seed (the same seed gives the same value).
    public func generate(seed: UInt64, maxChoices: Int = 10_000) -> Value {
        body(ChoiceSource(seed: seed, maxChoices: maxChoices))
    }

    /// The value a byte string encodes: deterministic and total (empty or short input reads as zeros, the
    /// simplest choices). This is the entry point for fuzz harnesses and `--replay`.
    public func generate(from bytes: [UInt8], maxChoices: Int = 10_000) -> Value {
        body(ChoiceSource(bytes: bytes, maxChoices: maxChoices))
    }

    /// As `generate(from:)` for a raw buffer (libFuzzer's `data`, `size`), copying it first.
    public func generate(from buffer: UnsafeRawBufferPointer, maxChoices: Int = 10_000) -> Value {
        generate(from: Array(buffer.bindMemory(to: UInt8.self)), maxChoices: maxChoices)
    }

    /// The value and whether generation was valid (a filter may give up; fuzz harnesses can skip those).
    public func generateIfValid(from bytes: [UInt8], maxChoices: Int = 10_000) -> Value? {
        let source = ChoiceSource(bytes: bytes, maxChoices: maxChoices)
        let value = body(source)
        return source.isInvalid ? nil : value
    }

    /// The value replayed from a recorded choice list.
    public func generate(replaying choices: [UInt64], maxChoices: Int = 10_000) -> Value {
        body(ChoiceSource(replaying: choices, maxChoices: maxChoices))
    }
}

// MARK: - Constants and elements

extension Gen {
    /// Always `value`; makes no choices.
    public static func constant(_ value: Value) -> Gen where Value: Sendable {
        Gen { _ in value }
    }

    /// One of `elements`, shrinking toward the first. `elements` must not be empty (a programming error,
    /// checked when the generator is built, never while generating).
    @inlinable
    public static func element(of elements: [Value]) -> Gen where Value: Sendable {
        precondition(!elements.isEmpty, "Gen.element(of:) needs at least one element")
        let last = UInt64(elements.count - 1)
        return Gen { source in
            let index = Int(source.draw(upTo: last))
            return index < elements.count ? elements[index] : elements[0]
        }
    }

    /// One case of a `CaseIterable` type, shrinking toward the first case.
    public static func caseOf(_ type: Value.Type = Value.self) -> Gen where Value: CaseIterable & Sendable {
        element(of: Array(Value.allCases))
    }
}

extension Gen where Value == Bool {
    /// A fair coin; shrinks toward `false`.
    public static var bool: Gen<Bool> {
        Gen { source in source.draw(upTo: 1) == 1 }
    }

    /// True with `probability` in random mode; shrinks toward `false`.
    public static func bool(probability: Double) -> Gen<Bool> {
        Gen { source in source.drawBool(probability: probability) }
    }
}

// MARK: - Integers

/// The bijection between a choice index and an integer in a range, ordered by simplicity: index 0 is the
/// value nearest zero inside the range (the lower bound when the range is all positive, the upper bound when
/// all negative), then alternately one above and one below (+1, -1, +2, -2, …), continuing on whichever side
/// is longer once the other runs out. Works in "offset from the lower bound" space, all in `UInt64`.
public struct IntegerOrder: Sendable, Equatable {
    /// `upper - lower` as an unsigned offset.
    public let span: UInt64
    /// Offset of the simplest value (nearest zero).
    public let target: UInt64

    @inlinable
    public init(span: UInt64, target: UInt64) {
        self.span = span
        self.target = target
    }

    @inlinable var above: UInt64 { span - target }
    @inlinable var below: UInt64 { target }
    @inlinable var paired: UInt64 { Swift.min(above, below) }

    /// Offset for a choice index (`index` in `0...span`).
    @inlinable
    public func offset(forIndex index: UInt64) -> UInt64 {
        if index == 0 { return target }
        let m = paired
        if index <= 2 &* m {  // 2*m <= span, no overflow
            let k = (index &+ 1) / 2
            return index & 1 == 1 ? target &+ k : target &- k
        }
        let rest = index &- 2 &* m
        return above > below ? target &+ m &+ rest : target &- m &- rest
    }

    /// Choice index for an offset (`offset` in `0...span`); the inverse of `offset(forIndex:)`.
    @inlinable
    public func index(forOffset offset: UInt64) -> UInt64 {
        let m = paired
        if offset == target { return 0 }
        if offset > target {
            let k = offset &- target
            return k <= m ? 2 &* k &- 1 : 2 &* m &+ (k &- m)
        }
        let k = target &- offset
        return k <= m ? 2 &* k : 2 &* m &+ (k &- m)
    }

    /// Random-mode distribution over indices: mostly uniform, with weight on the simplest values, on both
    /// bounds, and on log-uniform magnitudes (so small and boundary values show up often).
    @inlinable
    public func randomIndex(_ rng: inout Xoshiro256) -> UInt64 {
        let roll = rng.next() & 15
        switch roll {
        case 0, 1:  // near the simplest value
            return rng.next(upTo: Swift.min(span, 8))
        case 2:  // the bounds
            return rng.next() & 1 == 0 ? index(forOffset: 0) : index(forOffset: span)
        case 3, 4, 5, 6:  // log-uniform magnitude
            let bits = rng.next(upTo: 63) &+ 1
            let mask: UInt64 = bits >= 64 ? .max : (1 << bits) &- 1
            let raw = rng.next() & mask
            return raw <= span ? raw : raw % (span &+ 1)  // raw > span implies span < .max
        default:
            return rng.next(upTo: span)
        }
    }
}

extension Gen where Value: FixedWidthInteger & Sendable {
    /// An integer in `range`, any fixed-width type. Shrinks toward zero, or toward the bound nearest zero
    /// when the range does not contain zero. Random mode favours small values, the bounds, and powers of two.
    @inlinable
    public static func int(in range: ClosedRange<Value>) -> Gen<Value> {
        let choice = IntegerChoice(in: range)
        return Gen { source in choice.draw(from: source) }
    }

    /// Any value of the type.
    public static func int() -> Gen<Value> {
        int(in: Value.min...Value.max)
    }
}

/// The choice behind ``Gen/int(in:)``, for generators written as straight code over a ``ChoiceSource``: the
/// same draw (same bytes, same random distribution), without a closure to call through.
///
///     let digit = IntegerChoice(in: 0...9)
///     let d = digit.draw(from: source)   // what Gen.int(in: 0...9) would have drawn
public struct IntegerChoice<Value: FixedWidthInteger>: Sendable {
    /// The simplicity order of the range's values.
    public let order: IntegerOrder
    @usableFromInline let lowerBits: UInt64

    public init(in range: ClosedRange<Value>) {
        let lower = Int64Bits(range.lowerBound)
        let upper = Int64Bits(range.upperBound)
        let span = upper.bits &- lower.bits
        let target: UInt64
        if range.contains(0) {
            target = Int64Bits(Value.zero).bits &- lower.bits
        } else if range.lowerBound > 0 {
            target = 0
        } else {
            target = span
        }
        order = IntegerOrder(span: span, target: target)
        lowerBits = lower.bits
    }

    /// Draws one value: shrinks toward zero (or the bound nearest it); random mode favours small values, the
    /// bounds, and powers of two.
    @inlinable
    public func draw(from source: ChoiceSource) -> Value {
        let order = self.order
        let index = source.draw(in: order) { rng in order.randomIndex(&rng) }
        let bits = lowerBits &+ order.offset(forIndex: index)
        return Value.isSigned
            ? Value(truncatingIfNeeded: Int64(bitPattern: bits ^ (1 << 63)))
            : Value(truncatingIfNeeded: bits)
    }
}

/// An integer's position on an unsigned line that preserves order for signed values (sign bit flipped).
@usableFromInline
struct Int64Bits {
    @usableFromInline let bits: UInt64
    @inlinable
    init<T: FixedWidthInteger>(_ value: T) {
        if T.isSigned {
            bits = UInt64(bitPattern: Int64(truncatingIfNeeded: value)) ^ (1 << 63)
        } else {
            bits = UInt64(truncatingIfNeeded: value)
        }
    }
}
