import StrictJSON

/// One self-contained HTML page (inline CSS and a few lines of inline JavaScript, no external resource).
///
/// At the top, a matrix: one row per suite (plus "assumption cases" and "all"), one column per implementation,
/// each cell the pass count over the total, coloured green (all pass), amber (only expected failures) or red;
/// a click on a cell opens that implementation × suite below, where each case opens to its input, expected and
/// actual answer. Assumption results have their own section. The page reads without JavaScript too
/// (`<details>` elements and anchors); the script only opens the clicked section and toggles "problems only".
/// Every text is HTML-escaped; long values are cut at ``maxValueCharacters`` (the JSON report has them whole).
public enum HTMLReport {
    public static let maxValueCharacters = 6000

    /// The report of `run` as one HTML page.
    ///
    /// - Parameters:
    ///   - run: The run to report.
    ///   - title: The page's title and heading.
    /// - Returns: The page's text.
    public static func string(_ run: ConformanceRun, title: String = "Screen Time conformance") -> String {
        var h = ""
        h.reserveCapacity(64 * 1024)
        h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>\(e(title)) — \(run.ok ? "OK" : "FAILED")</title>\n<style>\(css)</style></head>\n<body>\n"
        h +=
            "<header><h1>\(e(title))</h1><span class=\"verdict \(run.ok ? "ok" : "bad")\">\(run.ok ? "OK" : "FAILED")</span></header>\n"
        let assumptionCount = run.cases.filter(\.isAssumption).count
        h += "<p class=\"meta\">\(run.selectedSuiteNames.count) suite(s), \(run.cases.count) case(s)"
        h += assumptionCount > 0 ? " (\(assumptionCount) resting on assumptions)" : ""
        h += ", \(run.implementations.count) implementation(s), timeout \(e(formatSeconds(run.timeout))) s"
        if !run.filters.isEmpty { h += ", filter <code>\(e(run.filters.joined(separator: " | ")))</code>" }
        h += ".</p>\n"
        h += "<label class=\"toggle\"><input type=\"checkbox\" id=\"only-problems\"> show problems only</label>\n"

        // The matrix.
        h += "<table class=\"matrix\"><thead><tr><th>suite</th>"
        for impl in run.implementations {
            h +=
                "<th>\(e(impl.name))<div class=\"sub\">\(e(impl.kind == .inProcess ? "in process" : "adapter"))\(impl.ok ? "" : " · failed")</div></th>"
        }
        h += "</tr></thead><tbody>\n"
        let suites = run.selectedSuiteNames
        for (s, suite) in suites.enumerated() {
            h += "<tr><th>\(e(suite))</th>"
            for (i, impl) in run.implementations.enumerated() {
                h += cell(run.counts(impl, suite: suite), anchor: "s\(i)-\(s)")
            }
            h += "</tr>\n"
        }
        if assumptionCount > 0 {
            h += "<tr class=\"assumption\"><th>assumption cases<div class=\"sub\">shown apart</div></th>"
            for (i, impl) in run.implementations.enumerated() {
                h += cell(run.counts(impl, assumption: true), anchor: "a\(i)")
            }
            h += "</tr>\n"
        }
        h += "<tr class=\"total\"><th>all</th>"
        for (i, impl) in run.implementations.enumerated() { h += cell(run.counts(impl), anchor: "i\(i)") }
        h += "</tr>\n</tbody></table>\n"

        // Per implementation.
        for (i, impl) in run.implementations.enumerated() {
            h +=
                "<section id=\"i\(i)\"><h2>\(e(impl.name)) <span class=\"verdict small \(impl.ok ? "ok" : "bad")\">\(impl.ok ? "OK" : "FAILED")</span></h2>\n"
            h += "<p class=\"meta\"><code>\(e(impl.summary))</code> — \(e(TextReport.countsLine(run.counts(impl))))"
            if let file = impl.expectedFailuresFile { h += " — expected failures from <code>\(e(file))</code>" }
            h += "</p>\n"
            let unexpected = impl.results.filter { $0.listed == .unexpectedPass }
            if !unexpected.isEmpty {
                h += "<div class=\"alert\">Listed as expected failures but passing (remove them from the list): "
                h +=
                    unexpected.map { "<code>\(e(run.cases[$0.caseIndex].id))</code>" }.joined(separator: ", ")
                    + "</div>\n"
            }
            if !impl.unknownExpectedFailures.isEmpty {
                h += "<div class=\"alert\">Ids in the expected-failures list that name no loaded case: "
                h +=
                    impl.unknownExpectedFailures.map { "<code>\(e($0.id))</code> (line \($0.line))" }.joined(
                        separator: ", ") + "</div>\n"
            }
            let d = impl.diagnostics
            if d.restarts > 0 || d.survivedCrashes > 0 || !d.notes.isEmpty {
                h += "<ul class=\"notes\">"
                if d.restarts > 0 {
                    h += "<li>restarted \(d.restarts) time(s) (\(hundredths(d.restartSeconds)) s)</li>"
                }
                if d.survivedCrashes > 0 { h += "<li>survived \(d.survivedCrashes) crash(es) without a restart</li>" }
                for note in impl.diagnostics.notes { h += "<li>\(e(note))</li>" }
                h += "</ul>\n"
            }
            if !impl.diagnostics.stderrTail.isEmpty {
                h +=
                    "<details><summary>stderr (last \(impl.diagnostics.stderrTail.utf8.count) bytes)</summary><pre>\(e(impl.diagnostics.stderrTail))</pre></details>\n"
            }
            for (s, suite) in suites.enumerated() {
                let results = impl.results.filter {
                    run.cases[$0.caseIndex].suite == suite && !run.cases[$0.caseIndex].isAssumption
                }
                guard !results.isEmpty else { continue }
                let counts = run.counts(impl, suite: suite, assumption: false)
                h += group(id: "s\(i)-\(s)", title: "\(suite)", counts: counts, results: results, run: run)
            }
            let assumed = impl.results.filter { run.cases[$0.caseIndex].isAssumption }
            if !assumed.isEmpty {
                h += "<h3 class=\"assumption-title\">Assumption cases (\(e(impl.name)))</h3>\n"
                h +=
                    "<p class=\"meta\">These rest on rules nothing public confirms (tag <code>assumption</code>); their results are shown apart.</p>\n"
                h += group(
                    id: "a\(i)", title: "assumption cases", counts: run.counts(impl, assumption: true),
                    results: assumed, run: run)
            }
            h += "</section>\n"
        }
        h += "<script>\(script)</script>\n</body></html>\n"
        return h
    }

