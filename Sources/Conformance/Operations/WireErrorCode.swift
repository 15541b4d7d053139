import ScreenTimeReference

/// An error that maps to one error code of the vector format (`empty`, `base64`, `limitExceeded`, …).
public protocol CodedError: Error {
    var code: String { get }
}

/// A reference error as the wire sees it: only its code (for error types whose own `code` is typed).
public struct WireErrorCode: CodedError {
    public let code: String
    /// An error answering `code`.
    ///
    /// - Parameter code: An error code of the vector format.
    public init(_ code: String) { self.code = code }

    /// The vector format's error code for an error that the wire parsing or the reference throws, `nil` for any
    /// other error.
    ///
    /// Rule: a ``WireErrorCode`` or any ``CodedError`` (``ShieldLimitExceeded`` is one) gives its code,
    /// ``BadInput`` gives `badInput`, a `SelectionDecodingError`, a `PercentDecodingError` or a `ManagedSettingsError` gives
    /// its code's name, a `SelectionEncodingError` `unencodable` (`SPEC.md` §5 lists the codes). Example: `WireErrorCode.code(of: BadInput("…")) == "badInput"`.
    ///
    /// - Parameter error: Any error.
    /// - Returns: Its code, or `nil` when it has none.
    public static func code(of error: any Error) -> String? {
        // The common error types first, as concrete types: a cast to a concrete type is a type comparison, a cast
        // to the protocol a conformance lookup.
        if let error = error as? WireErrorCode { return error.code }
        if error is BadInput { return "badInput" }
        if let error = error as? SelectionDecodingError { return error.code.rawValue }
        if let error = error as? PercentDecodingError { return error.code.rawValue }
        if let error = error as? ManagedSettingsError { return error.code.rawValue }
        if error is SelectionEncodingError { return SelectionEncodingError.code }
        if let error = error as? CodedError { return error.code }
        return nil
    }
}
