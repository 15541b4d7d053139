import Foundation

/// What one slice of fuzzing did: the CPU it took, what libFuzzer reported, and the crashes it found.
public struct CampaignSliceOutcome: Sendable {
    /// CPU seconds (user and system) of the fuzzer's processes, measured, not wall time × jobs.
    public var cpuSeconds: Double
    public var wallSeconds: Double
    public var executions: Int
    /// libFuzzer's edge coverage and features at the start and end of the slice (the most of any job).
    public var covStart: Int?
    public var covEnd: Int?
    public var ftEnd: Int?
    /// Inputs the merge added to the target's seeds, and the seeds after it.
    public var newSeeds: Int
    public var corpusAfter: Int
    /// Crashing inputs, each with the key of its stack (the frames that name it; see ``FuzzCampaign``).
    public var crashes: [(input: [UInt8], stack: String)]
    /// The slice was cut short by a stop request; it is recorded as far as it ran.
    public var interrupted: Bool
    /// Timeouts whose input, run alone with the same `-timeout`, ended in time: not crashes (see ``FuzzCampaign``).
    public var unreproducedTimeouts: Int

    public init(
        cpuSeconds: Double, wallSeconds: Double, executions: Int, covStart: Int? = nil, covEnd: Int? = nil,
        ftEnd: Int? = nil, newSeeds: Int = 0, corpusAfter: Int = 0, crashes: [(input: [UInt8], stack: String)] = [],
        interrupted: Bool = false, unreproducedTimeouts: Int = 0
    ) {
        self.cpuSeconds = cpuSeconds
        self.wallSeconds = wallSeconds
        self.executions = executions
        self.covStart = covStart
        self.covEnd = covEnd
        self.ftEnd = ftEnd
        self.newSeeds = newSeeds
        self.corpusAfter = corpusAfter
        self.crashes = crashes
        self.interrupted = interrupted
        self.unreproducedTimeouts = unreproducedTimeouts
    }
}

/// Runs one slice: fuzz `target` for `seconds` of wall time with `jobs` processes, merge what is new into its
/// seeds, and report. `stc fuzz campaign` runs libFuzzer; the tests give a stand-in.
public protocol CampaignSliceRunner {
    /// Fuzzes one slice.
    ///
    /// - Parameters:
    ///   - target: The fuzz target.
    ///   - seconds: Wall seconds for the slice (libFuzzer `-max_total_time`).
    ///   - jobs: Parallel fuzzing processes.
    /// - Returns: What the slice did.
    /// - Throws: When the slice could not run at all (the campaign stops, the ledger keeps what was done).
    func runSlice(target: String, seconds: Int, jobs: Int) throws -> CampaignSliceOutcome

    /// Whether any of `files`, a suspended target's saved crashes, still crashes the target (asked when a campaign
    /// starts, to fuzz again a target whose bugs were fixed).
    ///
    /// - Parameters:
    ///   - target: The fuzz target.
    ///   - files: The regression files of its crashes.
    /// - Returns: True when one of them crashes it.
    /// - Throws: When the target cannot be run.
    func reproduces(target: String, files: [String]) throws -> Bool
}

/// The ledger of a campaign (`corpus/CAMPAIGN.json` by default): its budget and, per target, every slice run.
///
/// Rule: it is rewritten atomically after each slice, so a campaign stopped at any moment has lost at most the
/// slice in flight, and `--resume` goes on from it toward the same budget.
public struct CampaignLedger: Codable, Sendable, Equatable {
    public struct Slice: Codable, Sendable, Equatable {
        public var number: Int
        public var commit: String
        public var started: String
        public var wallSeconds: Double
        public var cpuSeconds: Double
        public var executions: Int
        public var covStart: Int?
        public var covEnd: Int?
        public var ftEnd: Int?
        public var newSeeds: Int
        public var corpusAfter: Int
        /// Stack keys of the crashes it found.
        public var crashes: [String]
        public var interrupted: Bool
        /// Timeouts that did not recur when their input ran alone (absent when none).
        public var unreproducedTimeouts: Int?
    }

