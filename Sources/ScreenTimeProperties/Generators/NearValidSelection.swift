import ScreenTimeReference

/// A stored string one mutation away from a valid one, and the error code `SPEC.md` §1 assigns to it.
public struct NearValidSelection: Sendable, CustomStringConvertible {
    public var stored: String
    public var expected: SelectionDecodingError.Code
    public var mutation: String
    public var description: String {
        let json = Base64.decode(Array(stored.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? "(not base64)"
        return "\(mutation) → expect \(expected.rawValue)\n  stored \(String(reflecting: stored))\n  json \(json)"
    }
}
