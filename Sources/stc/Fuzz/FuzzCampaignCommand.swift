import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by SIGINT or SIGTERM: the campaign ends after the slice in flight, which is recorded as far as it ran.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

private func requestStop(_ signal: Int32) {
    if stopRequested == 0 {
        stopRequested = 1
        // SIGTERM reaches stc alone; libFuzzer stops on SIGINT and prints its stats (a terminal's Ctrl-C already
        // reached it, being in the same process group; a second one does no harm).
        if signal == SIGTERM { kill(0, SIGINT) }
    }
}

/// `stc fuzz campaign`: a CPU budget spread over targets in slices, merged into the corpus, with a ledger.
enum FuzzCampaignCommand {
    static let help = HelpPage(
        "stc fuzz campaign",
        usage: [
            "[TARGET…] --budget DURATION [--per-target] [--jobs N] [--slice DURATION] [--ledger FILE] [--no-build]",
            "--resume [--ledger FILE] [--no-build]",
            "--report [--markdown] [--ledger FILE]",
        ],
        description: """
            Fuzzes TARGETs (default: every target) until they have used a CPU budget, in slices: each slice is one
            libFuzzer run of --slice (wall time) with --jobs processes, given to the target with budget left that has
            had the least CPU so far (round robin by CPU spent), so every target reaches its share at about the same
            time; a target is done once it has used at least its share (a slice that ends a fraction of a second short
            is followed by one of 1 s). The CPU counted is what the fuzzer's processes used (user and system time), not
            wall time. After each slice, the inputs that reach edges the seeds do not are added to corpus/TARGET/
            (libFuzzer's set-cover merge, as stc fuzz merge --write: never removing or overwriting a seed or a
            regression), and the ledger is written atomically: per target and slice the CPU seconds, executions, cov and
            ft, the seeds after the merge, the crashes, and the commit the slice ran on.

            A crash is minimized (libFuzzer -minimize_crash) and deduplicated by its stack (the first frames of the ASan
            report that are not libFuzzer's, ASan's or the runtime's): the first of a stack is saved as
            corpus/TARGET/regressions/<content hash> and noted in the ledger (slice, commit, stack), later ones are
            counted. A timeout is a crash only if its input, run alone with the same -timeout, times out again:
            libFuzzer's timeout is wall time, which a busy machine stretches. One that does not recur is counted in the
            slice's unreproducedTimeouts and left in .build/fuzz-artifacts/TARGET/. A target that crashed in each of its
            last three slices, the last finding no new stack, is suspended (known bugs every slice would hit at once),
            and the campaign goes on with the others; when a campaign starts or resumes, a suspended target none of
            whose saved crashes still crashes it is fuzzed again. The fuzzer reads the seeds and the scratch corpus, not
            the regressions, so that a saved crash does not end every later slice at its start.

            Ctrl-C or SIGTERM ends the campaign after the slice in flight, which is recorded as far as it ran; if
            the process is killed, only that slice is lost. --resume goes on from the ledger toward the same
            budget. Run long campaigns at low priority (nice -n 19 stc fuzz campaign …) so they take only idle CPU.
            """,
        options: [
            .init(
                "--budget DURATION",
                "CPU time to spend: in all, or per target with --per-target (90s, 45m, 2h, 1h30m; plain numbers are seconds)"
            ),
            .init("--per-target", "the budget is each target's, not the campaign's"),
            .init("--jobs N", "libFuzzer processes per slice (default 1; one a core)"),
            .init("--slice DURATION", "wall time of one slice (default 10m); the last slice of a target is shorter"),
            .init("--ledger FILE", "the ledger (default corpus/CAMPAIGN.json); a new campaign refuses an existing one"),
            .init("--resume", "go on with the campaign of the ledger, to its budget, targets, slices and jobs"),
            .init("--report", "print the ledger as a table and exit (no fuzzing)"),
            .init("--markdown", "with --report: a Markdown table"),
            .init("--no-build", "use the existing binaries"),
        ] + FuzzCommand.commonHelp,
        exitCodes: [
            .init("0", "the budget is spent (or the campaign was stopped) and no new crash was found"),
            .init("1", "the campaign found a crash (saved as a regression)"),
            .init("2", "usage error, an existing or unreadable ledger, a build error"),
        ],
        examples: """
            nice -n 19 stc fuzz campaign --budget 1h --per-target   # a CPU-hour for every target
            nice -n 19 stc fuzz campaign --resume                   # the next sitting, after a stop
            stc fuzz campaign --report --markdown
            """)

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [
            .value("--budget", "DURATION"), .flag("--per-target"), .value("--jobs", "N"),
            .value("--slice", "DURATION"), .value("--ledger", "FILE"), .flag("--resume"), .flag("--report"),
            .flag("--markdown"), .flag("--no-build"),
        ],
        positionals: .any)

    static let command = Command(
        "campaign", summary: "a CPU budget over targets in slices, merged into the corpus, with a ledger",
        syntax: syntax, help: help, run: main)

    /// `90`, `90s`, `45m`, `2h`, `1h30m` as seconds.
    static func duration(_ text: String, option: String) throws(UsageError) -> Int {
        var total = 0
        var number = ""
        var sawUnit = false
        for c in text {
            if c.isASCII && c.isNumber {
                number.append(c)
                continue
            }
            let scale: Int
            switch c {
            case "s": scale = 1
            case "m": scale = 60
            case "h": scale = 3600
            default: throw UsageError("\(option) takes a duration such as 90s, 45m, 2h or 1h30m, not '\(text)'")
            }
            guard let n = Int(number) else {
                throw UsageError("\(option) takes a duration such as 90s, 45m, 2h or 1h30m, not '\(text)'")
            }
            total += n * scale
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            guard let n = Int(number), !sawUnit else {
                throw UsageError("\(option) takes a duration such as 90s, 45m, 2h or 1h30m, not '\(text)'")
            }
            total += n
        }
        guard total > 0 else { throw UsageError("\(option) needs a duration above 0, not '\(text)'") }
        return total
    }

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let ws = FuzzCommand.workspace(a)
        let ledgerPath = FuzzWorkspace.absolute(
            a.value("--ledger") ?? (ws.corpus.root as NSString).appendingPathComponent("CAMPAIGN.json"),
            in: FileManager.default.currentDirectoryPath)
        if a.flag("--report") {
            let conflicting = ["--budget", "--jobs", "--slice"].filter { a.value($0) != nil }
            if let other = conflicting.first { throw UsageError("--report prints the ledger; it takes no \(other)") }
            let ledger = try loadLedger(ledgerPath)
            Console.write(ledger.report(markdown: a.flag("--markdown")), to: 1)
            return 0
        }
        if a.flag("--markdown") { throw UsageError("--markdown goes with --report") }

        var ledger: CampaignLedger
        if a.flag("--resume") {
            let given =
                ["--budget", "--jobs", "--slice"].filter { a.value($0) != nil }
                + (a.flag("--per-target") ? ["--per-target"] : []) + (a.positionals.isEmpty ? [] : ["TARGET"])
            if let other = given.first {
                throw UsageError("--resume goes on with the ledger's campaign; it takes no \(other)")
            }
            ledger = try loadLedger(ledgerPath)
        } else {
            guard let budgetText = a.value("--budget") else {
                throw UsageError("give --budget DURATION (or --resume, or --report)")
            }
            let budget = try duration(budgetText, option: "--budget")
            let slice = try duration(a.value("--slice") ?? "10m", option: "--slice")
            let jobs = try a.int("--jobs", default: 1, min: 1)
            let targets = try (a.positionals.isEmpty ? FuzzTargets.all.map(\.name) : a.positionals).map {
                try FuzzCommand.target($0).name
            }
            guard Set(targets).count == targets.count else { throw UsageError("a TARGET is named twice") }
            if FileManager.default.fileExists(atPath: ledgerPath) {
                throw CommandFailure(
                    "\(Shell.displayPath(ledgerPath)) exists: go on with it (--resume), or give another --ledger FILE")
            }
            ledger = CampaignLedger(
                budgetSeconds: Double(budget), perTarget: a.flag("--per-target"), sliceSeconds: slice, jobs: jobs,
                targets: targets)
        }
        guard ledger.hasBudgetLeft else {
            Console.out("the campaign's budget is spent:\n")
            Console.write(ledger.report(markdown: false), to: 1)
            return 0
        }
        try FuzzBuild.ensure(ws, targets: ledger.order, skip: a.flag("--no-build"))
        for target in ledger.order { _ = try FuzzBuild.checkInstrumented(try ws.binary(target)) }

        let crashesBefore = ledger.targets.values.reduce(0) { $0 + $1.crashes.count }
        var campaign = FuzzCampaign(
            ledger: ledger, ledgerPath: ledgerPath, runner: LibFuzzerSliceRunner(workspace: ws),
            commit: commit(ws),
            saveCrash: { bytes, target in
                ws.corpus.recordedName(try ws.corpus.addRegression(bytes, target: target).path)
            })
        signal(SIGINT, requestStop)
        signal(SIGTERM, requestStop)
        defer {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        Console.error(
            "campaign: \(Int(ledger.budgetSeconds)) CPU s \(ledger.perTarget ? "per target" : "in all") over "
                + "\(ledger.order.count) target(s), slices of \(ledger.sliceSeconds) s, \(ledger.jobs) job(s); "
                + "ledger \(Shell.displayPath(ledgerPath))")
        do {
            try campaign.run(shouldStop: { stopRequested != 0 }) { Console.error("campaign: " + $0) }
        } catch let error as CampaignError {
            throw CommandFailure(error.description)
        }
        Console.write(campaign.ledger.report(markdown: false), to: 1)
        let crashesAfter = campaign.ledger.targets.values.reduce(0) { $0 + $1.crashes.count }
        if stopRequested != 0 {
            Console.out("stopped; go on with: stc fuzz campaign --resume" + ledgerOption(a))
        } else if campaign.ledger.hasBudgetLeft {
            let suspended = campaign.ledger.order.compactMap { name in
                campaign.ledger.targets[name]?.suspended.map { "\(name): \($0)" }
            }
            Console.out(
                "the targets with budget left are suspended (" + suspended.joined(separator: "; ")
                    + "): fix what stops them (a crash saved in their regressions, a fuzzer that does not run), "
                    + "then go on with: stc fuzz campaign --resume" + ledgerOption(a))
        }
        return crashesAfter > crashesBefore ? 1 : 0
    }

    static func ledgerOption(_ a: ScannedArguments) -> String {
        a.value("--ledger").map { " --ledger \(Shell.quote($0))" } ?? ""
    }

    static func loadLedger(_ path: String) throws -> CampaignLedger {
        do {
            return try CampaignLedger.load(path)
        } catch let error as CampaignError {
            throw CommandFailure(error.description)
        }
    }

    /// The commit the package is at (`git rev-parse --short HEAD`), with `+` when files it tracks have changes
    /// outside the corpus (the corpus and the ledger, which the campaign itself writes, do not change what is
    /// fuzzed).
    static func commit(_ ws: FuzzWorkspace) -> String {
        guard let root = ws.packageRoot, let git = FuzzProcess.which("git"),
            let head = try? FuzzProcess.capture(git, ["-C", root, "rev-parse", "--short", "HEAD"]), head.status == 0
        else { return "unknown" }
        let name = String(decoding: head.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let corpus =
            ws.corpus.root.hasPrefix(root + "/") ? [":(exclude)" + ws.corpus.root.dropFirst(root.count + 1)] : []
        let dirty =
            (try? FuzzProcess.capture(
                git, ["-C", root, "status", "--porcelain", "--untracked-files=no", "--", "."] + corpus))
            .map { !$0.stdout.isEmpty } ?? false
        return name + (dirty ? "+" : "")
    }
}

