import Foundation
import Testing
import _CommandSupport
import _FuzzCorpus

@testable import stc

/// `stc fuzz`, run as a user would. Nothing here builds or runs libFuzzer (that is scripts/ci-fuzz.sh and
/// scripts/demo-planted-bug.sh); these check the in-process workflow, the messages and the exit codes.
@Suite struct FuzzCommandTests {
    static let subcommands = ["list", "build", "modules", "run", "replay", "add", "merge", "coverage", "campaign"]

    static func temporaryCorpus(copying targets: [String] = []) throws -> URL {
        let root = TemporaryDirectory.make("stc-fuzz-tests")
        for target in targets {
            try FileManager.default.copyItem(
                at: StcBinary.packageRoot.appendingPathComponent("corpus/\(target)"),
                to: root.appendingPathComponent(target))
        }
        return root
    }

    @Test func listsEveryTargetAsNameTabSummary() throws {
        let run = try StcBinary.run(["fuzz", "list"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        let names = lines.map { $0.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? "" }
        for name in [
            "selection-decode", "selection-json", "selection-differential", "selection-plist", "url", "template",
            "activity-timeline", "activity-calendar", "shield", "auth", "settings",
        ] {
            #expect(names.contains(name), "\(name) missing from \(run.stdout)")
        }
        #expect(lines.allSatisfy { $0.split(separator: "\t").count == 2 })
    }

    @Test(arguments: [["run", "nope"], ["add", "nope", "/dev/null"], ["merge", "nope"], ["replay", "nope"]])
    func anUnknownTargetExitsTwoWithTheList(arguments: [String]) throws {
        let run = try StcBinary.run(["fuzz"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains("selection-decode") && run.stderr.contains("template"), "\(run.stderr)")
    }

    @Test(arguments: subcommands)
    func everySubcommandHasHelp(subcommand: String) throws {
        let run = try StcBinary.run(["fuzz", subcommand, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("stc fuzz \(subcommand): "))
        #expect(run.stdout.contains("\n\nUsage: stc fuzz \(subcommand)"))
    }

    /// A package whose `Fuzz/.build/release/url` is a shell script standing in for a libFuzzer binary: it prints
    /// the instrumentation banner and the ASan options it was given.
    static func packageWithStandInFuzzer() throws -> URL {
        let root = TemporaryDirectory.make("stc-fuzz-standin")
        let release = root.appendingPathComponent("Fuzz/.build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try Data("// stand-in\n".utf8).write(to: root.appendingPathComponent("Fuzz/Package.swift"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Fuzz/Sources/url"), withIntermediateDirectories: true)
        let script = release.appendingPathComponent("url")
        try Data(
            """
            #!/bin/sh
            echo 'INFO: Loaded 1 modules   (7 inline 8-bit counters): 7 [0x1, 0x8),' >&2
            echo "stand-in ASAN_OPTIONS=[$ASAN_OPTIONS] SWIFT_BACKTRACE=[$SWIFT_BACKTRACE]" >&2
            # libFuzzer with -jobs=N prints each job's log, final stats included, when the job ends.
            case " $* " in *" -jobs=2 "*)
              printf '#100\tDONE   cov: 120 ft: 400 corp: 31/1Kb lim: 512 exec/s: 20 rss: 50Mb\n' >&2
              printf 'stat::number_of_executed_units: 100\nstat::average_exec_per_sec:     20\n' >&2
              printf '#200\tDONE   cov: 118 ft: 410 corp: 33/1Kb lim: 512 exec/s: 30 rss: 50Mb\n' >&2
              printf 'stat::number_of_executed_units: 200\nstat::average_exec_per_sec:     30\n' >&2 ;;
            esac
            exit 0

            """.utf8
        ).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return root
    }

    /// `stc fuzz campaign` with the stand-in fuzzer: a ledger and a report; a second campaign on the same ledger is
    /// refused; `--resume` of a spent budget says so. The stand-in uses almost no CPU, so the campaign, which
    /// stops only once a target has used its whole budget, suspends it after three slices as a fuzzer that does
    /// not run, and says so.
    @Test func aCampaignWritesItsLedgerAndReportsIt() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let ledger = corpus.appendingPathComponent("CAMPAIGN.json").path
        let common = ["--no-build", "--package", package.path, "--corpus", corpus.path]
        let run = try StcBinary.run(["fuzz", "campaign", "url", "--budget", "1s", "--slice", "30s"] + common)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("campaign: url: slice 1, 0 CPU s, 0 executions"), "\(run.stderr)")
        #expect(run.stdout.contains("budget: 1 CPU s in all, slices of 30 s, 1 job(s)"), "\(run.stdout)")
        #expect(
            run.stdout.contains("the targets with budget left are suspended (url: 3 slices in a row used no CPU"),
            "\(run.stdout)")
        var written = try CampaignLedger.load(ledger)
        #expect(written.order == ["url"] && written.targets["url"]?.slices.count == FuzzCampaign.suspendAfter)
        #expect(written.targets["url"]?.slices.first?.commit.isEmpty == false)

        let again = try StcBinary.run(["fuzz", "campaign", "url", "--budget", "1s"] + common)
        #expect(again.status == 2 && again.stderr.contains("exists: go on with it (--resume)"), "\(again.stderr)")
        // As if its first slice had used the budget (a real fuzzer would have).
        written.targets["url"]?.slices[0].cpuSeconds = 1.2
        try written.save(ledger)
        let resumed = try StcBinary.run(["fuzz", "campaign", "--resume"] + common)
        #expect(resumed.status == 0 && resumed.stdout.contains("the campaign's budget is spent"), "\(resumed.stdout)")
        let report = try StcBinary.run(["fuzz", "campaign", "--report", "--markdown", "--corpus", corpus.path])
        #expect(report.status == 0 && report.stdout.contains("| url | 1 |"), "\(report.stdout)")
        let mixed = try StcBinary.run(["fuzz", "campaign", "--resume", "--budget", "2h"] + common)
        #expect(mixed.status == 2 && mixed.stderr.contains("it takes no --budget"), "\(mixed.stderr)")
    }

    /// A stand-in fuzzer whose every slice times out on one input: the campaign keys the timeout by the stack its
    /// input shows when run alone with the slices' `-timeout` (libFuzzer's own default would hold it 20 minutes),
    /// saves it once, and suspends the target after three slices; it then says what to do, and exits 1.
    @Test func aTimeoutIsKeyedByItsStackRunWithTheSlicesTimeout() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let log = package.appendingPathComponent("stand-in.log").path
        try Self.replaceStandIn(
            in: package,
            with:
                """
                case " $* " in
                  *" -max_total_time="*) printf slow > "${prefix}timeout-0123"; exit 70 ;;
                  *" -help=1 "*|*"merge="*) exit 0 ;;
                esac
                echo "$*" >> '\(log)'
                echo '==1== ERROR: libFuzzer: timeout after 5 seconds' >&2
                echo '    #0 0x55 in slowFunction /src/x.swift:1' >&2
                echo '    #1 0x56 in LLVMFuzzerTestOneInput /src/y.swift:2' >&2
                echo 'SUMMARY: libFuzzer: timeout' >&2
                exit 70
                """)
        let (run, ledgerURL) = try Self.campaignOnURL(package, corpus, ["--budget", "5s"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let url = try #require(ledgerURL)
        #expect(url.crashes.map(\.stack) == ["timeout: slowFunction"] && url.crashes.first?.occurrences == 3)
        #expect(
            url.crashes.first?.file
                == "\(corpus.lastPathComponent)/url/regressions/\(FuzzCorpus.contentName(Array("slow".utf8)))")
        #expect(
            url.suspended?.hasPrefix("crashed in 3 slices in a row, on known stacks: timeout: slowFunction") == true)
        #expect(run.stdout.contains("the targets with budget left are suspended"), "\(run.stdout)")
        // The runs of one input alone (the instrumentation check ran the binary on an empty directory before).
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasPrefix("-runs=0 ")
        }
        #expect(runs.count == 3 && runs.allSatisfy { $0.hasPrefix("-timeout=5 ") }, "\(runs)")
        // Each slice's artifact, the same input every time, is where `stc fuzz run` leaves artifacts.
        let artifacts = package.appendingPathComponent(".build/fuzz-artifacts/url")
        #expect(try FileManager.default.contentsOfDirectory(atPath: artifacts.path) == ["timeout-0123"])
    }

