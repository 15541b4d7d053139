import Foundation
import _CommandSupport

/// libFuzzer's output, condensed: every line except the `#N NEW/REDUCE` stream, which is shown at most once a
/// second (its latest line), so that a run stays readable.
struct FuzzProgress {
    var verbose: Bool
    var lastShown = Date.distantPast
    var held: String?
    /// Files libFuzzer said it wrote (`Test unit written to PATH`).
    var artifacts: [String] = []
    var inDictionary = false
    var dictionaryEntries = 0
    /// Each final-stats block seen (one per process: `--jobs N` gives N), in order.
    var executions: [Int] = []
    var execsPerSecond: [Int] = []
    /// Each process's last `#N DONE cov: C ft: F corp: K/SIZE …` line, read: code edges reached (`cov`), features
    /// (`ft`: edges with hit counts, comparisons) and inputs in its corpus (`corp`).
    var finals: [(coverage: Int, features: Int, corpus: Int)] = []

    init(verbose: Bool) { self.verbose = verbose }

    /// What the run did, for a campaign's note: executions, coverage and corpus size, from libFuzzer's final lines
    /// (every process's, with `--jobs N`), and the files in the scratch corpus that all processes share.
    ///
    /// Rule: with several jobs, coverage and libFuzzer's corpus are the largest any job reports (each job reloads
    /// the others' new inputs from the shared directory, so each sees nearly all of them); executions are summed.
    /// Example: `summary: 2 jobs: 300 executions, 50 exec/s in all (per job: 20, 30); cov 120 ft 410 corp 33
    /// (the most of any job); .build/fuzz-corpus/url holds 41 inputs`.
    func summary(scratch: String, scratchInputs: Int) -> String {
        var parts: [String] = []
        if let jobsSummary {
            parts.append(jobsSummary)
        } else if let executions = executions.last {
            parts.append("\(executions) executions, \(execsPerSecond.last ?? 0) exec/s")
        }
        if !finals.isEmpty {
            let most =
                "cov \(finals.map(\.coverage).max() ?? 0) ft \(finals.map(\.features).max() ?? 0) corp "
                + "\(finals.map(\.corpus).max() ?? 0)"
            parts.append(finals.count > 1 ? most + " (the most of any job)" : most)
        }
        parts.append("\(scratch) holds \(scratchInputs) inputs")
        return "summary: " + parts.joined(separator: "; ")
    }

    /// The counts of a `#N DONE cov: C ft: F corp: K/SIZE …` line, or nil for any other line.
    static func final(_ line: String) -> (coverage: Int, features: Int, corpus: Int)? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard line.hasPrefix("#"), words.count > 1, words[1] == "DONE" else { return nil }
        func number(after key: String) -> Int? {
            guard let index = words.firstIndex(where: { $0 == key }), index + 1 < words.count else { return nil }
            return Int(words[index + 1].prefix { $0.isNumber })
        }
        guard let coverage = number(after: "cov:") else { return nil }
        return (coverage, number(after: "ft:") ?? 0, number(after: "corp:") ?? 0)
    }

    /// With several jobs, what they did together; `nil` for a single process (its own stats say it all).
    var jobsSummary: String? {
        guard execsPerSecond.count > 1 else { return nil }
        let perJob = execsPerSecond.map(String.init).joined(separator: ", ")
        return "\(execsPerSecond.count) jobs: \(executions.reduce(0, +)) executions, "
            + "\(execsPerSecond.reduce(0, +)) exec/s in all (per job: \(perJob))"
    }

    mutating func line(_ line: String) {
        if let range = line.range(of: "Test unit written to ") {
            artifacts.append(String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        if let final = Self.final(line) { finals.append(final) }
        for (prefix, isRate) in [("stat::number_of_executed_units:", false), ("stat::average_exec_per_sec:", true)]
        where line.hasPrefix(prefix) {
            if let n = Int(line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)) {
                if isRate { execsPerSecond.append(n) } else { executions.append(n) }
            }
        }
        if !verbose {
            // The dictionary libFuzzer recommends at the end is mostly type-name fragments: counted, not shown.
            if line.hasPrefix("###### Recommended dictionary") {
                inDictionary = true
                dictionaryEntries = 0
                return
            }
            if inDictionary {
                if line.hasPrefix("###### End of recommended dictionary") {
                    inDictionary = false
                    Console.error(
                        "(libFuzzer recommended \(dictionaryEntries) dictionary entries; --verbose shows them)")
                } else {
                    dictionaryEntries += 1
                }
                return
            }
        }
        // "#1234\tNEW    cov: …": the second word says what kind of line it is.
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let isStream = line.hasPrefix("#") && words.count > 1 && (words[1] == "NEW" || words[1] == "REDUCE")
        if verbose || !isStream {
            flush()
            Console.error(line)
            return
        }
        if Date().timeIntervalSince(lastShown) >= 1 {
            Console.error(line)
            lastShown = Date()
            held = nil
        } else {
            held = line
        }
    }

    /// Shows the held stream line, if any.
    mutating func flush() {
        if let held {
            Console.error(held)
            lastShown = Date()
        }
        held = nil
    }
}