/// One slice with the target's libFuzzer binary: fuzz, find the new crashes, merge the new inputs into the seeds.
struct LibFuzzerSliceRunner: CampaignSliceRunner {
    let workspace: FuzzWorkspace

    func runSlice(target name: String, seconds: Int, jobs: Int) throws -> CampaignSliceOutcome {
        let ws = workspace
        let target = try FuzzCommand.target(name)
        let binary = try ws.binary(name)
        let scratch = try ws.scratch("fuzz-corpus", name)
        let artifacts = try ws.scratch("fuzz-artifacts", name)
        // The slice writes its artifacts and its jobs' logs into a directory of its own, so that everything there
        // is this slice's: a crash an earlier slice found too (libFuzzer names an artifact by its input's hash) is
        // this slice's crash as well, and a log an earlier run left is not read again. At the end its files move
        // up into `artifacts`, where `stc fuzz run` leaves them.
        let slice = (artifacts as NSString).appendingPathComponent("slice-in-flight-\(getpid())")
        try? FileManager.default.removeItem(atPath: slice)
        try FileManager.default.createDirectory(atPath: slice, withIntermediateDirectories: true)
        defer { Self.moveUp(slice, into: artifacts) }
        var flags =
            FuzzDefaults.flags(maxLen: target.maxLength, dictionary: ws.corpus.dictionary(name))
            + ["-artifact_prefix=\(slice)/", "-print_final_stats=1", "-max_total_time=\(seconds)"]
        if jobs > 1 { flags += ["-jobs=\(jobs)", "-workers=\(jobs)"] }
        var dirs = [scratch]
        if FileManager.default.fileExists(atPath: ws.corpus.seedDirectory(name)) {
            dirs.append(ws.corpus.seedDirectory(name))
        }
        var stats = SliceStats()
        let cpuBefore = childCPUSeconds()
        let start = Date()
        let output = try FuzzProcess.run(
            binary, flags + dirs, environment: FuzzProcess.fuzzerEnvironment(throughput: true),
            currentDirectory: slice, keep: 1 << 16
        ) { line in if jobs == 1 { stats.read(line) } }
        let wall = Date().timeIntervalSince(start)
        let cpu = childCPUSeconds() - cpuBefore
        if jobs > 1 {
            // Each job's stats are in its log, fuzz-J.log (libFuzzer prints a log only when its job ends, so an
            // interrupted slice has them there alone).
            for job in 0..<jobs {
                let log = (slice as NSString).appendingPathComponent("fuzz-\(job).log")
                guard let data = FileManager.default.contents(atPath: log) else { continue }
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n") { stats.read(String(line)) }
            }
        }

        var crashes: [(input: [UInt8], stack: String)] = []
        var unreproducedTimeouts = 0
        for file in FuzzCorpus.files(in: slice) {
            let base = (file as NSString).lastPathComponent
            guard ["crash-", "timeout-", "oom-", "leak-"].contains(where: base.hasPrefix),
                let data = FileManager.default.contents(atPath: file)
            else { continue }
            var bytes = [UInt8](data)
            if base.hasPrefix("crash-"),
                let smaller = try FuzzAddCommand.minimize(
                    binary: binary, file: file, runs: 2_000, workspace: ws, target: name),
                smaller.count < bytes.count
            {
                bytes = smaller
            }
            let kind = String(base.prefix { $0 != "-" })
            let alone = try Self.stack(binary: binary, input: bytes, kind: kind)
            // libFuzzer's -timeout is wall time: at nice 19 beside a build, a quick input can be held past it. A
            // timeout is a crash only when it recurs alone; otherwise it stays in the artifacts, counted.
            if kind == "timeout" && !alone.recurred {
                unreproducedTimeouts += 1
                continue
            }
            crashes.append((bytes, alone.key))
        }
        let (new, _, _) = try FuzzMergeCommand.newInputs(name, workspace: ws, binary: binary) { _ in }
        var added = 0
        for bytes in new where try ws.corpus.addSeed(bytes, target: name).isNew { added += 1 }
        return CampaignSliceOutcome(
            cpuSeconds: cpu, wallSeconds: wall, executions: stats.executions, covStart: stats.covStart,
            covEnd: stats.covEnd, ftEnd: stats.ftEnd, newSeeds: added, corpusAfter: ws.corpus.seeds(name).count,
            // Stopped, whatever the status: with -jobs, libFuzzer's parent waits for its jobs through system(),
            // which ignores SIGINT, and exits 0 once they have stopped (a lone libFuzzer exits 72).
            crashes: crashes, interrupted: stopRequested != 0,
            unreproducedTimeouts: unreproducedTimeouts)
    }

