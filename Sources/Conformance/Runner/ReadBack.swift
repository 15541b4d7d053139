import StrictJSON

/// Answers judged by what they hold rather than by their bytes (`SPEC.md` §5.3): a `selection.encode` output is
/// read back with the reference, and the result, `{"canonical": C}`, is what the expectation is compared with.
///
/// ```swift
/// let (judged, failure) = answer.readBack(op: c.op, input: c.input)
/// let verdict = failure.map { (CaseStatus.fail, $0) } ?? Matcher.judge(c.expect, judged)
/// ```
extension Answer {
    /// This answer as the match rule sees it for a request of `op` with `input`.
    ///
    /// Rule: every answer but a `selection.encode` output is itself; that output becomes `{"canonical": C}` when
    /// it reads back in the requested format, and `{}` with the reason otherwise (so it matches no output
    /// expectation). Source: `SPEC.md` §5.3.
    ///
    /// - Parameters:
    ///   - op: The request's operation.
    ///   - input: The request's input.
    /// - Returns: The answer to judge, and why it did not read back when it did not.
    public func readBack(op: String, input: JSONValue) -> (answer: Answer, failure: String?) {
        guard op == "selection.encode", case .output(let output) = self else { return (self, nil) }
        switch SelectionWire.readBackEncoding(input: input, output: output) {
        case .success(let judged): return (.output(judged), nil)
        case .failure(let failure): return (.output(.object([:])), failure.message)
        }
    }
}

extension Matcher {
    /// ``judge(_:_:)`` for one case, reading its answer back first where `SPEC.md` §5.3 says so.
    ///
    /// - Parameters:
    ///   - c: The case.
    ///   - answer: What the implementation answered.
    /// - Returns: The status, and for `fail` what differs.
    public static func judge(_ c: ConformanceCase, _ answer: Answer) -> (status: CaseStatus, mismatch: String?) {
        let (judged, failure) = answer.readBack(op: c.op, input: c.input)
        let verdict = judge(c.expect, judged)
        if verdict.status == .fail, let failure { return (.fail, failure) }
        return verdict
    }
}
