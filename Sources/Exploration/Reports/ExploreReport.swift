import Conformance
import Foundation
import PropertyTesting
import StrictJSON

/// One implementation's exploration, as the reports show it.
public struct ExploredImplementation: Sendable {
    public var name: String
    /// The adapter's command (what `--replay` lines repeat).
    public var command: String
    public var result: ExploreResult
    /// The implementation's known findings, when a list was given.
    public var expected: ExpectedFindings?

    public init(name: String, command: String, result: ExploreResult, expected: ExpectedFindings? = nil) {
        self.name = name
        self.command = command
        self.result = result
        self.expected = expected
    }

    /// Findings that fail the run: all of them, or those the list does not name.
    public var unexpected: [Finding] { expected.map { $0.compare(result.findings).unexpected } ?? result.findings }
    /// Listed findings this run did not find.
    public var stale: [String] { expected.map { $0.compare(result.findings).stale } ?? [] }
    public var ok: Bool { result.failedToStart == nil && unexpected.isEmpty && stale.isEmpty }
}

/// The reports of `stc explore`: text for people, JSON for scripts, JUnit XML for CI.
///
/// Each finding is shown with its minimal input, the reference's expectation, the implementation's answer, the
/// matcher's account of the difference, and one command that replays exactly it (`replay` builds that line).
public enum ExploreReport {
    /// `replay(implementation, example)`: the command line that runs exactly an example's case again.
    public typealias ReplayLine = (ExploredImplementation, FindingExample) -> String