    /// Moves the files of `directory` into `destination` (a file of the same name there is replaced: an artifact's
    /// name is its input's hash, a log is the latest run's), then removes `directory`.
    static func moveUp(_ directory: String, into destination: String) {
        for file in FuzzCorpus.files(in: directory) {
            // rename(2) replaces a file of the same name in one step.
            _ = rename(file, (destination as NSString).appendingPathComponent((file as NSString).lastPathComponent))
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func reproduces(target name: String, files: [String]) throws -> Bool {
        let binary = try workspace.binary(name)
        for file in files.map(workspace.corpus.path(recordedAs:)) where FileManager.default.fileExists(atPath: file) {
            let run = try FuzzProcess.run(
                binary, ["-timeout=\(FuzzDefaults.timeout)", file], environment: FuzzProcess.fuzzerEnvironment())
            if run.status != 0 || run.crashedBySignal { return true }
        }
        return false
    }

    /// CPU seconds (user and system) of this process's children that have ended, grandchildren included.
    func childCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            _ = getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            _ = getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The key of a crash: its kind and the first frames of the report, running `input` once, that are the
    /// harness's or the reference's (not libFuzzer's, ASan's, the C library's or the Swift runtime's); and
    /// whether that run failed too (`recurred`; false when the input ran through cleanly).
    static func stack(binary: String, input: [UInt8], kind: String) throws -> (key: String, recurred: Bool) {
        let file = NSTemporaryDirectory() + "stc-campaign-\(getpid())-\(FuzzCorpus.contentName(input))"
        try Data(input).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The slices' timeout: run alone, libFuzzer's default (20 minutes) would hold a timeout's input that long
        // before it prints the stack of where it hangs.
        let arguments = ["-timeout=\(FuzzDefaults.timeout)", file]
        var report: [String] = []
        let run = try FuzzProcess.run(binary, arguments, environment: FuzzProcess.fuzzerEnvironment()) {
            report.append($0)
        }
        return (stackKey(report, kind: kind), run.status != 0 || run.crashedBySignal)
    }

    /// Frames that say nothing of where a bug is: libFuzzer, the sanitizers, the C library, the allocator, the
    /// Swift runtime and the standard library (`$ss…` its functions, `$sS…` its types' methods).
    static let foreignFrames = [
        "__sanitizer", "__asan", "__lsan", "__interceptor", "fuzzer::", "LLVMFuzzer", "__libc", "__pthread", "_start",
        "swift_", "$ss", "$sS", "_swift", "abort", "raise", "gsignal", "__GI", "malloc", "calloc", "realloc",
        "posix_memalign", "memalign", "aligned_alloc", "operator new",
    ]

    /// The key of a crash from the report of its input run alone: its kind and the invariant the harness says is
    /// broken (every such crash has one stack, the harness's abort); else its first three frames that are not
    /// ``foreignFrames``; else the report's SUMMARY line.
    ///
    /// ```swift
    /// stackKey(["    #0 0x1 in malloc …", "    #1 0x2 in $s4json3fooyyF /x.swift:3"], kind: "leak")  // "leak: $s4json3fooyyF"
    /// stackKey(["invariant failed in url: decode inverts encode", "  a b"], kind: "crash")  // "crash: invariant decode inverts encode"
    /// ```
    static func stackKey(_ report: [String], kind: String) -> String {
        var frames: [String] = []
        var summary: String?
        for line in report {
            // `invariant failed in TARGET: INVARIANT` (FuzzTarget.libFuzzerEntry): the invariant alone on its line.
            if line.hasPrefix("invariant failed in "), let colon = line.range(of: ": ") {
                return "\(kind): invariant " + line[colon.upperBound...]
            }
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 4, words[0].hasPrefix("#"), words[2] == "in", frames.count < 3 {
                // "in operator new(unsigned long)" is one function in two words.
                let function = words[3...].prefix { !$0.hasPrefix("/") && !$0.hasPrefix("(") }.joined(separator: " ")
                if !foreignFrames.contains(where: function.hasPrefix) { frames.append(String(words[3])) }
            }
            if line.hasPrefix("SUMMARY: ") && summary == nil {
                summary = line.split(separator: " ").filter { !$0.hasPrefix("0x") }.joined(separator: " ")
            }
        }
        if !frames.isEmpty { return "\(kind): " + frames.joined(separator: " < ") }
        return "\(kind): " + (summary ?? "no stack")
    }
}

/// What a slice's libFuzzer output says: executions (summed over the jobs), coverage at the start and the end.
struct SliceStats {
    var executions = 0
    var covStart: Int?
    var covEnd: Int?
    var ftEnd: Int?

    mutating func read(_ line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        func number(after key: String) -> Int? {
            guard let index = words.firstIndex(where: { $0 == key }), index + 1 < words.count else { return nil }
            return Int(words[index + 1].prefix { $0.isNumber })
        }
        if line.hasPrefix("#"), words.count > 1, words[1] == "INITED", let cov = number(after: "cov:") {
            covStart = max(covStart ?? 0, cov)
        }
        // The most of any line, not only of DONE lines: an interrupted job prints none, and its last NEW, REDUCE or
        // pulse line says how far it got.
        if line.hasPrefix("#"), let cov = number(after: "cov:") {
            covEnd = max(covEnd ?? 0, cov)
            if let ft = number(after: "ft:") { ftEnd = max(ftEnd ?? 0, ft) }
        }
        if let final = FuzzProgress.final(line) {
            covEnd = max(covEnd ?? 0, final.coverage)
            ftEnd = max(ftEnd ?? 0, final.features)
        }
        let prefix = "stat::number_of_executed_units:"
        if line.hasPrefix(prefix), let n = Int(line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)) {
            executions += n
        }
    }
}
