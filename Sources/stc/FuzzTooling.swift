import Foundation
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where things are: the package (with `Fuzz/Package.swift`), the corpus, the scratch directories.
struct FuzzWorkspace {
    /// The directory holding `Fuzz/Package.swift`, or nil when none was found.
    var packageRoot: String?
    var corpus: FuzzCorpus

    /// `--corpus DIR`, else `$STC_CORPUS`, else `<package>/corpus`, else `./corpus`. The package is `--package DIR`
    /// or the nearest directory at or above the current one that holds `Fuzz/Package.swift`.
    static func resolve(corpus corpusOption: String?, package packageOption: String?) -> FuzzWorkspace {
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        var root: String? = packageOption.map { absolute($0, in: cwd) }
        if root == nil {
            var dir = cwd
            while true {
                if fm.fileExists(atPath: (dir as NSString).appendingPathComponent("Fuzz/Package.swift")) {
                    root = dir
                    break
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir || parent.isEmpty { break }
                dir = parent
            }
        }
        let corpusRoot: String
        if let corpusOption {
            corpusRoot = absolute(corpusOption, in: cwd)
        } else if let env = ProcessInfo.processInfo.environment["STC_CORPUS"], !env.isEmpty {
            corpusRoot = absolute(env, in: cwd)
        } else if let root {
            corpusRoot = (root as NSString).appendingPathComponent("corpus")
        } else {
            corpusRoot = (cwd as NSString).appendingPathComponent("corpus")
        }
        return FuzzWorkspace(packageRoot: root, corpus: FuzzCorpus(root: corpusRoot))
    }

    static func absolute(_ path: String, in cwd: String) -> String {
        let full = path.hasPrefix("/") ? path : (cwd as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }

    func requirePackage() throws -> String {
        guard let packageRoot else {
            throw CommandFailure("cannot find Fuzz/Package.swift in or above the current directory (run from the repository, or pass --package DIR)")
        }
        return packageRoot
    }

    func fuzzPackage() throws -> String { (try requirePackage() as NSString).appendingPathComponent("Fuzz") }

    func binary(_ target: String) throws -> String { (try fuzzPackage() as NSString).appendingPathComponent(".build/release/\(target)") }

    func hasShim(_ target: String) throws -> Bool {
        FileManager.default.fileExists(atPath: (try fuzzPackage() as NSString).appendingPathComponent("Sources/\(target)"))
    }

    /// `<package>/.build/<kind>/<target>`, created: fuzzing output that never goes into the checked-in corpus.
    func scratch(_ kind: String, _ target: String) throws -> String {
        let dir = (try requirePackage() as NSString).appendingPathComponent(".build/\(kind)/\(target)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// The libFuzzer settings of a fuzzing run that are not the target's own (its `-max_len` is ``FuzzTarget/maxLength``).
enum FuzzDefaults {
    /// `-timeout` in seconds: every target is linear, so anything this slow is a bug.
    static let timeout = 5

    /// The libFuzzer flags of a fuzzing run (`stc fuzz run`, and `stc bench`'s fuzz figures): the input size, the
    /// timeout, and the dictionary when there is one.
    static func flags(maxLen: Int, dictionary: String) -> [String] {
        ["-max_len=\(maxLen)", "-timeout=\(timeout)"]
            + (FileManager.default.fileExists(atPath: dictionary) ? ["-dict=\(dictionary)"] : [])
    }
}

/// Child processes: the Fuzz build and the fuzzer binaries.
enum FuzzProcess {
    struct Output {
        var status: Int32
        var crashedBySignal: Bool
        var text: String
    }

    /// The environment for fuzzer binaries: Swift's backtracer off, or traps look like ASan reports and
    /// libFuzzer never writes the crashing input.
    ///
    /// `throughput`: the ASan options for fuzzing (not for replaying a crash), ``throughputASanDefaults``.
    static func fuzzerEnvironment(throughput: Bool = false) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        if throughput { env["ASAN_OPTIONS"] = throughputASanOptions(env["ASAN_OPTIONS"]) }
        return env
    }

    /// ASan options `stc fuzz run` adds (each unless the user's `ASAN_OPTIONS` sets it). Neither changes what
    /// ASan detects here:
    /// - `malloc_context_size=0`: no stack recorded at each malloc and free (stack depot and unwinder showed up
    ///   in profiles). Only a heap report's "allocated by"/"freed by" stacks are missing, and
    ///   `stc fuzz replay T FILE --binary` (default options) shows them.
    /// - `quarantine_size_mb=16` (default 256): freed memory waits in a smaller FIFO before reuse, so the
    ///   allocator keeps touching warm memory instead of faulting in fresh pages. An execution here frees
    ///   kilobytes, so 16 MB still holds the frees of thousands of executions: a use after free within an
    ///   execution is caught as before. Smaller queues gave nothing that held (docs/PERFORMANCE.md#decisions).
    static let throughputASanDefaults = [("malloc_context_size", "0"), ("quarantine_size_mb", "16")]

    /// The user's `ASAN_OPTIONS` with each of ``throughputASanDefaults`` added that they do not set themselves.
    static func throughputASanOptions(_ user: String?) -> String {
        let given = (user ?? "").split(whereSeparator: { $0 == ":" || $0 == "," || $0 == " " }).map(String.init)
        let added = throughputASanDefaults.filter { name, _ in !given.contains { $0.hasPrefix(name + "=") } }
        return (given + added.map { "\($0)=\($1)" }).joined(separator: ":")
    }

    /// Runs `executable` with `arguments`; stdout and stderr are merged and passed line by line to `onLine`
    /// (and collected, up to `keep` bytes from the end).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, keep: Int = 1 << 20, onLine: (String) -> Void = { _ in }
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        var pending: [UInt8] = []
        var collected: [UInt8] = []
        func emit(_ line: ArraySlice<UInt8>) {
            onLine(String(decoding: line, as: UTF8.self))
        }
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            collected.append(contentsOf: data)
            if collected.count > keep * 2 { collected.removeFirst(collected.count - keep) }
            pending.append(contentsOf: data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { emit(pending[...]) }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, crashedBySignal: process.terminationReason == .uncaughtSignal,
            text: String(decoding: collected.suffix(keep), as: UTF8.self))
    }

    /// Runs `executable` to the end with its standard output and standard error kept apart (for a command whose
    /// output is read, such as `swift package dump-package`).
    static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error on another thread, so that neither pipe can fill up and block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](outData), String(decoding: errData, as: UTF8.self))
    }