    public static func text(_ runs: [ExploredImplementation], quiet: Bool, replay: ReplayLine) -> String {
        var lines: [String] = []
        for run in runs {
            let r = run.result
            let unsupported =
                r.unsupported.isEmpty ? "" : "; unsupported (skipped): \(r.unsupported.joined(separator: ", "))"
            let groups = r.groups
            lines.append(
                "== \(Escape.controls(run.name)) (\(Escape.controls(run.command))): \(r.cases) cases in "
                    + "\(seconds(r.seconds)) s (\(Int(r.rate.rounded())) cases/s), seed \(r.seed), "
                    + "\(r.findings.count) finding(s)"
                    + (r.findings.isEmpty ? "" : " in \(groups.count) group(s)") + unsupported)
            if let costs = costs(r) { lines.append("  " + costs) }
            if let failure = r.failedToStart {
                lines.append("  the adapter answered no request: \(Escape.controls(failure))")
                if !r.diagnostics.stderrTail.isEmpty {
                    lines.append("  its stderr ends with:")
                    lines += r.diagnostics.stderrTail.split(separator: "\n").suffix(10).map {
                        "    \(Escape.controls(String($0)))"
                    }
                }
                continue
            }
            // Root causes first, each with its rules; then every finding in that order.
            if !groups.isEmpty { lines.append("") }
            var number = 0
            for (g, group) in groups.enumerated() {
                let listed =
                    run.expected?.keys.contains(group.key) == true ? " (listed in \(run.expected?.file ?? ""))" : ""
                lines.append(
                    "  GROUP \(g + 1)  \(Escape.controls(group.key)): \(group.findings.count) rule(s), "
                        + "\(group.occurrences) case(s)\(listed)")
                for rule in group.findings {
                    number += 1
                    lines.append("    \(number). \(Escape.controls(rule.discrepancy.kind.text))")
                }
            }
            number = 0
            for group in groups {
                for finding in group.findings {
                    number += 1
                    lines.append("")
                    lines += describe(finding, number: number, of: run, quiet: quiet, replay: replay).map { "  " + $0 }
                }
            }
            for key in run.stale {
                lines.append("")
                lines.append(
                    "  STALE  \(Escape.controls(key)): listed in \(run.expected?.file ?? ""), not found this run")
            }
            if !r.diagnostics.notes.isEmpty {
                lines.append("")
                lines += r.diagnostics.notes.map { "  note: \(Escape.controls($0))" }
            }
            lines.append("")
        }
        let bad = runs.filter { !$0.ok }
        if bad.isEmpty {
            let listed = runs.contains { !($0.expected?.keys.isEmpty ?? true) }
            lines.append(listed ? "OK: no finding beyond the listed ones." : "OK: no finding.")
        } else {
            let count = bad.reduce(0) { $0 + $1.unexpected.count + $1.stale.count }
            let names = bad.map(\.name).joined(separator: ", ")
            lines.append(
                "FOUND: \(count) finding(s) or stale line(s) (\(names)). Keep a finding as a regression with --save FILE."
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One finding as the text report shows it, a line each: `FINDING n  key` (and the list that names it), then,
    /// unless `quiet`, how often it showed and how it shrank, the first example's minimal input, the expected
    /// and actual answers, the difference and the replay line, and each further example.
    ///
    /// ```
    /// FINDING 1  url.encode: output differs in encoded
    ///   12 case(s); first after 0.01 s (case 3), shrunk in 40 replays (0.00 s) from 31 to 12 bytes of input
    ///   input:    {"text":"é"}
    ///   …
    /// ```
    public static func describe(
        _ finding: Finding, number: Int, of run: ExploredImplementation, quiet: Bool, replay: ReplayLine
    ) -> [String] {
        let known = run.expected?.lists(finding) == true ? " (listed in \(run.expected?.file ?? ""))" : ""
        var lines = ["FINDING \(number)  \(Escape.controls(finding.key))\(known)"]
        if quiet { return lines }
        let first = finding.first
        lines.append(
            "  \(finding.occurrences) case(s); first after \(seconds(first.foundAfter)) s (case "
                + "\(first.caseNumber)), shrunk in \(first.shrinkSteps) replays (\(seconds(first.shrinkSeconds)) s) "
                + "from \(first.originalSize) to \(first.minimalSize) bytes of input")
        lines.append("  input:    \(clip(JSONWriter.string(first.minimal.input)))")
        lines.append("  expected: \(clip(JSONWriter.string(first.minimal.expect.json)))")
        lines.append("  actual:   \(clip(first.answer.json.description))")
        if !first.mismatch.isEmpty { lines.append("  diff:     \(clip(first.mismatch))") }
        lines.append("  replay:   \(replay(run, first))")
        for example in finding.examples.dropFirst() {
            lines.append("  also:     \(clip(JSONWriter.string(example.minimal.input)))")
            lines.append("            → \(clip(example.answer.json.description))")
            lines.append("            \(replay(run, example))")
        }
        return lines
    }

    /// What the run spent beyond answering, when anything: restarts and their seconds, crashes the adapter
    /// survived without one (a fork server), operations answered `unsupported` for some inputs, and shrinking.
    static func costs(_ r: ExploreResult) -> String? {
        let d = r.diagnostics
        var parts: [String] = []
        if d.restarts > 0 { parts.append("\(d.restarts) restart(s) of the adapter (\(seconds(d.restartSeconds)) s)") }
        if d.survivedCrashes > 0 { parts.append("\(d.survivedCrashes) crash(es) it survived without a restart") }
        for (op, count) in r.unsupportedInputs.sorted(by: { $0.key < $1.key }) {
            parts.append("\(op): \(count) case(s) answered unsupported (skipped)")
        }
        if r.shrinkSeconds >= 0.01 { parts.append("shrinking \(seconds(r.shrinkSeconds)) s") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// One replayed case, a line each: `OP: pass` or `OP: FAIL  what differs`, then its input, the expected and
    /// actual answers, and the matcher's account of the difference when there is one.
    public static func replayed(_ c: ConformanceCase, answer: Answer, discrepancy: Discrepancy?) -> [String] {
        var lines = [
            "\(c.op): \(discrepancy.map { "FAIL  \($0.kind.text)" } ?? "pass")",
            "  input:    \(Escape.controls(JSONWriter.string(c.input)))",
            "  expected: \(Escape.controls(JSONWriter.string(c.expect.json)))",
            "  actual:   \(Escape.controls(answer.json.description))",
        ]
        if let mismatch = Matcher.judge(c, answer).mismatch {
            lines.append("  diff:     \(Escape.controls(mismatch))")
        }
        return lines
    }

    /// The machine-readable report (schema 1).
    public static func json(_ runs: [ExploredImplementation], replay: ReplayLine) -> JSONValue {
        [
            "schema": 1,
            "ok": .bool(runs.allSatisfy(\.ok)),
            "implementations": .array(
                runs.map { run in
                    let r = run.result
                    return [
                        "name": .string(run.name), "command": .string(run.command), "seed": .string(String(r.seed)),
                        "cases": .number(Double(r.cases)), "seconds": .number(r.seconds),
                        "operations": .array(r.operations.map(JSONValue.string)),
                        "unsupported": .array(r.unsupported.map(JSONValue.string)),
                        "failedToStart": r.failedToStart.map(JSONValue.string) ?? .null,
                        "stale": .array(run.stale.map(JSONValue.string)),
                        "restarts": .number(Double(r.diagnostics.restarts)),
                        "restartSeconds": .number(r.diagnostics.restartSeconds),
                        "survivedCrashes": .number(Double(r.diagnostics.survivedCrashes)),
                        "shrinkSeconds": .number(r.shrinkSeconds),
                        "unsupportedInputs": .object(r.unsupportedInputs.mapValues { .number(Double($0)) }),
                        "groups": .array(
                            r.groups.map { g in
                                [
                                    "key": .string(g.key), "op": .string(g.op),
                                    "listed": .bool(run.expected?.keys.contains(g.key) ?? false),
                                    "occurrences": .number(Double(g.occurrences)),
                                    "findings": .array(g.findings.map { .string($0.key) }),
                                ]
                            }),
                        "findings": .array(
                            r.findings.map { f in
                                [
                                    "key": .string(f.key), "op": .string(f.discrepancy.op),
                                    "group": .string(f.discrepancy.group),
                                    "listed": .bool(run.expected?.lists(f) ?? false),
                                    "occurrences": .number(Double(f.occurrences)),
                                    "examples": .array(f.examples.map { json($0, run, replay) }),
                                ]
                            }),
                    ]
                }),
        ]
    }

    static func json(_ e: FindingExample, _ run: ExploredImplementation, _ replay: ReplayLine) -> JSONValue {
        [
            "input": e.minimal.input, "expected": e.minimal.expect.json, "actual": e.answer.json,
            "mismatch": .string(e.mismatch), "replay": .string(replay(run, e)),
            "choices": .string(Hex.encode(e.choices)),
            "foundAfterSeconds": .number(e.foundAfter), "caseNumber": .number(Double(e.caseNumber)),
            "originalSize": .number(Double(e.originalSize)), "minimalSize": .number(Double(e.minimalSize)),
            "shrinkSteps": .number(Double(e.shrinkSteps)), "shrinkSeconds": .number(e.shrinkSeconds),
        ]
    }

    /// JUnit XML: one test suite per implementation, one failing test case per unexpected finding or stale line,
    /// one passing case when there is neither.
    public static func junit(_ runs: [ExploredImplementation], replay: ReplayLine) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"stc explore\">\n"
        for run in runs {
            let failures = run.unexpected.count + run.stale.count + (run.result.failedToStart == nil ? 0 : 1)
            let tests = max(1, run.result.findings.count + run.stale.count)
            out +=
                "  <testsuite name=\"\(Escape.xml(run.name, attribute: true))\" tests=\"\(tests)\" failures=\"\(failures)\">\n"
            if let failure = run.result.failedToStart {
                out +=
                    "    <testcase classname=\"explore\" name=\"start\"><failure message=\"\(Escape.xml(failure, attribute: true))\"/></testcase>\n"
            }
            let unexpected = Set(run.unexpected.map(\.key))
            for finding in run.result.findings {
                out +=
                    "    <testcase classname=\"explore.\(Escape.xml(finding.discrepancy.op, attribute: true))\" name=\"\(Escape.xml(finding.key, attribute: true))\">"
                if unexpected.contains(finding.key) {
                    let first = finding.first
                    let body = """
                        input:    \(JSONWriter.string(first.minimal.input))
                        expected: \(JSONWriter.string(first.minimal.expect.json))
                        actual:   \(first.answer.json.description)
                        replay:   \(replay(run, first))
                        """
                    out +=
                        "<failure message=\"\(Escape.xml(first.mismatch, attribute: true))\">\(Escape.xml(body, attribute: false))</failure>"
                }
                out += "</testcase>\n"
            }
            for key in run.stale {
                out +=
                    "    <testcase classname=\"explore\" name=\"\(Escape.xml(key, attribute: true))\"><failure message=\"listed but not found\"/></testcase>\n"
            }
            if run.result.findings.isEmpty && run.stale.isEmpty && run.result.failedToStart == nil {
                out += "    <testcase classname=\"explore\" name=\"\(run.result.cases) generated cases\"/>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// Seconds with two decimals below 10, one below 100, none above.
    static func seconds(_ value: Double) -> String {
        String(format: value < 10 ? "%.2f" : value < 100 ? "%.1f" : "%.0f", value)
    }

    static func clip(_ text: String) -> String { Escape.controls(Matcher.truncate(text, 400)) }
}
