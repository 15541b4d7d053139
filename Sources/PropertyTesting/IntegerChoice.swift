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
