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