    /// A distinct crash (by stack) and how it was found.
    public struct Crash: Codable, Sendable, Equatable {
        public var stack: String
        /// The regression file it was saved as, from the directory holding the corpus
        /// (`corpus/TARGET/regressions/HASH`; ``FuzzCorpus/recordedName(_:)``).
        public var file: String
        /// The slice that found it first, the commit it ran on, and how often the stack showed since.
        public var slice: Int
        public var commit: String
        public var occurrences: Int
    }

    public struct Target: Codable, Sendable, Equatable {
        public var slices: [Slice] = []
        public var crashes: [Crash] = []
        /// Seeds in `corpus/TARGET/` when the campaign first ran the target.
        public var corpusStart: Int?
        /// Set when the target stopped being fuzzed: its slices crash at once on a known stack.
        public var suspended: String?

        public var cpuSeconds: Double { slices.reduce(0) { $0 + $1.cpuSeconds } }
        public var executions: Int { slices.reduce(0) { $0 + $1.executions } }
    }

    public var schema = 1
    /// CPU seconds: for the whole campaign, or for each target when `perTarget`.
    public var budgetSeconds: Double
    public var perTarget: Bool
    public var sliceSeconds: Int
    public var jobs: Int
    /// The targets in the order the campaign takes them.
    public var order: [String]
    public var targets: [String: Target]

    public init(budgetSeconds: Double, perTarget: Bool, sliceSeconds: Int, jobs: Int, targets: [String]) {
        self.budgetSeconds = budgetSeconds
        self.perTarget = perTarget
        self.sliceSeconds = sliceSeconds
        self.jobs = jobs
        self.order = targets
        self.targets = Dictionary(uniqueKeysWithValues: targets.map { ($0, Target()) })
    }

    /// The CPU seconds each target may take.
    public var budgetPerTarget: Double { perTarget ? budgetSeconds : budgetSeconds / Double(max(1, order.count)) }

    /// CPU seconds of `target`'s budget it has not used, suspended or not.
    public func unspent(_ target: String) -> Double { max(0, budgetPerTarget - (targets[target]?.cpuSeconds ?? 0)) }

    /// CPU seconds still to spend on `target` (0 once suspended).
    public func remaining(_ target: String) -> Double {
        targets[target]?.suspended == nil ? unspent(target) : 0
    }

    /// CPU seconds still to spend on all the targets.
    public var remainingCPUSeconds: Double { order.reduce(0) { $0 + remaining($1) } }

    /// The CPU seconds of the whole campaign: the budget, or the budget of every target when ``perTarget``.
    public var totalBudgetSeconds: Double { perTarget ? budgetSeconds * Double(order.count) : budgetSeconds }

    /// Whether a target, suspended or not, has budget left: a campaign may still fuzz it.
    public var hasBudgetLeft: Bool { order.contains { unspent($0) > 0 } }

    /// Round robin by CPU spent: the target with budget left that has had the least, ties in ``order``.
    public var nextTarget: String? {
        order.filter { remaining($0) > 0 }.min { (targets[$0]?.cpuSeconds ?? 0) < (targets[$1]?.cpuSeconds ?? 0) }
    }

    public var totalCPUSeconds: Double { targets.values.reduce(0) { $0 + $1.cpuSeconds } }

    /// Reads a ledger.
    ///
    /// - Parameter path: The ledger file.
    /// - Returns: The ledger.
    /// - Throws: When the file cannot be read or is not a ledger.
    public static func load(_ path: String) throws -> CampaignLedger {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CampaignError("cannot read the ledger \(path)")
        }
        do {
            return try JSONDecoder().decode(CampaignLedger.self, from: data)
        } catch {
            throw CampaignError("\(path) is not a campaign ledger: \(error)")
        }
    }

    /// Writes the ledger atomically (a temporary file, then a rename), keys sorted, one member a line.
    ///
    /// - Parameter path: The ledger file.
    /// - Throws: When it cannot be written; an old ledger is then unchanged.
    public func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// Why a campaign could not start or go on.
