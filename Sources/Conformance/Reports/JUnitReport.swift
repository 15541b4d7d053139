/// JUnit XML for CI dashboards: one `<testsuite>` per implementation × suite (named `IMPLEMENTATION.SUITE`),
/// one `<testcase>` per vector.
///
/// A `fail` or `unsupported` is a `<failure>`; `crash`, `timeout` and `protocol` are `<error>`s; an expected
/// failure is `<skipped>` (it does not fail the run); an unexpectedly passing case is a `<failure>` (it does).
/// Unknown ids in an expected-failures list go in one more suite, `IMPLEMENTATION.expected-failures`.
/// Every text is escaped for XML 1.0, with characters XML cannot hold replaced by visible `\u{…}`.
public enum JUnitReport {
    /// The report of `run` as a JUnit XML document.
    ///
    /// - Parameter run: The run to report.
    /// - Returns: The document's text.
    public static func string(_ run: ConformanceRun) -> String {
        var body = ""
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)
        for impl in run.implementations {
            for suite in run.selectedSuiteNames {
                var cases = ""
                var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
                let className = "\(impl.name).\(suite)"
                for r in impl.results where run.cases[r.caseIndex].suite == suite {
                    let c = run.cases[r.caseIndex]
                    counts.tests += 1
                    cases +=
                        "    <testcase classname=\"\(Escape.xml(className, attribute: true))\" name=\"\(Escape.xml(c.id, attribute: true))\">\n"
                    let detail =
                        "op: \(c.op)\nexpected: \(Escape.truncated(c.expectedText, 2000))\nactual: \(Escape.truncated(r.answer.text, 2000))"
                    switch (r.listed, r.status) {
                    case (.unexpectedPass, _):
                        counts.failures += 1
                        cases += element(
                            "failure", type: "unexpectedPass",
                            message:
                                "listed as an expected failure but passes; remove it from \(impl.expectedFailuresFile ?? "the list")",
                            body: detail)
                    case (.expectedFailure, _):
                        counts.skipped += 1
                        cases +=
                            "      <skipped message=\"\(Escape.xml("expected failure (\(r.status.rawValue)): \(Escape.truncated(r.problem, 300))", attribute: true))\"/>\n"
                    case (.notListed, .pass):
                        break
                    case (.notListed, .fail), (.notListed, .unsupported):
                        counts.failures += 1
                        cases += element(
                            "failure", type: r.status.rawValue, message: Escape.truncated(r.problem, 500), body: detail)
                    case (.notListed, .crash), (.notListed, .timeout), (.notListed, .protocol):
                        counts.errors += 1
                        cases += element(
                            "error", type: r.status.rawValue, message: Escape.truncated(r.problem, 500), body: detail)
                    }
                    cases += "    </testcase>\n"
                }
                body +=
                    "  <testsuite name=\"\(Escape.xml(className, attribute: true))\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\">\n"
                body += cases
                body += "  </testsuite>\n"
                totals.tests += counts.tests
                totals.failures += counts.failures
                totals.errors += counts.errors
                totals.skipped += counts.skipped
            }
            if !impl.unknownExpectedFailures.isEmpty {
                let className = "\(impl.name).expected-failures"
                let n = impl.unknownExpectedFailures.count
                body +=
                    "  <testsuite name=\"\(Escape.xml(className, attribute: true))\" tests=\"\(n)\" failures=\"\(n)\" errors=\"0\" skipped=\"0\">\n"
                for entry in impl.unknownExpectedFailures {
                    body +=
                        "    <testcase classname=\"\(Escape.xml(className, attribute: true))\" name=\"\(Escape.xml(entry.id, attribute: true))\">\n"
                    body += element(
                        "failure", type: "unknownId",
                        message: "\(impl.expectedFailuresFile ?? "the list"):\(entry.line) names no loaded case",
                        body: "")
                    body += "    </testcase>\n"
                }
                body += "  </testsuite>\n"
                totals.tests += n
                totals.failures += n
            }
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"stc conformance\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\">\n"
            + body + "</testsuites>\n"
    }

    private static func element(_ name: String, type: String, message: String, body: String) -> String {
        "      <\(name) type=\"\(Escape.xml(type, attribute: true))\" message=\"\(Escape.xml(message, attribute: true))\">\(Escape.xml(body))</\(name)>\n"
    }
}