    /// `swift` on the PATH (SwiftPM itself).
    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Building and checking the libFuzzer binaries.
enum FuzzBuild {
    /// The fuzz build: ASan everywhere (`--sanitize=address`), libFuzzer's coverage instrumentation on the code
    /// under test (``environment``: the root Package.swift then gives it to the modules its table marks), libFuzzer
    /// linked by Fuzz/Package.swift, with ``asanCallbacks``.
    static func arguments(fuzzPackage: String, product: String?, manifestCache: Bool = true) -> [String] {
        var args = ["build", "-c", "release", "--sanitize=address"] + asanCallbacks + ["--package-path", fuzzPackage]
        if !manifestCache { args += ["--manifest-cache", "none"] }
        if let product { args += ["--product", product] }
        return args
    }

    /// What the fuzz build sets for the manifests: coverage for the code under test, not for the generators,
    /// properties and checks around it. libFuzzer's work after each execution grows with the edges an input hits,
    /// so edges of test code cost executions and lead nowhere (docs/PERFORMANCE.md#decisions).
    static let coverageVariable = (name: "SCREENTIME_FUZZ_COVERAGE", value: "1")

    /// The environment of the `swift build` child: ours plus ``coverageVariable``.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[coverageVariable.name] = coverageVariable.value
        return environment
    }

    /// A build with these `swift` arguments as one shell command, the variable included (for the log and messages).
    static func commandLine(_ arguments: [String]) -> String {
        "\(coverageVariable.name)=\(coverageVariable.value) swift " + arguments.map(shellQuote).joined(separator: " ")
    }

    /// ASan checks each memory access through a call into its runtime instead of an inline shadow test. Swift runs
    /// the coverage pass after ASan, so an inline test becomes a coverage counter of its own (half the counters of a
    /// binary) and, while the fuzz build traced comparisons, was a traced comparison too
    /// (`__sanitizer_cov_trace_const_cmp1`, a call into libFuzzer that learns nothing from a shadow byte). The same
    /// checks, so the same bugs are found, in more executions per second (docs/PERFORMANCE.md#decisions).
    static let asanCallbacks = ["-Xswiftc", "-Xllvm", "-Xswiftc", "-asan-instrumentation-with-call-threshold=0"]