    private static func e(_ s: String) -> String { Escape.html(s) }

    private static func tone(_ c: StatusCounts) -> String {
        if c.total == 0 { return "empty" }
        if c.unacceptable > 0 { return "bad" }
        if c.expectedFailures > 0 { return "warn" }
        return "ok"
    }

    private static func cell(_ c: StatusCounts, anchor: String) -> String {
        var detail: [String] = []
        for status in CaseStatus.allCases where status != .pass && c[status] > 0 {
            detail.append("\(c[status]) \(status.rawValue)")
        }
        if c.expectedFailures > 0 { detail.append("\(c.expectedFailures) expected") }
        if c.unexpectedPasses > 0 { detail.append("\(c.unexpectedPasses) unexpectedly passing") }
        return "<td class=\"\(tone(c))\"><a href=\"#\(anchor)\" data-open=\"\(anchor)\"><b>\(c[.pass])/\(c.total)</b>"
            + (detail.isEmpty ? "" : "<div class=\"sub\">\(e(detail.joined(separator: " · ")))</div>") + "</a></td>"
    }

    private static func group(
        id: String, title: String, counts: StatusCounts, results: [CaseResult],
        run: ConformanceRun
    ) -> String {
        var h =
            "<details class=\"group\" id=\"\(id)\"\(counts.unacceptable > 0 ? " open" : "")><summary><span class=\"dot \(tone(counts))\"></span>\(e(title)) — \(e(TextReport.countsLine(counts)))</summary>\n"
        for r in results {
            let c = run.cases[r.caseIndex]
            let label =
                r.listed == .unexpectedPass
                ? "unexpected pass"
                : (r.listed == .expectedFailure ? "\(r.status.rawValue) (expected)" : r.status.rawValue)
            let klass = r.isAcceptable ? (r.status == .pass ? "pass" : "xfail") : "problem"
            let row = r.isAcceptable ? (r.status == .pass ? "row-pass" : "row-xfail") : "row-problem"
            h +=
                "<details class=\"case \(row)\"><summary><span class=\"status \(r.status.rawValue) \(klass)\">\(e(label))</span> <code>\(e(c.id))</code> <span class=\"op\">\(e(c.op))</span>"
            if !r.problem.isEmpty { h += " <span class=\"problem\">\(e(Escape.truncated(r.problem, 200)))</span>" }
            h += "</summary>\n<div class=\"body\">"
            h +=
                "<p class=\"meta\">tags: \(e(c.tags.isEmpty ? "—" : c.tags.joined(separator: ", "))) · source: \(e(c.source.isEmpty ? "—" : c.source))</p>"
            h += "<div class=\"cols\"><div><h4>input</h4><pre>\(e(pretty(c.input)))</pre></div>"
            h += "<div><h4>expected</h4><pre>\(e(pretty(c.expect.json)))</pre></div>"
            h += "<div><h4>actual</h4><pre>\(e(pretty(r.answer.json)))</pre></div></div>"
            if let mismatch = r.mismatch { h += "<p class=\"mismatch\">\(e(mismatch))</p>" }
            h += "</div></details>\n"
        }
        return h + "</details>\n"
    }