public struct CampaignError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A fuzz campaign: a CPU budget spread over targets in slices, with a ledger that adds up across sittings.
///
/// Rules:
/// - **Schedule**: round robin by CPU spent (``CampaignLedger/nextTarget``): each slice goes to the target with
///   budget left that has had the least CPU, so every target reaches its share at about the same time. A slice
///   is `sliceSeconds` of wall time, or less when the target has less CPU left (`remaining / jobs`, at least
///   1 s). A target is done when it has used at least its budget: a slice that ends a fraction of a CPU second
///   short is followed by a 1-second one, so "a CPU-hour per target" means at least 3600 CPU s each.
/// - **CPU** is what the fuzzer's processes used (user and system time), not wall time.
/// - **Crashes** are deduplicated by stack: the first crash of a stack is minimized and saved as a regression, later
///   ones only count. A timeout counts as a crash only when its input, run alone with the same `-timeout`, times out
///   again: libFuzzer's timeout is wall time, and a fuzzer at low priority beside a build can be held past it by an
///   input that takes a fraction of a second (the runner reports such timeouts apart, in
///   ``CampaignSliceOutcome/unreproducedTimeouts``; the slice records how many). A target that crashed in each of its
///   last three slices, the last of them finding no new stack, is suspended (known bugs that every slice would hit at
///   once), and the campaign goes on with the others; so is one whose last three slices used no CPU and found nothing
///   (a fuzzer that does not run). When a campaign starts, a suspended target none of whose saved crashes crashes any
///   more is fuzzed again.
/// - **Stopping**: `shouldStop` is asked between slices; the runner ends a slice early on a stop request and the
///   slice is recorded as far as it ran. A slice in flight when the process is killed is not in the ledger.
///
/// ```swift
/// var campaign = FuzzCampaign(ledger: ledger, ledgerPath: "corpus/CAMPAIGN.json", runner: runner,
///                             commit: "abc1234", saveCrash: { bytes, target in try corpus.addRegression(…) })
/// try campaign.run()
/// ```
public struct FuzzCampaign {
    public private(set) var ledger: CampaignLedger
    public let ledgerPath: String
    public let runner: CampaignSliceRunner
    public let commit: String
    /// Saves a new crash's input as a regression; returns the file's path.
    public let saveCrash: ([UInt8], String) throws -> String
    /// Slices in a row, crashing on known stacks or using no CPU, after which a target is suspended.
    public static let suspendAfter = 3

    /// A campaign over `ledger`, written back to `ledgerPath` after each slice.
    ///
    /// - Parameters:
    ///   - ledger: A new ledger, or one read for `--resume`.
    ///   - ledgerPath: Where it is written.
    ///   - runner: Runs the slices.
    ///   - commit: The commit the slices run on (recorded in each).
    ///   - saveCrash: Saves a new crash's input for a target; returns the path.
    public init(
        ledger: CampaignLedger, ledgerPath: String, runner: CampaignSliceRunner, commit: String,
        saveCrash: @escaping ([UInt8], String) throws -> String
    ) {
        self.ledger = ledger
        self.ledgerPath = ledgerPath
        self.runner = runner
        self.commit = commit
        self.saveCrash = saveCrash
    }

