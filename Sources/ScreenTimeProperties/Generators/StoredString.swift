/// A stored string as raw bytes (what `SelectionDecoder.decode` takes), with where it came from.
public struct StoredString: Sendable, CustomStringConvertible {
    public var bytes: [UInt8]
    public var origin: String
    public var description: String {
        let text = String(decoding: bytes.prefix(400), as: UTF8.self)
        return "\(origin): \(String(reflecting: text))\(bytes.count > 400 ? "… (\(bytes.count) bytes)" : "")"
    }
}