    private static func pretty(_ value: JSONValue) -> String {
        let text = JSONWriter.string(value, options: JSONWriter.Options(pretty: true))
        if text.utf8.count <= maxValueCharacters { return text }
        return Escape.truncated(text, maxValueCharacters) + "\n(truncated; the JSON report has the whole value)"
    }

    private static let css = """
        :root{--ok:#1f883d;--okbg:#dafbe1;--bad:#cf222e;--badbg:#ffebe9;--warn:#9a6700;--warnbg:#fff8c5;--fg:#1f2328;--mute:#656d76;--line:#d0d7de}
        *{box-sizing:border-box}body{font:14px/1.45 -apple-system,system-ui,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);margin:24px auto;max-width:1200px;padding:0 16px}
        header{display:flex;align-items:center;gap:12px}h1{font-size:22px;margin:0}h2{font-size:18px;margin:28px 0 6px;border-bottom:1px solid var(--line);padding-bottom:4px}
        h3{font-size:15px;margin:18px 0 4px}h4{margin:4px 0;font-size:12px;color:var(--mute);text-transform:uppercase;letter-spacing:.04em}
        .verdict{font-weight:700;padding:2px 10px;border-radius:12px;color:#fff}.verdict.ok{background:var(--ok)}.verdict.bad{background:var(--bad)}.verdict.small{font-size:12px;vertical-align:middle}
        .meta{color:var(--mute);margin:4px 0}.toggle{display:inline-block;margin:8px 0;color:var(--mute)}
        table.matrix{border-collapse:collapse;margin:10px 0;min-width:50%}table.matrix th,table.matrix td{border:1px solid var(--line);padding:6px 10px;text-align:left;vertical-align:top}
        table.matrix thead th{background:#f6f8fa}table.matrix td a{color:inherit;text-decoration:none;display:block}
        td.ok{background:var(--okbg)}td.bad{background:var(--badbg)}td.warn{background:var(--warnbg)}td.empty{color:var(--mute)}
        tr.assumption th{font-style:italic}tr.total th,tr.total td{border-top:2px solid #8c959f}
        .sub{font-size:11px;color:var(--mute);font-weight:400}
        .alert{background:var(--badbg);border:1px solid var(--bad);padding:6px 10px;border-radius:6px;margin:6px 0}
        ul.notes{color:var(--mute);margin:4px 0}details.group{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 8px}
        details.group>summary{font-weight:600;cursor:pointer}details.case{border-top:1px solid #eaeef2;padding:3px 0 3px 14px}details.case>summary{cursor:pointer}
        .dot{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}.dot.ok{background:var(--ok)}.dot.bad{background:var(--bad)}.dot.warn{background:#d4a72c}
        .status{display:inline-block;min-width:64px;font-size:11px;font-weight:700;text-transform:uppercase;padding:1px 6px;border-radius:4px;text-align:center}
        .status.pass{background:var(--okbg);color:var(--ok)}.status.problem{background:var(--badbg);color:var(--bad)}.status.xfail{background:var(--warnbg);color:var(--warn)}
        .op{color:var(--mute);font-size:12px}.problem{color:var(--bad);font-size:12px}.mismatch{color:var(--bad)}
        .cols{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:10px}
        pre{background:#f6f8fa;border:1px solid #eaeef2;border-radius:6px;padding:6px 8px;overflow:auto;max-height:360px;white-space:pre-wrap;word-break:break-all;margin:0}
        code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
        body.only-problems details.case.row-pass,body.only-problems details.case.row-xfail{display:none}
        """

    private static let script = """
        (function(){
          function openTarget(id){var el=document.getElementById(id);if(!el)return;
            for(var n=el;n;n=n.parentElement){if(n.tagName==='DETAILS')n.open=true;}el.scrollIntoView();}
          document.querySelectorAll('a[data-open]').forEach(function(a){a.addEventListener('click',function(ev){
            ev.preventDefault();openTarget(a.getAttribute('data-open'));history.replaceState(null,'','#'+a.getAttribute('data-open'));});});
          if(location.hash.length>1)openTarget(location.hash.slice(1));
          var box=document.getElementById('only-problems');
          box.addEventListener('change',function(){document.body.classList.toggle('only-problems',box.checked);});
        })();
        """
}