    /// Runs slices until the budget is spent or `shouldStop` says so.
    ///
    /// - Parameters:
    ///   - shouldStop: Asked before each slice and after it.
    ///   - progress: Told about each slice as it ends.
    /// - Throws: When a slice cannot run or the ledger cannot be written; what was done is in the ledger.
    public mutating func run(shouldStop: () -> Bool = { false }, progress: (String) -> Void = { _ in }) throws {
        try retrySuspended(progress: progress)
        try ledger.save(ledgerPath)
        let sittingStart = Date()
        let cpuAtStart = ledger.totalCPUSeconds
        while !shouldStop(), let target = ledger.nextTarget {
            let remaining = ledger.remaining(target)
            let seconds = max(1, min(ledger.sliceSeconds, Int((remaining / Double(ledger.jobs)).rounded(.up))))
            let started = ISO8601DateFormatter().string(from: Date())
            let outcome = try runner.runSlice(target: target, seconds: seconds, jobs: ledger.jobs)
            try record(outcome, target: target, started: started)
            try ledger.save(ledgerPath)
            let record = ledger.targets[target] ?? CampaignLedger.Target()
            progress(
                "\(target): slice \(record.slices.count), \(Int(outcome.cpuSeconds)) CPU s, \(outcome.executions) "
                    + "executions, cov \(outcome.covEnd.map(String.init) ?? "?"), +\(outcome.newSeeds) seeds"
                    + (outcome.crashes.isEmpty ? "" : ", \(outcome.crashes.count) crash(es)")
                    + (outcome.unreproducedTimeouts == 0
                        ? ""
                        : ", \(outcome.unreproducedTimeouts) timeout(s) that did not recur alone (a busy machine?)")
                    + "; \(Int(record.cpuSeconds))/\(Int(ledger.budgetPerTarget)) CPU s for the target, "
                    + "\(Int(ledger.totalCPUSeconds))/\(Int(ledger.totalBudgetSeconds)) in all"
                    + Self.timeLeft(
                        cpu: ledger.remainingCPUSeconds,
                        rate: (ledger.totalCPUSeconds - cpuAtStart) / Date().timeIntervalSince(sittingStart))
                    + (record.suspended.map { "; suspended: \($0)" } ?? ""))
            if outcome.interrupted { break }
        }
    }

    /// How long `cpu` seconds of CPU take at `rate` CPU seconds per second, as the progress line says it:
    /// `, about 2 h 05 min left at 1.9 CPU s/s`; nothing when nothing is left or the rate is unknown.
    static func timeLeft(cpu: Double, rate: Double) -> String {
        guard cpu >= 1, rate.isFinite, rate > 0 else { return "" }
        let minutes = Int((cpu / rate / 60).rounded(.up))
        let span = minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h " + String(format: "%02d min", minutes % 60)
        return ", about \(span) left at " + String(format: "%.1f", rate) + " CPU s/s"
    }

    /// A suspended target with budget left is fuzzed again when none of its saved crashes crashes it any more (its
    /// bugs were fixed since), or when it was suspended for using no CPU (the binary has been built again).
    mutating func retrySuspended(progress: (String) -> Void) throws {
        for name in ledger.order {
            guard let record = ledger.targets[name], let reason = record.suspended, ledger.unspent(name) > 0 else {
                continue
            }
            let files = record.crashes.map(\.file)
            if !files.isEmpty, try runner.reproduces(target: name, files: files) {
                progress("\(name): still suspended, a saved crash still crashes it (\(reason))")
                continue
            }
            ledger.targets[name]?.suspended = nil
            progress(
                "\(name): fuzzed again, "
                    + (files.isEmpty ? "its binary is new" : "its \(files.count) saved crash(es) no longer crash it")
                    + " (it was suspended: \(reason))")
        }
    }

