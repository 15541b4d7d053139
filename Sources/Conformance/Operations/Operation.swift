import StrictJSON

/// One operation of the vector format (`SPEC.md` §5): a name, and how the reference answers a JSON input.
///
/// This is the spine of the package: the in-process implementation, `stc adapter`, `stc conformance add` and
/// the differential harnesses all answer through the same ``OperationTable``.
public struct Operation: Sendable {
    /// The wire name, such as `selection.decode`.
    public let name: String
    /// One line saying what the operation does, for `--help` and reports.
    public let summary: String
    /// Answers one input. Never traps: a malformed input is `.error("badInput")`.
    public let perform: @Sendable (JSONValue) -> OperationOutcome

    /// An operation answering with `perform`.
    ///
    /// - Parameters:
    ///   - name: The wire name.
    ///   - summary: One line saying what it does.
    ///   - perform: Answers one input; must not trap.
    public init(name: String, summary: String, perform: @escaping @Sendable (JSONValue) -> OperationOutcome) {
        self.name = name
        self.summary = summary
        self.perform = perform
    }

    /// Builds an operation from a throwing body: an error becomes its ``WireErrorCode/code(of:)``, and any other
    /// error `badInput`.
    ///
    /// - Parameters:
    ///   - name: The wire name.
    ///   - summary: One line saying what it does.
    ///   - body: The output for one input, read through an ``InputReader``; it throws for an error answer.
    public init(
        name: String, summary: String,
        body: @escaping @Sendable (InputReader) throws -> JSONValue
    ) {
        self.init(name: name, summary: summary) { input in
            do {
                return .output(try body(InputReader(input)))
            } catch {
                return .error(WireErrorCode.code(of: error) ?? "badInput")
            }
        }
    }
}

/// What an implementation answered for one request.
public enum OperationOutcome: Sendable, Hashable {
    case output(JSONValue)
    case error(String)
    case unsupported
}
