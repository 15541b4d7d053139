/// A stored string one hostile change away from a valid one, with the change named.
public struct HostileStoredString: Sendable, CustomStringConvertible {
    /// The stored string's bytes: ASCII base64 for most changes, any UTF-8 text for the oversized ones.
    public var bytes: [UInt8]
    /// What was changed, for people: `non-zero pad bits in the base64`, `UTF-16LE JSON`, ….
    public var change: String

    public var description: String {
        let shown = String(decoding: bytes.prefix(200), as: UTF8.self)
        return "\(change): \(String(reflecting: shown))\(bytes.count > 200 ? "… (\(bytes.count) bytes)" : "")"
    }
}
