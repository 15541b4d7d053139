/// The terminal summary.
///
/// - `quiet`: one line per implementation and the verdict.
/// - `normal`: per-suite counts per implementation, each problem with expected vs actual (values truncated,
///   at most ``maxProblemsShown`` per implementation), assumption results apart, expected-failure bookkeeping,
///   notes and the adapter's stderr tail when it crashed or hung.
/// - `verbose`: as normal, plus every case's status, and no cap on problems.
/// Everything from vectors or adapters is passed through ``Escape/controls(_:keepNewlines:)`` first:
/// an adapter must not be able to drive the terminal.
public enum TextReport {
    public enum Verbosity: Sendable { case quiet, normal, verbose }

    public static let maxProblemsShown = 40

    /// `vectors`: where the suites come from, shown under the heading as `vectors: …` (not when quiet).
    ///
    /// - Parameters:
    ///   - run: The run to report.
    ///   - verbosity: How much to show.
    ///   - vectors: Where the suites come from, or `nil`.
    /// - Returns: The report's text.
    public static func string(_ run: ConformanceRun, verbosity: Verbosity = .normal, vectors: String? = nil) -> String {
        var out = ""
        let assumptionCount = run.cases.filter(\.isAssumption).count
        if verbosity != .quiet {
            out += "stc conformance: \(run.selectedSuiteNames.count) suite(s), \(run.cases.count) case(s)"
            out += assumptionCount > 0 ? " (\(assumptionCount) resting on assumptions)" : ""
            if !run.filters.isEmpty { out += ", filter \(run.filters.map(clean).joined(separator: " | "))" }
            out += ", \(run.implementations.count) implementation(s)\n"
            if let vectors { out += "vectors: \(clean(vectors))\n" }
        }
        for impl in run.implementations {
            if verbosity == .quiet {
                out += oneLine(run, impl) + "\n"
                continue
            }
            out += "\n== \(clean(impl.name)) (\(clean(impl.summary))): \(impl.ok ? "OK" : "FAILED")"
            out += " in \(formatTime(impl.seconds))\n"
            out += table(run, impl)
            let problems = impl.results.filter { !$0.isAcceptable || ($0.status != .pass && verbosity == .verbose) }
            let mainProblems = problems.filter { !run.cases[$0.caseIndex].isAssumption }
            let assumptionProblems = problems.filter { run.cases[$0.caseIndex].isAssumption }
            let cap = verbosity == .verbose ? Int.max : maxProblemsShown
            if !mainProblems.isEmpty {
                out += "\n  Problems:\n"
                out += describe(mainProblems, run, cap: cap)
            }
            if assumptionCount > 0 {
                let a = run.counts(impl, assumption: true)
                out += "\n  Assumption cases (rules nothing public confirms; reported apart): "
                out += countsLine(a) + "\n"
                if !assumptionProblems.isEmpty { out += describe(assumptionProblems, run, cap: cap) }
            }
            let expected = impl.results.filter { $0.listed == .expectedFailure }
            if !expected.isEmpty {
                out +=
                    "\n  \(expected.count) expected failure(s) listed in \(clean(impl.expectedFailuresFile ?? "the list"))"
                if verbosity == .verbose {
                    out += ":\n"
                    for r in expected { out += "    \(clean(run.cases[r.caseIndex].id)) (\(r.status.rawValue))\n" }
                } else {
                    out += "\n"
                }
            }
            let unexpected = impl.results.filter { $0.listed == .unexpectedPass }
            if !unexpected.isEmpty {
                out +=
                    "\n  Unexpectedly passing (listed in \(clean(impl.expectedFailuresFile ?? "the list")); remove these lines):\n"
                for r in unexpected { out += "    \(clean(run.cases[r.caseIndex].id))\n" }
            }
            if !impl.unknownExpectedFailures.isEmpty {
                out +=
                    "\n  Unknown ids in \(clean(impl.expectedFailuresFile ?? "the list")) (no loaded case has them):\n"
                for e in impl.unknownExpectedFailures { out += "    line \(e.line): \(clean(e.id))\n" }
            }
            for e in impl.repeatedExpectedFailures {
                out += "  note: \(clean(impl.expectedFailuresFile ?? "")):\(e.line) repeats \(clean(e.id))\n"
            }
            if impl.diagnostics.restarts > 0 {
                out +=
                    "\n  The adapter was restarted \(impl.diagnostics.restarts) time(s) "
                    + "(\(hundredths(impl.diagnostics.restartSeconds)) s).\n"
            }
            if impl.diagnostics.survivedCrashes > 0 {
                out +=
                    "\n  The adapter survived \(impl.diagnostics.survivedCrashes) crash(es) of its code without a restart.\n"
            }
            for note in impl.diagnostics.notes { out += "  note: \(clean(note))\n" }
            let troubled = impl.results.contains {
                $0.status == .crash || $0.status == .timeout || $0.status == .protocol
            }
            let tail = impl.diagnostics.stderrTail
            if troubled && !tail.isEmpty {
                let lines = tail.split(separator: "\n", omittingEmptySubsequences: false).suffix(20)
                out += "\n  Last lines of the adapter's stderr:\n"
                for line in lines { out += "    | \(clean(String(line)))\n" }
            }
            if verbosity == .verbose {
                out += "\n  All cases:\n"
                for r in impl.results {
                    out += "    \(r.status.rawValue.uppercased().padding(11)) \(clean(run.cases[r.caseIndex].id))\n"
                }
            }
        }
        out +=
            "\n"
            + (run.ok
                ? "OK: every case passed or is an expected failure.\n"
                : "FAILED: some cases failed (see above); exit status 1.\n")
        return out
    }

