import StrictJSON

/// Every operation the reference answers, by wire name. Add an operation here once and the adapter, the
/// in-process runner, `stc conformance add` and the differential harnesses all see it.
public enum OperationTable {
    /// All operations, in the order of `SPEC.md` §5.
    public static let all: [Operation] =
        selectionOperations + shieldOperations + authorizationOperations + encodingOperations

    public static let byName: [String: Operation] = {
        var table: [String: Operation] = [:]
        for op in all { table[op.name] = op }
        return table
    }()

    /// Each operation's `perform` by wire name: what ``perform(_:input:)`` looks up once per request. Taking a
    /// whole ``Operation`` out of ``byName`` retained its name and summary strings too, for every request.
    static let performers: [String: @Sendable (JSONValue) -> OperationOutcome] = byName.mapValues(\.perform)

    /// Answers one request as the reference: an unknown operation is ``OperationOutcome/unsupported``.
    public static func perform(_ name: String, input: JSONValue) -> OperationOutcome {
        guard let perform = performers[name] else { return .unsupported }
        return perform(input)
    }
}
