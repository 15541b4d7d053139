import StrictJSON

/// The reference (or any table of operations) called directly in this process: no subprocess, no JSON text.
///
/// An operation that traps takes the whole process down with it; operations promise never to trap
/// (``Operation/perform``), and a suspicious one is better run through `stc adapter` as an ``AdapterProcess``.
public final class InProcessImplementation: Implementation {
    public let name: String
    public let kind = ImplementationKind.inProcess
    public let summary: String
    public private(set) var diagnostics = ImplementationDiagnostics()
    /// `nil` for the reference: ``OperationTable``, through an ``OperationTable/Cursor``.
    private let perform: ((String, JSONValue) -> OperationOutcome)?

    /// The reference through ``OperationTable``.
    ///
    /// - Parameter name: The name reports show.
    public init(name: String = "reference") {
        self.name = name
        self.summary = "the reference, in process (\(OperationTable.all.count) operations)"
        self.perform = nil
    }

    /// Any table: `perform(op, input)` answers one request.
    ///
    /// - Parameters:
    ///   - name: The name reports show.
    ///   - summary: What reports say the implementation is.
    ///   - perform: Answers one request: the operation's wire name and its input.
    public init(
        name: String, summary: String = "in process",
        perform: @escaping (String, JSONValue) -> OperationOutcome
    ) {
        self.name = name
        self.summary = summary
        self.perform = perform
    }

    /// Answers every case in this process, in order.
    ///
    /// - Parameters:
    ///   - cases: The cases to answer.
    ///   - progress: Called now and then with the number answered so far.
    /// - Returns: One answer per case, in the order of `cases`.
    public func answer(_ cases: [ConformanceCase], progress: (Int) -> Void) -> [Answer] {
        if let perform { return Self.answer(cases, progress: progress, perform) }
        var cursor = OperationTable.Cursor()
        return Self.answer(cases, progress: progress) { cursor.perform($0, input: $1) }
    }

    private static func answer(
        _ cases: [ConformanceCase], progress: (Int) -> Void,
        _ perform: (String, JSONValue) -> OperationOutcome
    ) -> [Answer] {
        var answers: [Answer] = []
        answers.reserveCapacity(cases.count)
        // By index, reading only `op` and `input`: copying each whole case retained all its strings.
        for i in cases.indices {
            answers.append(Answer(perform(cases[i].op, cases[i].input)))
            if i & 0x3FFF == 0x3FFF { progress(i + 1) }
        }
        progress(cases.count)
        return answers
    }
}