    /// A stand-in whose slices time out on an input that, run alone, ends in time (a fuzzer held past its wall-time
    /// `-timeout` by a busy machine): no regression is saved, the target is not suspended for a crash, the
    /// campaign exits 0, and each slice records the timeout as one that did not recur.
    @Test func aTimeoutThatDoesNotRecurAloneIsCountedNotSaved() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        try Self.replaceStandIn(
            in: package,
            with:
                """
                case " $* " in
                  *" -max_total_time="*) printf slow > "${prefix}timeout-0123"; exit 70 ;;
                esac
                exit 0
                """)
        let (run, ledgerURL) = try Self.campaignOnURL(package, corpus, ["--budget", "1s"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("1 timeout(s) that did not recur alone"), "\(run.stderr)")
        let url = try #require(ledgerURL)
        #expect(url.crashes.isEmpty && url.slices.allSatisfy { $0.crashes.isEmpty && $0.unreproducedTimeouts == 1 })
        #expect(!FileManager.default.fileExists(atPath: corpus.appendingPathComponent("url/regressions").path))
        // The stand-in uses no CPU, so the target is suspended as a fuzzer that does not run, not for a crash.
        #expect(url.suspended?.contains("used no CPU") == true, "\(url.suspended ?? "not suspended")")
    }

