/// The name of a monitored activity (mirrors `DeviceActivity.DeviceActivityName`).
///
/// Names compare by their raw string. Source: Apple: DeviceActivityName.
///
/// ```swift
/// extension DeviceActivityName { static let bedtime = Self("bedtime") }
/// try DeviceActivityCenter().startMonitoring(.bedtime, during: schedule)
/// ```
public struct DeviceActivityName: RawRepresentable, Hashable, Codable, Sendable {
    public var rawValue: String
    /// A name from its raw string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name from its raw string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

extension DeviceActivityName: ExpressibleByStringLiteral {
    /// A name written as a literal: `let name: DeviceActivityName = "bedtime"`.
    public init(stringLiteral value: String) { self.rawValue = value }
}

extension DeviceActivityName: CustomStringConvertible {
    public var description: String { rawValue }
}
