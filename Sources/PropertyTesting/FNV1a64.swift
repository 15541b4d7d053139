/// FNV-1a 64-bit: the content hash that names regression files.
public enum FNV1a64 {
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// 16 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let h = hash(bytes)
        let raw = String(h, radix: 16)
        return String(repeating: "0", count: 16 - raw.count) + raw
    }
}
