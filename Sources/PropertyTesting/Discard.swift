/// Thrown from a property body to discard the current case (it then counts as discarded, not passed).
public struct Discard: Error, Sendable {
    public init() {}
}

/// Discards the current case unless `condition` holds.
@inlinable
public func assume(_ condition: Bool) throws {
    if !condition { throw Discard() }
}
