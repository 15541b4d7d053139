/// Known deviations that a check holds an implementation to: case ids for a ``ConformanceCheck``, finding keys
/// for an ``ExplorationCheck``.
///
/// Rules, as `stc conformance --expect-failures` and `stc explore --expect-findings`: a listed case that fails,
/// or a listed finding that shows, is recorded as a known issue and does not fail the test; a listed case that
/// passes, a listed id that names no case, and a listed finding that does not show all fail it (strict both
/// ways). A file holds one entry a line, `#` starts a comment; a relative path is read from the directory of the
/// test file that runs the check.
///
/// ```swift
/// ConformanceCheck(expectedFailures: .file("expected-failures.txt"))
/// ConformanceCheck(expectedFailures: ["url-encode/cafe-nfc", "url-encode/emoji"])
/// ```
public enum ExpectedList: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The entries of a file.
    case file(String)
    /// Entries given in code.
    case entries([String])

    /// The entries of an array literal, as ``entries(_:)``.
    ///
    /// - Parameter entries: Case ids or finding keys.
    public init(arrayLiteral entries: String...) { self = .entries(entries) }
}
