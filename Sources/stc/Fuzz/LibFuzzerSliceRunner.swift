import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        _ = try FuzzProcess.run(
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
            crashes: crashes, interrupted: campaignStopRequested != 0,
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
