/// What a UTF-8 lead byte promises (Unicode 15, Table 3-7, "Well-Formed UTF-8 Byte Sequences"): how many
/// continuation bytes follow, and the range the first of them must be in (which rules out overlong forms,
/// surrogates and code points past U+10FFFF). Later continuation bytes are always `0x80...0xBF`.
///
/// One table for every validator in the package (the JSON scanner, the percent decoder).
public struct UTF8Lead: Sendable, Equatable {
    /// Continuation bytes after the lead: 1, 2 or 3.
    public let continuationCount: Int
    /// The allowed range of the first continuation byte.
    public let firstContinuation: ClosedRange<UInt8>

    /// The promise of `byte` as a lead byte of a multi-byte sequence, or `nil` when it cannot start one
    /// (ASCII, a continuation byte, `C0`, `C1`, `F5`…`FF`).
    public init?(_ byte: UInt8) {
        switch byte {
        case 0xC2...0xDF: self.init(1, 0x80...0xBF)
        case 0xE0: self.init(2, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: self.init(2, 0x80...0xBF)
        case 0xED: self.init(2, 0x80...0x9F)
        case 0xF0: self.init(3, 0x90...0xBF)
        case 0xF1...0xF3: self.init(3, 0x80...0xBF)
        case 0xF4: self.init(3, 0x80...0x8F)
        default: return nil
        }
    }

    private init(_ count: Int, _ first: ClosedRange<UInt8>) {
        continuationCount = count
        firstContinuation = first
    }
}