    mutating func record(_ outcome: CampaignSliceOutcome, target: String, started: String) throws {
        var record = ledger.targets[target] ?? CampaignLedger.Target()
        if record.corpusStart == nil {
            record.corpusStart = max(0, outcome.corpusAfter - outcome.newSeeds)
        }
        let number = record.slices.count + 1
        var stacks: [String] = []
        var foundNew = false
        for crash in outcome.crashes {
            stacks.append(crash.stack)
            if let index = record.crashes.firstIndex(where: { $0.stack == crash.stack }) {
                record.crashes[index].occurrences += 1
            } else {
                foundNew = true
                let file = try saveCrash(crash.input, target)
                record.crashes.append(
                    CampaignLedger.Crash(stack: crash.stack, file: file, slice: number, commit: commit, occurrences: 1))
            }
        }
        record.slices.append(
            CampaignLedger.Slice(
                number: number, commit: commit, started: started, wallSeconds: outcome.wallSeconds,
                cpuSeconds: outcome.cpuSeconds, executions: outcome.executions, covStart: outcome.covStart,
                covEnd: outcome.covEnd, ftEnd: outcome.ftEnd, newSeeds: outcome.newSeeds,
                corpusAfter: outcome.corpusAfter, crashes: stacks, interrupted: outcome.interrupted,
                unreproducedTimeouts: outcome.unreproducedTimeouts > 0 ? outcome.unreproducedTimeouts : nil))
        let last = record.slices.suffix(Self.suspendAfter)
        if last.count == Self.suspendAfter {
            if last.allSatisfy({ !$0.crashes.isEmpty }), !foundNew {
                // Crashing in every slice, lately only on bugs already saved: the target stops on them before it
                // fuzzes much (such a slice uses little CPU, so the schedule would pick it again and again).
                let known = Set(last.flatMap(\.crashes)).sorted().joined(separator: "; ")
                record.suspended = "crashed in \(Self.suspendAfter) slices in a row, on known stacks: \(known)"
            } else if last.allSatisfy({ $0.cpuSeconds < 0.1 && !$0.interrupted && $0.crashes.isEmpty }) {
                // Slices that used no CPU and found nothing: the fuzzer does not run (a broken binary); going on
                // would loop.
                record.suspended = "\(Self.suspendAfter) slices in a row used no CPU: the fuzzer does not run"
            }
        }
        ledger.targets[target] = record
    }
}

extension CampaignLedger {
    /// The ledger as a table: per target the CPU seconds, executions, executions per CPU second, coverage at the
    /// start and end, seeds at the start and end, crashes, and the coverage after each slice.
    ///
    /// - Parameter markdown: A Markdown table instead of aligned text.
    /// - Returns: The report, one line per target and a total.
    public func report(markdown: Bool) -> String {
        let header = ["target", "CPU s", "execs", "execs/CPU s", "cov", "seeds", "crashes", "slices", "cov by slice"]
        var rows: [[String]] = []
        for name in order {
            let t = targets[name] ?? Target()
            let cpu = t.cpuSeconds
            let covStart = t.slices.first?.covStart.map(String.init) ?? "?"
            // The last slice that knows its coverage (one cut short before this build could read it may not).
            let covEnd = t.slices.last(where: { $0.covEnd != nil })?.covEnd.map(String.init) ?? "?"
            let seeds =
                "\(t.corpusStart.map(String.init) ?? "?") → \(t.slices.last.map { String($0.corpusAfter) } ?? "?")"
            let growth = t.slices.map { $0.covEnd.map(String.init) ?? "?" }.joined(separator: " ")
            rows.append([
                name, String(Int(cpu.rounded())), String(t.executions),
                cpu > 0 ? String(Int((Double(t.executions) / cpu).rounded())) : "0",
                t.slices.isEmpty ? "" : "\(covStart) → \(covEnd)", t.slices.isEmpty ? "" : seeds,
                String(t.crashes.count) + (t.suspended == nil ? "" : " (suspended)"), String(t.slices.count), growth,
            ])
        }
        let total = totalCPUSeconds
        let executions = targets.values.reduce(0) { $0 + $1.executions }
        rows.append([
            "all", String(Int(total.rounded())), String(executions),
            total > 0 ? String(Int((Double(executions) / total).rounded())) : "0", "", "",
            String(targets.values.reduce(0) { $0 + $1.crashes.count }),
            String(targets.values.reduce(0) { $0 + $1.slices.count }), "",
        ])
        let budget =
            "budget: \(Int(budgetSeconds)) CPU s \(perTarget ? "per target" : "in all"), slices of \(sliceSeconds) s, "
            + "\(jobs) job(s); spent \(Int(total.rounded())) of \(Int(totalBudgetSeconds)) CPU s "
            + "(\(Int((100 * total / max(1, totalBudgetSeconds)).rounded(.down))) %)"
        if markdown {
            var lines = [budget, "", "| " + header.joined(separator: " | ") + " |"]
            lines.append("|" + String(repeating: " --- |", count: header.count))
            lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
            return lines.joined(separator: "\n") + "\n"
        }
        let widths = header.indices.map { i in max(header[i].count, rows.map { $0[i].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            cells.indices.map { i in cells[i].padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([budget, "", line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
