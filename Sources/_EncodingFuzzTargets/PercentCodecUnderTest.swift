import ScreenTimeEncoding

/// The percent codec the `url` checks run against: ``ReferencePercentCodec`` under libFuzzer and replay, a
/// deliberately wrong one in the tests that show each check still catches what it is there for.
public protocol PercentCodecUnderTest {
    static func encodeComponent(_ text: String) -> String
    static func encodeComponent(bytes: [UInt8]) -> String
    static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String
    static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String
    /// `encodeComponent(bytes:)` on bytes in place (libFuzzer's buffer); by default through an array.
    static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String
    /// `decodeComponent(utf8:)` on bytes in place; by default through an array.
    static func decodeComponent(utf8InPlace bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> String
}

extension PercentCodecUnderTest {
    public static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String {
        encodeComponent(bytes: Array(bytes))
    }
    public static func decodeComponent(
        utf8InPlace bytes: UnsafeBufferPointer<UInt8>
    ) throws(PercentDecodingError) -> String {
        try decodeComponent(utf8: Array(bytes))
    }
}
