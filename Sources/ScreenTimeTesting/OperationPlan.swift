/// Which operations an in-process check runs, and which it leaves out and why (the lines its summary shows).
///
/// Rule: the operations asked for, or by default every operation the implementation has a closure for; never an
/// operation in its `mayTrap` (a trap would end the test process, so those run only through the adapter). An
/// operation asked for without a closure runs, and answers `unsupported`.
struct OperationPlan: Sendable {
    private let running: Set<String>
    /// One line per reason something was left out; empty when nothing was.
    let leftOut: [String]

    init(_ implementation: ScreenTimeImplementation, asked: Set<ScreenTimeOperation>?) {
        let candidates = ScreenTimeOperation.allCases.filter { asked?.contains($0) ?? implementation.hasClosure($0) }
        let trapping = candidates.filter(implementation.mayTrap.contains)
        running = Set(candidates.filter { !trapping.contains($0) }.map(\.rawValue))
        var leftOut: [String] = []
        if !trapping.isEmpty {
            leftOut.append(
                "not run in process (mayTrap; ScreenTimeAdapter.serve and stc conformance --adapter run them): "
                    + Self.names(trapping))
        }
        let withoutClosure = ScreenTimeOperation.allCases.filter { asked == nil && !implementation.hasClosure($0) }
        if !withoutClosure.isEmpty { leftOut.append("not run (no closure): " + Self.names(withoutClosure)) }
        self.leftOut = leftOut
    }

    /// The explored operations' names, in `SPEC.md` §5 order.
    var operationNames: [String] { ScreenTimeOperation.allCases.map(\.rawValue).filter(running.contains) }

    func runs(_ op: String) -> Bool { running.contains(op) }

    private static func names(_ operations: [ScreenTimeOperation]) -> String {
        operations.map(\.rawValue).joined(separator: ", ")
    }
}
