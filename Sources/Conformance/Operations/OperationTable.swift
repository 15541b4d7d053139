import StrictJSON

/// Every operation the reference answers, by wire name. Add an operation here once and the adapter, the
/// in-process runner, `stc conformance add` and the differential harnesses all see it.
public enum OperationTable {
    /// All operations, in the order of `SPEC.md` §5.
    public static let all: [Operation] =
        selectionOperations + shieldOperations + authorizationOperations + encodingOperations
        + activityOperations + settingsOperations

    public static let byName: [String: Operation] = {
        var table: [String: Operation] = [:]
        for op in all { table[op.name] = op }
        return table
    }()

    /// Each operation's position in ``all`` by wire name (the last of equal names, as in ``byName``): what
    /// ``perform(_:input:)`` looks up once per request. Taking a whole ``Operation`` out of ``byName`` retained
    /// its name and summary strings too, and a table of bare closures stores them in a generic form that had to
    /// be wrapped again (an allocation) each time one was taken out; `all[index].perform` needs neither.
    static let indexByName: [String: Int] = {
        var table: [String: Int] = [:]
        for index in all.indices { table[all[index].name] = index }
        return table
    }()

    /// Answers one request as the reference: an unknown operation is ``OperationOutcome/unsupported``.
    ///
    /// - Parameters:
    ///   - name: The operation's wire name.
    ///   - input: The request's input.
    /// - Returns: The reference's answer.
    public static func perform(_ name: String, input: JSONValue) -> OperationOutcome {
        guard let index = indexByName[name] else { return .unsupported }
        return all[index].perform(input)
    }

    /// ``perform(_:input:)`` over a sequence of requests, remembering the operation last looked up: requests for
    /// the same operation in a row (a suite file's cases mostly are) hash its name once. Same answers: a name
    /// `==` to the last one finds the same entry of the table, which matches names by `==` too.
    struct Cursor {
        private var lastName: String?
        private var lastIndex: Int?

        init() {}

        mutating func perform(_ name: String, input: JSONValue) -> OperationOutcome {
            if lastName != name {
                lastName = name
                lastIndex = indexByName[name]
            }
            guard let lastIndex else { return .unsupported }
            return all[lastIndex].perform(input)
        }
    }
}
