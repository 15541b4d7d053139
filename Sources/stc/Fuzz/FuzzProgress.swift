import Foundation

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

    init(verbose: Bool) { self.verbose = verbose }

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