    /// What SwiftPM says when its cached manifest or build plan predates a shim directory added to Fuzz/Sources:
    /// `Fuzz/Package.swift` lists the directory when it is evaluated, but SwiftPM reuses the cached evaluation.
    static let stalePlanMessages = ["no product named", "in build description"]

    /// The cached build plan of the Fuzz package (SwiftPM makes both again).
    static func cachedPlanFiles(fuzzPackage: String) -> [String] {
        [fuzzPackage + "/.build/release.yaml", fuzzPackage + "/.build/release/description.json"]
    }

    /// SwiftPM's directory name for this machine's builds (`Fuzz/.build/<triple>/release`).
    static var hostTriple: String {
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "aarch64"
        #else
            let arch = "unknown"
        #endif
        #if os(Linux)
            return arch + "-unknown-linux-gnu"
        #else
            return (arch == "aarch64" ? "arm64" : arch) + "-apple-macosx"
        #endif
    }

    /// Where stc keeps the record of its last successful fuzz build (``stamp(root:manifest:)``).
    static func sourceStamp(fuzzPackage: String) -> String { fuzzPackage + "/.build/stc-sources" }

    /// The record of a fuzz build: first the flags (the build command's and each module's, from the manifest), then
    /// after a `sources:` line the Swift files it compiles (the root package's `Sources` and `Fuzz/Sources`), one
    /// path a line, sorted. SwiftPM notices neither: its cached plan of the Fuzz package does not see a file added
    /// to its path dependency (the build then fails on whatever the new file declares), and it does not recompile
    /// objects whose module flags changed in the manifest. So a new source list clears the plan, and new flags
    /// remove the release build too.
    static func stamp(root: String, manifest: FuzzManifest) -> String {
        var paths: [String] = []
        for directory in ["Sources", "Fuzz/Sources"] {
            let base = (root as NSString).appendingPathComponent(directory)
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? []
            paths += files.filter { $0.hasSuffix(".swift") }.map { directory + "/" + $0 }
        }
        let flags = ["build: " + commandLine(arguments(fuzzPackage: "Fuzz", product: nil))] + manifest.stampLines
        return (flags + ["sources:"] + paths.sorted()).joined(separator: "\n") + "\n"
    }

    /// The flags part of a stamp: everything before its `sources:` line.
    static func flagsPart(of stamp: String) -> Substring {
        stamp.range(of: "\nsources:\n").map { stamp[..<$0.lowerBound] } ?? stamp[...]
    }

    /// Builds `targets` (all when nil), printing the command; throws with the build's tail on failure. When the
    /// package's source files changed since stc's last fuzz build, SwiftPM's cached plan is cleared first; a
    /// build that still fails because the caches do not know a new target is retried once without them.
    static func build(_ workspace: FuzzWorkspace, targets: [String]?) throws {
        guard let swift = FuzzProcess.which("swift") else { throw CommandFailure("`swift` is not on the PATH") }
        let fuzz = try workspace.fuzzPackage()
        let root = try workspace.requirePackage()
        let sources = stamp(root: root, manifest: try FuzzManifest.read(root: root, swift: swift))
        let stampFile = sourceStamp(fuzzPackage: fuzz)
        var planIsStale = false
        if let last = try? String(contentsOfFile: stampFile, encoding: .utf8), last != sources {
            if flagsPart(of: last) != flagsPart(of: sources) {
                // SwiftPM keeps objects compiled without an `-Xllvm` option that is now given: compile afresh.
                Console.error("stc: the fuzz build flags changed since the last fuzz build; removing its release build to compile everything again")
                try? FileManager.default.removeItem(atPath: fuzz + "/.build/release")
                try? FileManager.default.removeItem(atPath: fuzz + "/.build/\(hostTriple)/release")
            } else {
                Console.error("stc: source files were added or removed since the last fuzz build; clearing SwiftPM's cached plan (it does not see new files in a path dependency)")
            }
            for file in cachedPlanFiles(fuzzPackage: fuzz) { try? FileManager.default.removeItem(atPath: file) }
            planIsStale = true
        }
        for product in targets.map({ $0.map(Optional.some) }) ?? [nil] {
            let started = Date()
            var output = try buildOnce(swift, arguments(fuzzPackage: fuzz, product: product, manifestCache: !planIsStale))
            if output.status != 0, stalePlanMessages.contains(where: output.text.contains) {
                Console.error("stc: SwiftPM's cached manifest or build plan predates a target in Fuzz/Sources; clearing it and building again")
                for file in cachedPlanFiles(fuzzPackage: fuzz) { try? FileManager.default.removeItem(atPath: file) }
                output = try buildOnce(swift, arguments(fuzzPackage: fuzz, product: product, manifestCache: false))
            }
            if output.status != 0 {
                let tail = output.text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
                throw CommandFailure("the fuzz build failed (exit \(output.status)):\n\(tail)")
            }
            Console.error(String(format: "  built in %.0f s", Date().timeIntervalSince(started)))
        }
        try? Data(sources.utf8).write(to: URL(fileURLWithPath: stampFile), options: .atomic)
    }

