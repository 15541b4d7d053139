import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by SIGINT or SIGTERM: the campaign ends after the slice in flight, which is recorded as far as it ran
/// (``LibFuzzerSliceRunner`` marks that slice interrupted).
nonisolated(unsafe) var campaignStopRequested: sig_atomic_t = 0

private func requestStop(_ signal: Int32) {
    if campaignStopRequested == 0 {
        campaignStopRequested = 1
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
            try campaign.run(shouldStop: { campaignStopRequested != 0 }) { Console.error("campaign: " + $0) }
        } catch let error as CampaignError {
            throw CommandFailure(error.description)
        }
        Console.write(campaign.ledger.report(markdown: false), to: 1)
        let crashesAfter = campaign.ledger.targets.values.reduce(0) { $0 + $1.crashes.count }
        if campaignStopRequested != 0 {
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
