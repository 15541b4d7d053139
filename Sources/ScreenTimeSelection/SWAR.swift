/// Eight bytes at a time (SIMD within a register), for the scans of token strings.
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    static func load(_ buffer: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        // Callers load only where i + 8 <= buffer.count, so the buffer is never empty here.
        guard let base = buffer.baseAddress else { return 0 }
        return UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each zero byte of `w` is set. Exact for the lowest zero byte; a byte above a zero byte may
    /// be flagged too (a borrow), which is harmless when only the first one is used.
    @inline(__always)
    static func zeroBytes(_ w: UInt64) -> UInt64 { (w &- ones) & ~w & highs }

    /// The high bit of the first byte of `w` (in memory order) that is a quote, a backslash, a control
    /// character or not ASCII is set (and maybe of later bytes); 0 when there is none.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let belowSpace = (w &- ones &* 0x20) & ~w & highs
        let quotes = zeroBytes(w ^ (ones &* UInt64(UInt8(ascii: "\""))))
        let backslashes = zeroBytes(w ^ (ones &* UInt64(UInt8(ascii: "\\"))))
        return (w & highs) | belowSpace | quotes | backslashes
    }
}