    private static func buildOnce(_ swift: String, _ args: [String]) throws -> FuzzProcess.Output {
        Console.error("$ " + commandLine(args))
        return try FuzzProcess.run(swift, args, environment: environment) { line in
            if line.contains("error:") || line.hasPrefix("Compiling") || line.hasPrefix("Build complete") || line.contains("Linking") {
                Console.error("  " + line)
            }
        }
    }

    /// Builds unless `skip` is set and every binary exists.
    static func ensure(_ workspace: FuzzWorkspace, targets: [String], skip: Bool, allTargets: Bool = false) throws {
        for target in targets where !(try workspace.hasShim(target)) {
            throw CommandFailure("no libFuzzer shim for '\(target)' in Fuzz/Sources/\(target) (see Fuzz/README.md, 'Adding a target')")
        }
        if skip, try targets.allSatisfy({ FileManager.default.isExecutableFile(atPath: try workspace.binary($0)) }) { return }
        try build(workspace, targets: allTargets ? nil : targets)
    }

    /// Runs the binary on an empty corpus and reads libFuzzer's banner: an instrumented binary reports
    /// `INFO: Loaded 1 modules (N inline 8-bit counters)` with N > 0. Returns N.
    static func checkInstrumented(_ binary: String) throws -> Int {
        let empty = NSTemporaryDirectory() + "stc-fuzz-empty-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let output = try FuzzProcess.run(binary, ["-runs=0", empty], environment: FuzzProcess.fuzzerEnvironment())
        for line in output.text.split(separator: "\n") where line.hasPrefix("INFO: Loaded ") && line.contains("inline 8-bit counters") {
            // INFO: Loaded 1 modules   (12345 inline 8-bit counters): 12345 [0x…, 0x…),
            if let open = line.firstIndex(of: "(") {
                let digits = line[line.index(after: open)...].prefix { $0.isNumber }
                if let n = Int(digits), n > 0 { return n }
            }
        }
        throw CommandFailure(
            "\(binary) is not an instrumented libFuzzer binary (no 'INFO: Loaded 1 modules (N inline 8-bit counters)' with N > 0); rebuild with: "
                + commandLine(arguments(fuzzPackage: "Fuzz", product: nil)))
    }
}

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
        return "\(execsPerSecond.count) jobs: \(executions.reduce(0, +)) executions, \(execsPerSecond.reduce(0, +)) exec/s in all (per job: \(perJob))"
    }

    mutating func line(_ line: String) {
        if let range = line.range(of: "Test unit written to ") {
            artifacts.append(String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        for (prefix, isRate) in [("stat::number_of_executed_units:", false), ("stat::average_exec_per_sec:", true)] where line.hasPrefix(prefix) {
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
                    Console.error("(libFuzzer recommended \(dictionaryEntries) dictionary entries; --verbose shows them)")
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

/// Prints which input was running if a harness body traps during an in-process replay.
enum CrashNote {
    nonisolated(unsafe) private static var note: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var installed = false

    static func set(_ text: String) {
        if !installed {
            installed = true
            for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
                signal(sig, crashNoteHandler)
            }
        }
        let old = note
        note = strdup(text)
        free(old)
    }

    fileprivate static func write(_ sig: Int32) {
        guard let note else { return }
        _ = Glibc_or_Darwin_write(2, note, strlen(note))
    }
}

private func Glibc_or_Darwin_write(_ fd: Int32, _ p: UnsafePointer<CChar>, _ n: Int) -> Int {
    write(fd, p, n)
}

private func crashNoteHandler(_ sig: Int32) {
    CrashNote.write(sig)
    signal(sig, SIG_DFL)
    raise(sig)
}

func shellQuote(_ s: String) -> String {
    if !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// A path relative to the current directory when it is inside it (for commands people copy).
func displayPath(_ path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
    return path
}
