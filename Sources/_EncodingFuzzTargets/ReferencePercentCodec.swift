import ScreenTimeEncoding

/// `PercentEncoding`, the reference, as a ``PercentCodecUnderTest``.
public enum ReferencePercentCodec: PercentCodecUnderTest {
    public static func encodeComponent(_ text: String) -> String { PercentEncoding.encodeComponent(text) }
    public static func encodeComponent(bytes: [UInt8]) -> String { PercentEncoding.encodeComponent(bytes: bytes) }
    public static func decodeComponent(_ text: String) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(text)
    }
    public static func decodeComponent(utf8 bytes: [UInt8]) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(utf8: bytes)
    }
    /// The reference takes any collection of bytes: the buffer itself, no array.
    public static func encodeComponent(bytesInPlace bytes: UnsafeBufferPointer<UInt8>) -> String {
        PercentEncoding.encodeComponent(bytes: bytes)
    }
    public static func decodeComponent(
        utf8InPlace bytes: UnsafeBufferPointer<UInt8>
    ) throws(PercentDecodingError) -> String {
        try PercentEncoding.decodeComponent(utf8: bytes)
    }
}