    /// SIGTERM to stc in the middle of a slice: the fuzzer gets SIGINT, the slice is recorded as interrupted even
    /// when the fuzzer then exits 0 (libFuzzer's parent with -jobs does), and stc says how to go on. The stand-in
    /// sends the SIGTERM itself, to its parent, once it is running.
    @Test func aCampaignStoppedBySIGTERMRecordsItsSliceAsInterrupted() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        try Self.replaceStandIn(
            in: package,
            with:
                """
                case " $* " in
                  *" -max_total_time="*)
                    trap 'exit 0' INT
                    kill -TERM $PPID
                    sleep 20 &
                    wait $!
                    exit 0 ;;
                esac
                exit 0
                """)
        let (run, ledgerURL) = try Self.campaignOnURL(
            package, corpus, ["--budget", "1h", "--jobs", "2"], timeLimit: 60)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("stopped; go on with: stc fuzz campaign --resume"), "\(run.stdout)")
        let url = try #require(ledgerURL)
        #expect(url.slices.count == 1 && url.slices.first?.interrupted == true, "\(url.slices)")
        #expect((url.slices.first?.wallSeconds ?? 20) < 15)
    }

    /// A crash's key is its kind and its first three frames that are ours: not the allocator's, the runtime's, the
    /// standard library's or libFuzzer's (a leak's report starts in the allocator, the key must not).
    @Test func aCrashIsKeyedByItsFirstFramesThatAreOurs() {
        let leak = [
            "==1==ERROR: LeakSanitizer: detected memory leaks",
            "Direct leak of 17 byte(s) in 1 object(s) allocated from:",
            "    #0 0x5 in posix_memalign /llvm/compiler-rt/lib/asan/asan_malloc_linux.cpp:139:3",
            "    #1 0x7 in swift_slowAlloc (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fa93) (BuildId: b5)",
            "    #2 0x5 in $sSp8allocate8capacitySpyxGSi_tFZs5UInt8V_Tt0g5 /<compiler-generated>",
            "    #3 0x5 in $s4json12fuzzOneInputys5Int32VSPys5UInt8VGSg_SitF /src/Fuzz/Sources/json/JSON.swift:11:48",
            "    #4 0x5 in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) /llvm/FuzzerLoop.cpp:619",
            "    #5 0x5 in $s4json13LibFuzzerMainO4mainyyFZ /src/Fuzz/Sources/json/JSON.swift:22:30",
            "SUMMARY: AddressSanitizer: 17 byte(s) leaked in 1 allocation(s).",
        ]
        #expect(
            LibFuzzerSliceRunner.stackKey(leak, kind: "leak")
                == "leak: $s4json12fuzzOneInputys5Int32VSPys5UInt8VGSg_SitF < $s4json13LibFuzzerMainO4mainyyFZ")
        let new = [
            "    #0 0x1 in operator new(unsigned long) /llvm/compiler-rt/lib/asan/asan_new_delete.cpp:95:3",
            "    #1 0x2 in $ss17_assertionFailure_4file4line5flagss5NeverOs12StaticStringV_A2HSus6UInt32VtF /x",
            "    #2 0x3 in $s3Lib1fyyF /src/Lib.swift:1", "    #3 0x4 in $s3Lib1gyyF /src/Lib.swift:2",
            "    #4 0x5 in $s3Lib1hyyF /src/Lib.swift:3", "    #5 0x6 in $s3Lib1iyyF /src/Lib.swift:4",
        ]
        #expect(LibFuzzerSliceRunner.stackKey(new, kind: "crash") == "crash: $s3Lib1fyyF < $s3Lib1gyyF < $s3Lib1hyyF")
        #expect(
            LibFuzzerSliceRunner.stackKey(
                ["==1== ERROR: libFuzzer: timeout", "SUMMARY: libFuzzer: timeout"], kind: "timeout")
                == "timeout: SUMMARY: libFuzzer: timeout")
        #expect(LibFuzzerSliceRunner.stackKey([], kind: "oom") == "oom: no stack")
        // A broken invariant: every one has the harness's abort for a stack, so the invariant is the key.
        let invariant = [
            "invariant failed in activity-calendar: ComponentPattern.firstMatch equals Calendar.nextDate(.nextTime)",
            "  {hour: 3, minute: 3} after 2026-09-25T20:00:10Z in Pacific/Chatham: ours …, Foundation …",
            "==1== ERROR: libFuzzer: deadly signal",
            "    #4 0x1 in __pthread_kill_implementation nptl/./nptl/pthread_kill.c:43:17",
            "    #7 0x2 in $s9_FuzzCore0A6TargetV14libFuzzerEntryys5Int32VSPys5UInt8VGSg_SitF /x/FuzzTarget.swift:87",
        ]
        #expect(
            LibFuzzerSliceRunner.stackKey(invariant, kind: "crash")
                == "crash: invariant ComponentPattern.firstMatch equals Calendar.nextDate(.nextTime)")
    }

    /// A slice's stats: executions summed over the jobs, coverage at the start (INITED) and at the end, also when an
    /// interrupted job printed no DONE line.
    @Test func aSlicesStatsAddUpTheJobsAndSurviveAnInterruption() {
        var stats = SliceStats()
        for line in [
            "#2\tINITED cov: 100 ft: 200 corp: 9/1Kb exec/s: 0 rss: 40Mb",
            "#4096\tpulse  cov: 120 ft: 260 corp: 12/2Kb lim: 512 exec/s: 2048 rss: 41Mb",
            "#9000\tNEW    cov: 125 ft: 270 corp: 13/2Kb lim: 512 exec/s: 3000 rss: 41Mb L: 5/5 MS: 1 ChangeBit-",
            "stat::number_of_executed_units: 9000",
            "#2\tINITED cov: 101 ft: 201 corp: 9/1Kb exec/s: 0 rss: 40Mb",
            "#7000\tDONE   cov: 123 ft: 280 corp: 14/2Kb lim: 512 exec/s: 2333 rss: 42Mb",
            "stat::number_of_executed_units: 7000",
        ] {
            stats.read(line)
        }
        #expect(stats.executions == 16_000)
        #expect(stats.covStart == 101 && stats.covEnd == 125 && stats.ftEnd == 280)
    }

    /// The commit a campaign's slices record has `+` when the code has changes, not when only the corpus and the
    /// ledger, which the campaign writes itself, do.
    @Test func aCampaignsCommitIsCleanWhenOnlyTheCorpusChanged() throws {
        let root = TemporaryDirectory.make("stc-campaign-commit")
        defer { TemporaryDirectory.remove(root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["git", "-C", root.path, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try write("Fuzz/Package.swift", "")
        try write("Sources/Lib/Lib.swift", "let a = 1\n")
        try write("corpus/url/seed", "a")
        try write("corpus/CAMPAIGN.json", "{}\n")
        try git("init", "-q")
        try git("add", ".")
        try git("commit", "-q", "-m", "start")
        let ws = FuzzWorkspace.resolve(corpus: nil, package: root.path)
        let clean = FuzzCampaignCommand.commit(ws)
        #expect(clean.count >= 7 && !clean.hasSuffix("+"), "\(clean)")
        try write("corpus/url/seed", "b")
        try write("corpus/CAMPAIGN.json", "{\"schema\": 1}\n")
        #expect(FuzzCampaignCommand.commit(ws) == clean)
        try write("Sources/Lib/Lib.swift", "let a = 2\n")
        #expect(FuzzCampaignCommand.commit(ws) == clean + "+")
    }

    @Test func aCampaignDurationReadsUnits() throws {
        #expect(try FuzzCampaignCommand.duration("90", option: "--budget") == 90)
        #expect(try FuzzCampaignCommand.duration("45m", option: "--budget") == 2700)
        #expect(try FuzzCampaignCommand.duration("1h30m", option: "--budget") == 5400)
        #expect(throws: UsageError.self) { try FuzzCampaignCommand.duration("1h30", option: "--budget") }
        #expect(throws: UsageError.self) { try FuzzCampaignCommand.duration("h", option: "--budget") }
        #expect(throws: UsageError.self) { try FuzzCampaignCommand.duration("0s", option: "--budget") }
    }

    @Test func runAddsThroughputASanOptionsTheUserDidNotSet() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let common = [
            "fuzz", "run", "url", "--no-build", "--verbose", "--time", "1", "--package", package.path, "--corpus",
            corpus.path,
        ]

        let plain = try StcBinary.run(common, environment: ["ASAN_OPTIONS": nil])
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        let defaults = "malloc_context_size=2:quarantine_size_mb=16"
        #expect(
            plain.stderr.contains("stand-in ASAN_OPTIONS=[\(defaults)] SWIFT_BACKTRACE=[enable=no]"), "\(plain.stderr)")
        #expect(plain.stderr.contains("$ SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=\(defaults) "), "\(plain.stderr)")

        let other = try StcBinary.run(common, environment: ["ASAN_OPTIONS": "detect_leaks=0"])
        #expect(other.stderr.contains("stand-in ASAN_OPTIONS=[detect_leaks=0:\(defaults)]"), "\(other.stderr)")

        let own = try StcBinary.run(common, environment: ["ASAN_OPTIONS": "malloc_context_size=30"])
        #expect(
            own.stderr.contains("stand-in ASAN_OPTIONS=[malloc_context_size=30:quarantine_size_mb=16]"), "\(own.stderr)"
        )
    }

    @Test func aBinaryWithoutCountersIsRefusedWithTheBuildCommand() throws {
        // Like a fuzz build made with `--sanitize=address` but without SCREENTIME_FUZZ_COVERAGE=1: the binary runs,
        // prints no instrumentation banner, and stc says how to build it instead of fuzzing with it.
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: package.appendingPathComponent("Fuzz/.build/release/url"))
        let run = try StcBinary.run([
            "fuzz", "run", "url", "--no-build", "--time", "1", "--package", package.path, "--corpus", corpus.path,
        ])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("is not an instrumented libFuzzer binary"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "rebuild with: SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0 --package-path Fuzz"
            ), "\(run.stderr)")
    }

    /// A package with the stand-in fuzzer, and a scratch corpus holding `url`'s seeds (remove both afterwards).
    /// Replaces the stand-in fuzzer `url` of `package` with a shell script: libFuzzer's instrumentation line, the
    /// variable `prefix` set from `-artifact_prefix=`, then `body`.
    static func replaceStandIn(in package: URL, with body: String) throws {
        let script = """
            #!/bin/sh
            echo 'INFO: Loaded 1 modules   (7 inline 8-bit counters): 7 [0x1, 0x8),' >&2
            prefix=
            for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="${a#-artifact_prefix=}" ;; esac; done

            """
        try Data((script + body).utf8).write(to: package.appendingPathComponent("Fuzz/.build/release/url"))
    }

    /// `stc fuzz campaign url OPTIONS` on the stand-in workspace, and the ledger's `url` target after it.
    static func campaignOnURL(
        _ package: URL, _ corpus: URL, _ options: [String], timeLimit: Double = 600
    ) throws -> (run: StcBinary.Run, url: CampaignLedger.Target?) {
        let run = try StcBinary.run(
            ["fuzz", "campaign", "url"] + options + ["--no-build", "--package", package.path, "--corpus", corpus.path],
            timeLimit: timeLimit)
        let ledger = try? CampaignLedger.load(corpus.appendingPathComponent("CAMPAIGN.json").path)
        return (run, ledger?.targets["url"])
    }

    static func standInWorkspace() throws -> (package: URL, corpus: URL) {
        (try packageWithStandInFuzzer(), try temporaryCorpus(copying: ["url"]))
    }

    static func remove(_ directories: URL...) {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    /// Puts a stand-in `swift` in `<package>/bin`. Asked for `package … dump-package`, it prints
    /// `<package>/dump-package.json` (``standInManifest(flags:)``, which a test may rewrite) when
    /// SCREENTIME_FUZZ_COVERAGE=1 is set; anything else it appends to `<package>/calls`, then runs `script`.
    /// The package's stand-in fuzzer is moved to `<package>/built-url`, for the script to "build" by copying it
    /// back. Returns a PATH that finds the stand-in first, and the stand-in's location.
    static func standInSwift(in package: URL, script: String) throws -> (path: String, swift: URL) {
        try FileManager.default.moveItem(
            at: package.appendingPathComponent("Fuzz/.build/release/url"),
            to: package.appendingPathComponent("built-url"))
        try Data(standInManifest(flags: ["-Xllvm", "-asan-use-after-return=never"]).utf8)
            .write(to: package.appendingPathComponent("dump-package.json"))
        let bin = package.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let swift = bin.appendingPathComponent("swift")
        try Data(
            "#!/bin/sh\n\(standInDumpPackage(package))\necho \"swift $* [coverage=$SCREENTIME_FUZZ_COVERAGE]\" >> '\(package.path)/calls'\n\(script)\n"
                .utf8
        ).write(to: swift)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        return (bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), swift)
    }

    /// The stand-in `swift`'s answer to `dump-package`, as a shell snippet.
    static func standInDumpPackage(_ package: URL) -> String {
        """
        case " $* " in *" dump-package "*)
          [ "$SCREENTIME_FUZZ_COVERAGE" = 1 ] || { echo 'error: SCREENTIME_FUZZ_COVERAGE is not 1' >&2; exit 1; }
          cat '\(package.path)/dump-package.json'; exit 0 ;;
        esac
        """
    }

    /// What `swift package dump-package` prints for a package with one module, `Lib`, given these flags.
    static func standInManifest(flags: [String]) -> String {
        let quoted = flags.map { "\"\($0)\"" }.joined(separator: ", ")
        return
            #"{"name": "Stand-in", "targets": [{"name": "Lib", "type": "regular", "settings": [{"kind": {"unsafeFlags": {"_0": ["#
            + quoted + #"]}}, "tool": "swift"}]}, {"name": "LibTests", "type": "test", "settings": []}]}"#
    }

    @Test func aBuildThatFailsOnAStalePlanIsRetriedWithoutTheCaches() throws {
        // A stand-in `swift` first in PATH: like SwiftPM with a cached manifest that predates Fuzz/Sources/url, it
        // fails with "no product named" unless given --manifest-cache none; then it "builds" the stand-in fuzzer.
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let fuzzer = package.appendingPathComponent("Fuzz/.build/release/url")
        try Data("stale".utf8).write(to: package.appendingPathComponent("Fuzz/.build/release.yaml"))
        let (path, swift) = try Self.standInSwift(
            in: package,
            script: """
                [ -f '\(package.path)/stale' ] || { cp '\(package.path)/built-url' '\(fuzzer.path)'; echo 'Build complete!'; exit 0; }
                case " $* " in
                  *" --manifest-cache none "*) cp '\(package.path)/built-url' '\(fuzzer.path)'; echo 'Build complete!'; exit 0 ;;
                  *) echo "error: no product named 'url'"; exit 1 ;;
                esac
                """)
        // A first build records the stamp (it evaluates the manifests afresh, being the checkout's first); from then
        // on the stand-in answers like SwiftPM whose cache predates the target.
        let setup = try StcBinary.run(
            ["fuzz", "run", "url", "--time", "1", "--package", package.path, "--corpus", corpus.path],
            environment: ["PATH": path])
        #expect(setup.status == 0, "\(setup.stdout)\(setup.stderr)")
        try Data().write(to: package.appendingPathComponent("stale"))
        try FileManager.default.removeItem(at: package.appendingPathComponent("calls"))
        try Data("stale".utf8).write(to: package.appendingPathComponent("Fuzz/.build/release.yaml"))

        let run = try StcBinary.run(
            ["fuzz", "run", "url", "--time", "1", "--package", package.path, "--corpus", corpus.path],
            environment: ["PATH": path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("cached manifest or build plan predates a target"), "\(run.stderr)")
        let calls = try String(contentsOf: package.appendingPathComponent("calls"), encoding: .utf8).split(
            separator: "\n")
        #expect(calls.count == 2 && calls.last?.contains("--manifest-cache none") == true, "\(calls)")
        #expect(
            !FileManager.default.fileExists(atPath: package.appendingPathComponent("Fuzz/.build/release.yaml").path))

        // A build that fails for another reason is not retried.
        try FileManager.default.removeItem(at: fuzzer)
        try Data(
            "#!/bin/sh\n\(Self.standInDumpPackage(package))\necho \"swift $*\" >> '\(package.path)/calls2'\necho 'error: cannot find x in scope'\nexit 1\n"
                .utf8
        ).write(to: swift)
        let broken = try StcBinary.run(
            ["fuzz", "run", "url", "--time", "1", "--package", package.path, "--corpus", corpus.path],
            environment: ["PATH": path])
        #expect(broken.status == 2, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stderr.contains("the fuzz build failed"))
        let calls2 = try String(contentsOf: package.appendingPathComponent("calls2"), encoding: .utf8).split(
            separator: "\n")
        #expect(calls2.count == 1)
    }

    @Test func aSourceFileAddedSinceTheLastBuildClearsThePlanFirst() throws {
        // A stand-in `swift` that records its arguments and "builds" the stand-in fuzzer. SwiftPM's cached plan does
        // not see a file added to the root package; stc notices from its list of the last build's sources.
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let fuzzer = package.appendingPathComponent("Fuzz/.build/release/url")
        let plan = package.appendingPathComponent("Fuzz/.build/release.yaml")
        let sources = package.appendingPathComponent("Sources/Lib")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data("let a = 1\n".utf8).write(to: sources.appendingPathComponent("A.swift"))
        let (path, _) = try Self.standInSwift(
            in: package,
            script: """
                mkdir -p '\(fuzzer.deletingLastPathComponent().path)'
                cp '\(package.path)/built-url' '\(fuzzer.path)'; echo plan > '\(plan.path)'; echo 'Build complete!'; exit 0
                """)
        func build() throws -> (status: Int32, stderr: String, call: String) {
            let run = try StcBinary.run(
                ["fuzz", "run", "url", "--time", "1", "--package", package.path, "--corpus", corpus.path],
                environment: ["PATH": path])
            let calls = try String(contentsOf: package.appendingPathComponent("calls"), encoding: .utf8).split(
                separator: "\n")
            return (run.status, run.stderr, String(calls.last ?? ""))
        }

        let first = try build()
        #expect(first.status == 0, "\(first.stderr)")
        // The first build of a checkout evaluates the manifests afresh: a cache shared with other checkouts of the
        // same manifest text can predate a target of Fuzz/Sources.
        #expect(first.call.contains("--manifest-cache none"), "\(first.call)")
        // ASan everywhere, and coverage for the code under test only: the root manifest reads the variable.
        #expect(
            first.call.contains("build -c release --sanitize=address ") && !first.call.contains("sanitize=fuzzer"),
            "\(first.call)")
        #expect(first.call.hasSuffix("[coverage=1]"), "\(first.call)")
        #expect(
            first.stderr.contains("$ SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address"),
            "\(first.stderr)")
        let same = try build()  // nothing changed: the cached plan is used
        #expect(!same.call.contains("--manifest-cache none") && !same.stderr.contains("cached plan"), "\(same.stderr)")

        try Data("let b = 2\n".utf8).write(to: sources.appendingPathComponent("B.swift"))
        let added = try build()
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stderr.contains("source files were added or removed since the last fuzz build"), "\(added.stderr)")
        #expect(added.call.contains("--manifest-cache none"), "\(added.call)")
        let again = try build()  // the new list was recorded
        #expect(!again.call.contains("--manifest-cache none"), "\(again.call)")

        // The stamp records the build command and each module's flags as the manifest gives them.
        let stamp = package.appendingPathComponent("Fuzz/.build/stc-sources")
        let recorded = try String(contentsOf: stamp, encoding: .utf8)
        #expect(
            recorded.hasPrefix(
                "build: SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0 --package-path Fuzz\n"
                    + "module Lib: -Xllvm -asan-use-after-return=never\nsources:\n"),
            "\(recorded)")
        #expect(recorded.contains("\nSources/Lib/B.swift\n"), "\(recorded)")
        // The manifest gives a module other flags (SwiftPM would not recompile it): the release build is removed
        // and compiled afresh.
        try Data(Self.standInManifest(flags: ["-sanitize=address", "-sanitize-coverage=edge"]).utf8)
            .write(to: package.appendingPathComponent("dump-package.json"))
        let marker = package.appendingPathComponent("Fuzz/.build/release/old-object.o")
        try Data("o".utf8).write(to: marker)
        let reflagged = try build()
        #expect(reflagged.status == 0, "\(reflagged.stderr)")
        #expect(reflagged.stderr.contains("the fuzz build flags changed"), "\(reflagged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(reflagged.call.contains("-asan-instrumentation-with-call-threshold=0"), "\(reflagged.call)")
    }

    /// `stc fuzz modules` on this package: each module's name, whether a fuzz build gives it coverage, and whether
    /// it keeps ASan's fake stack frames, as the manifest says.
    static func fuzzModules() throws -> [(name: String, coverage: Bool, fakeFrames: Bool)] {
        let run = try StcBinary.run(["fuzz", "modules"])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return (
                fields[0], fields.count > 1 && fields[1] == "coverage", fields.count > 2 && fields[2] == "fake-frames"
            )
        }
    }

    /// ASan's stack-use-after-return check can only fire where a stack address outlives its call. The modules of
    /// this package that hand out stack addresses keep it in fuzz builds, and only they: a module that starts
    /// using one of these calls must be added to the manifest's list, and one that stops, taken off it.
    @Test func fakeStackFramesAreKeptExactlyWhereStackAddressesAreHandedOut() throws {
        let root = StcBinary.packageRoot
        let listed = try Self.fuzzModules().filter(\.fakeFrames).map(\.name).sorted()
        let calls = [
            "withUnsafeTemporaryAllocation", "withUnsafeBytes(of:", "withUnsafeMutableBytes(of:",
            "withUnsafePointer(to:", "withUnsafeMutablePointer(to:",
        ]
        let sources = root.appendingPathComponent("Sources")
        var using: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where !module.hasPrefix(".") {
            let directory = sources.appendingPathComponent(module)
            let files = (try FileManager.default.subpathsOfDirectory(atPath: directory.path)).filter {
                $0.hasSuffix(".swift")
            }
            let code = try files.flatMap { file in  // comments may name the calls
                try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                    .filter { !$0.drop { $0 == " " }.hasPrefix("//") }
            }
            if code.contains(where: { line in calls.contains(where: line.contains) }) { using.append(module) }
        }
        #expect(using.contains("ScreenTimeSelection"), "the scan found none of the calls: \(using)")
        #expect(
            listed == using,
            "modules that keep fake stack frames \(listed); modules that hand out stack addresses \(using)")
    }

    @Test func runWithJobsSumsWhatTheJobsDid() throws {
        let (package, corpus) = try Self.standInWorkspace()
        defer { Self.remove(package, corpus) }
        let common = [
            "fuzz", "run", "url", "--no-build", "--time", "1", "--package", package.path, "--corpus", corpus.path,
        ]
        let two = try StcBinary.run(common + ["--jobs", "2"])
        #expect(two.status == 0, "\(two.stdout)\(two.stderr)")
        #expect(
            two.stderr.contains(
                "summary: 2 jobs: 300 executions, 50 exec/s in all (per job: 20, 30); cov 120 ft 410 corp 33 "
                    + "(the most of any job); \(package.path)/.build/fuzz-corpus/url holds 0 inputs"),
            "\(two.stderr)")
        let one = try StcBinary.run(common)
        #expect(!one.stderr.contains(" jobs: "), "\(one.stderr)")
        #expect(one.stderr.contains("summary: \(package.path)/.build/fuzz-corpus/url holds 0 inputs"), "\(one.stderr)")
    }

    @Test func replaysTheCorpusInProcess() throws {
        let corpus = try Self.temporaryCorpus(copying: ["url", "template"])
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run(["fuzz", "replay", "url", "--corpus", corpus.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("url"))
        #expect(run.stdout.contains("all passed"))
        // A file is replayed by the target its directory names.
        let seed = corpus.appendingPathComponent("template/mustache").path
        let single = try StcBinary.run(["fuzz", "replay", seed, "--corpus", corpus.path])
        #expect(single.status == 0)
        #expect(single.stdout.contains("template") && single.stdout.contains("1 files: ok"), "\(single.stdout)")
    }

    /// `--as-fuzzer --repeat N`: the profiling workload. It runs and says how; `--binary` with either is refused.
    @Test func replaysAsTheFuzzerDoesAndRepeats() throws {
        let corpus = try Self.temporaryCorpus(copying: ["auth"])
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run(["fuzz", "replay", "auth", "--as-fuzzer", "--repeat", "3", "--corpus", corpus.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("inputs (3 times each, as libFuzzer runs them): all passed"), "\(run.stdout)")
        for bad in [
            ["--repeat", "0"], ["--repeat", "x"], ["--binary", "--as-fuzzer"], ["--binary", "--repeat", "2"],
        ] {
            let refused = try StcBinary.run(["fuzz", "replay", "auth", "--corpus", corpus.path] + bad)
            #expect(refused.status == 2, "\(bad): \(refused.stdout)\(refused.stderr)")
        }
    }

    @Test func addSavesByContentHashOnceAndSaysWhetherItFailsNow() throws {
        let corpus = try Self.temporaryCorpus(copying: ["url"])
        defer { try? FileManager.default.removeItem(at: corpus) }
        let input = corpus.appendingPathComponent("input")
        try Data("%E6%97".utf8).write(to: input)
        let first = try StcBinary.run(["fuzz", "add", "url", input.path, "--corpus", corpus.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("added "))
        #expect(first.stdout.contains("passes now (kept as a regression guard)"))
        let saved = try FileManager.default.contentsOfDirectory(
            atPath: corpus.appendingPathComponent("url/regressions").path)
        #expect(saved.count == 1)
        #expect(saved.first?.count == 16 && saved.first?.allSatisfy(\.isHexDigit) == true)

        let second = try StcBinary.run(["fuzz", "add", "url", input.path, "--corpus", corpus.path])
        #expect(second.status == 0)
        #expect(second.stdout.contains("already present"))

        let replay = try StcBinary.run(["fuzz", "replay", "url", "--corpus", corpus.path])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("1 regressions: ok"), "\(replay.stdout)")
    }

    @Test func theCorpusRootComesFromSTCCorpusWhenNotGiven() throws {
        let corpus = try Self.temporaryCorpus(copying: ["template"])
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run(
            ["fuzz", "add", "template", corpus.appendingPathComponent("template/mustache").path],
            environment: ["STC_CORPUS": corpus.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("passes now"))
        let saved = try FileManager.default.contentsOfDirectory(
            atPath: corpus.appendingPathComponent("template/regressions").path)
        #expect(saved.count == 1)  // in the STC_CORPUS root, not the repository's corpus/
    }

    @Test func anUnreadableInputFailsTheReplay() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let regressions = corpus.appendingPathComponent("url/regressions")
        try FileManager.default.createDirectory(at: regressions, withIntermediateDirectories: true)
        let file = regressions.appendingPathComponent("0000000000000000")
        try Data("x".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path) }
        // Running as root, the file is readable anyway.
        guard FileManager.default.contents(atPath: file.path) == nil else { return }
        let run = try StcBinary.run(["fuzz", "replay", "url", "--corpus", corpus.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL"))
    }

    @Test func unknownSubcommandsAndOptionsAreUsageErrors() throws {
        #expect(try StcBinary.run(["fuzz", "frobnicate"]).status == 2)
        #expect(try StcBinary.run(["fuzz", "replay", "--frobnicate"]).status == 2)
        #expect(try StcBinary.run(["fuzz"]).status == 2)
    }
}
