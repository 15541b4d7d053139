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

    /// Answers one request as the reference: an unknown operation is ``OperationOutcome/unsupported``.
    public static func perform(_ name: String, input: JSONValue) -> OperationOutcome {
        guard let op = byName[name] else { return .unsupported }
        return op.perform(input)
    }
}