    static func oneLine(_ run: ConformanceRun, _ impl: ImplementationResult) -> String {
        "\(clean(impl.name)): \(impl.ok ? "OK" : "FAILED") — \(countsLine(run.counts(impl)))"
    }

    /// Counts in one line, the statuses present only: `540/563 pass, 21 fail, 2 crash, 12 expected`.
    ///
    /// - Parameter c: The counts.
    /// - Returns: The line.
    public static func countsLine(_ c: StatusCounts) -> String {
        var parts = ["\(c[.pass])/\(c.total) pass"]
        for status in CaseStatus.allCases where status != .pass && c[status] > 0 {
            parts.append("\(c[status]) \(status.rawValue)")
        }
        if c.expectedFailures > 0 { parts.append("\(c.expectedFailures) expected") }
        if c.unexpectedPasses > 0 { parts.append("\(c.unexpectedPasses) unexpectedly passing") }
        return parts.joined(separator: ", ")
    }

    /// The per-suite table of one implementation's counts (pass, fail, crash, timeout, protocol, unsupported,
    /// expected failures, total), with an `all` row when there are several suites.
    ///
    /// - Parameters:
    ///   - run: The run.
    ///   - impl: One of its implementations.
    /// - Returns: The table's lines.
    public static func table(_ run: ConformanceRun, _ impl: ImplementationResult) -> String {
        let names = run.selectedSuiteNames
        let width = max(12, min(40, (names.map(\.count).max() ?? 0) + 2))
        let columns: [(String, (StatusCounts) -> Int)] = [
            ("pass", { $0[.pass] }), ("fail", { $0[.fail] }), ("crash", { $0[.crash] }),
            ("timeout", { $0[.timeout] }), ("protocol", { $0[.protocol] }), ("unsupp", { $0[.unsupported] }),
            ("xfail", { $0.expectedFailures }), ("total", { $0.total }),
        ]
        var out = "  " + "suite".padding(width) + columns.map { $0.0.leftPadding(9) }.joined() + "\n"
        func row(_ label: String, _ counts: StatusCounts) {
            out += "  " + clean(label).truncatedTo(width - 1).padding(width)
            out += columns.map { String($0.1(counts)).leftPadding(9) }.joined() + "\n"
        }
        for name in names { row(name, run.counts(impl, suite: name)) }
        if names.count > 1 { row("all", run.counts(impl)) }
        return out
    }

    static func describe(_ results: [CaseResult], _ run: ConformanceRun, cap: Int) -> String {
        var out = ""
        for (n, r) in results.enumerated() {
            if n == cap {
                out += "    … and \(results.count - cap) more (use --verbose, --json or --html for all)\n"
                break
            }
            out += problem(r, in: run).split(separator: "\n").map { "    " + $0 + "\n" }.joined()
        }
        return out
    }

    /// One result as the problems list shows it: the status (or `UNEXPECTED PASS`), the case id and operation,
    /// then the expected answer, the actual answer and the matcher's account of the difference, a line each.
    ///
    /// ```
    /// FAIL url-decode/lone-percent  [url.decode]
    ///   expected: {"error":"invalidPercentEncoding"}
    ///   actual:   {"output":{"text":"%"}}
    ///   diff:     expected error invalidPercentEncoding, got output {"text":"%"}
    /// ```
    ///
    /// - Parameters:
    ///   - result: A result that is not a plain pass.
    ///   - run: The run it belongs to.
    /// - Returns: The lines.
    public static func problem(_ result: CaseResult, in run: ConformanceRun) -> String {
        let c = run.cases[result.caseIndex]
        let label = result.listed == .unexpectedPass ? "UNEXPECTED PASS" : result.status.rawValue.uppercased()
        var out = "\(label) \(clean(c.id))  [\(clean(c.op))]\n"
        out += "  expected: \(clean(Escape.truncated(c.expectedText, 160)))\n"
        out += "  actual:   \(clean(Escape.truncated(result.answer.text, 160)))"
        if let mismatch = result.mismatch { out += "\n  diff:     \(clean(Escape.truncated(mismatch, 300)))" }
        return out
    }

    static func clean(_ s: String) -> String { Escape.controls(s) }

    static func formatTime(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return "\(Double(Int(seconds * 100)) / 100) s"
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func leftPadding(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }

    func truncatedTo(_ width: Int) -> String {
        count <= width ? self : String(prefix(max(0, width - 1))) + "…"
    }
}

/// A non-negative number of seconds with two decimals (`0.97`), without Foundation.
func hundredths(_ seconds: Double) -> String {
    let total = Int((max(0, seconds) * 100).rounded())
    let cents = total % 100
    return "\(total / 100).\(cents < 10 ? "0" : "")\(cents)"
}
