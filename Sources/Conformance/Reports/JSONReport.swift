import StrictJSON

/// The machine-readable report: one JSON document, keys sorted (``JSONWriter``), arrays in run order.
///
/// Shape (schema 1):
/// ```
/// { "schema": 1, "tool": "stc conformance", "ok": BOOL, "timeout": SECONDS, "filters": [GLOB…],
///   "suites": [{"name", "file", "description", "cases": N, "selected": N}],
///   "cases": [{"id", "suite", "op", "input", "expect", "tags", "source", "assumption"}],
///   "implementations": [{"name", "kind", "summary", "ok", "seconds", "expectedFailuresFile",
///       "counts": COUNTS, "assumptionCounts": COUNTS, "suites": {SUITE: COUNTS},
///       "unexpectedPasses": [ID], "unknownExpectedFailures": [{"id", "line"}],
///       "restarts": N, "restartSeconds": S, "survivedCrashes": N, "notes": [TEXT], "stderrTail": TEXT,
///       "results": [{"id", "status", "expected", "actual", "mismatch"?, "listed", "assumption"}]}] }
/// ```
/// COUNTS has every status (`pass`, `fail`, `crash`, `timeout`, `protocol`, `unsupported`) plus `total`,
/// `expectedFailures` and `unexpectedPasses`. `actual` is `{"output"}`, `{"error"}`, `{"unsupported": true}`,
/// `{"crash": DETAIL}`, `{"timeout": SECONDS}` or `{"protocol": DETAIL}`; `listed` is `notListed`,
/// `expectedFailure` or `unexpectedPass`.
public enum JSONReport {
    /// The report of `run` as a JSON value (the shape above).
    ///
    /// - Parameter run: The run to report.
    /// - Returns: The report.
    public static func value(_ run: ConformanceRun) -> JSONValue {
        var selectedPerSuite: [String: Int] = [:]
        for c in run.cases { selectedPerSuite[c.suite, default: 0] += 1 }
        let suites: [JSONValue] = run.suites.map { suite in
            .object([
                "name": .string(suite.name), "file": .string(suite.file), "description": .string(suite.description),
                "cases": .number(Double(suite.cases.count)),
                "selected": .number(Double(selectedPerSuite[suite.name] ?? 0)),
            ])
        }
        let cases: [JSONValue] = run.cases.map { c in
            .object([
                "id": .string(c.id), "suite": .string(c.suite), "op": .string(c.op), "input": c.input,
                "expect": c.expect.json, "tags": .array(c.tags.map(JSONValue.string)), "source": .string(c.source),
                "assumption": .bool(c.isAssumption),
            ])
        }
        let implementations: [JSONValue] = run.implementations.map { impl in
            var perSuite: [String: JSONValue] = [:]
            for name in run.selectedSuiteNames { perSuite[name] = run.counts(impl, suite: name).json }
            let results: [JSONValue] = impl.results.map { r in
                let c = run.cases[r.caseIndex]
                var members: [String: JSONValue] = [
                    "id": .string(c.id), "status": .string(r.status.rawValue), "expected": c.expect.json,
                    "actual": r.answer.json, "listed": .string(r.listed.rawValue), "assumption": .bool(c.isAssumption),
                ]
                if let mismatch = r.mismatch { members["mismatch"] = .string(mismatch) }
                return .object(members)
            }
            var members: [String: JSONValue] = [
                "name": .string(impl.name), "kind": .string(impl.kind.rawValue), "summary": .string(impl.summary),
                "ok": .bool(impl.ok), "seconds": .number((impl.seconds * 1000).rounded() / 1000),
                "counts": run.counts(impl).json, "assumptionCounts": run.counts(impl, assumption: true).json,
                "suites": .object(perSuite),
                "unexpectedPasses": .array(
                    impl.results.filter { $0.listed == .unexpectedPass }.map { .string(run.cases[$0.caseIndex].id) }),
                "unknownExpectedFailures": .array(
                    impl.unknownExpectedFailures.map {
                        .object(["id": .string($0.id), "line": .number(Double($0.line))])
                    }),
                "restarts": .number(Double(impl.diagnostics.restarts)),
                "restartSeconds": .number(impl.diagnostics.restartSeconds),
                "survivedCrashes": .number(Double(impl.diagnostics.survivedCrashes)),
                "notes": .array(impl.diagnostics.notes.map(JSONValue.string)),
                "stderrTail": .string(impl.diagnostics.stderrTail),
                "results": .array(results),
            ]
            if let file = impl.expectedFailuresFile { members["expectedFailuresFile"] = .string(file) }
            return .object(members)
        }
        return .object([
            "schema": .number(Double(ConformanceRun.reportSchemaVersion)), "tool": "stc conformance",
            "ok": .bool(run.ok), "timeout": .number(run.timeout), "filters": .array(run.filters.map(JSONValue.string)),
            "suites": .array(suites), "cases": .array(cases), "implementations": .array(implementations),
        ])
    }

    /// The report of `run` as the bytes of its JSON document, with a final newline.
    ///
    /// - Parameter run: The run to report.
    /// - Returns: The document's bytes.
    public static func bytes(_ run: ConformanceRun) -> [UInt8] {
        var out = JSONWriter.bytes(value(run), options: JSONWriter.Options(pretty: true))
        out.append(0x0A)
        return out
    }
}
