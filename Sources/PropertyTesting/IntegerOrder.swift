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
