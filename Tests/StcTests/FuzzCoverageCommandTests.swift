import Foundation
import Testing

/// `stc fuzz coverage`, `stc fuzz build --coverage` and `--out`, `stc fuzz list --long` and the set-cover merge,
/// run as a user would, against stand-ins: a coverage build takes minutes and llvm-cov needs real profiles, so a
/// stand-in `swift`, coverage binary, llvm-profdata and llvm-cov record what stc asks of them. The real pipeline
/// runs in scripts/check-fuzz-build.sh.
@Suite struct FuzzCoverageCommandTests {
    /// A package with stand-ins for everything `stc fuzz coverage` runs, a corpus with `url`'s seeds, and the
    /// PATH that finds the stand-ins. Every stand-in appends what it was asked to `<package>/calls`.
    struct StandIn {
        var package: URL
        var corpus: URL
        var path: String
        var calls: [String] {
            ((try? String(contentsOf: package.appendingPathComponent("calls"), encoding: .utf8)) ?? "").split(
                separator: "\n"
            ).map(String.init)
        }
        var binary: URL { package.appendingPathComponent("Fuzz/.build/coverage/release/url") }
        func remove() { FuzzCommandTests.remove(package, corpus) }
    }

    static func write(_ text: String, to url: URL, executable: Bool = false) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    static func standIn() throws -> StandIn {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stc-fuzz-coverage-\(UInt64.random(in: 0 ... .max))")
        let p = package.path
        try write("// stand-in\n", to: package.appendingPathComponent("Fuzz/Package.swift"))
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Fuzz/Sources/url"), withIntermediateDirectories: true)
        // The coverage binary: writes a profile where LLVM_PROFILE_FILE says (%p made 1), exits STAND_IN_EXIT.
        try write(
            """
            #!/bin/sh
            echo "binary $* [profile=$LLVM_PROFILE_FILE]" >> '\(p)/calls'
            echo 'INFO: Loaded 1 modules   (7 inline 8-bit counters): 7 [0x1, 0x8),' >&2
            [ -n "$LLVM_PROFILE_FILE" ] && : > "$(echo "$LLVM_PROFILE_FILE" | sed 's/%p/1/')"
            [ "${STAND_IN_EXIT:-0}" = 0 ] || echo '==1== ERROR: libFuzzer: deadly signal' >&2
            exit "${STAND_IN_EXIT:-0}"

            """, to: package.appendingPathComponent("Fuzz/.build/coverage/release/url"), executable: true)
        // Three modules: one under test, a harness module (coverage, but its name starts with `_`), one without.
        let flags = #"[{"kind": {"unsafeFlags": {"_0": ["-sanitize-coverage=edge"]}}, "tool": "swift"}]"#
        try write(
            #"{"targets": [{"name": "Lib", "type": "regular", "settings": \#(flags)}, "#
                + #"{"name": "_Harness", "type": "regular", "settings": \#(flags)}, "#
                + #"{"name": "Plain", "type": "regular", "settings": []}]}"#,
            to: package.appendingPathComponent("dump-package.json"))
        try write(
            """
            #!/bin/sh
            case " $* " in *" dump-package "*) cat '\(p)/dump-package.json'; exit 0 ;; esac
            echo "swift $*" >> '\(p)/calls'
            exit 1

            """, to: package.appendingPathComponent("bin/swift"), executable: true)
        try write(
            """
            #!/bin/sh
            echo "llvm-profdata $*" >> '\(p)/calls'
            while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done
            exit 0

            """, to: package.appendingPathComponent("bin/llvm-profdata"), executable: true)
        func file(_ name: String, lines: (Int, Int), regions: (Int, Int)) -> String {
            #"{"filename": "\#(p)/Sources/Lib/\#(name)", "summary": {"lines": {"count": \#(lines.0), "covered": "#
                + #"\#(lines.1)}, "regions": {"count": \#(regions.0), "covered": \#(regions.1)}, "#
                + #""functions": {"count": 1, "covered": 1}}}"#
        }
        try write(
            #"{"data": [{"files": ["# + file("A.swift", lines: (4, 3), regions: (2, 1)) + ", "
                + file("B.swift", lines: (10, 10), regions: (3, 3)) + "]}]}",
            to: package.appendingPathComponent("export.json"))
        try write(
            """
            #!/bin/sh
            echo "llvm-cov $*" >> '\(p)/calls'
            case "$1" in
              export) cat '\(p)/export.json' ;;
              show) for a in "$@"; do case "$a" in
                  -output-dir=*) mkdir -p "${a#-output-dir=}"; echo '<html>' > "${a#-output-dir=}/index.html" ;;
                esac; done ;;
            esac
            exit 0

            """, to: package.appendingPathComponent("bin/llvm-cov"), executable: true)
        let corpus = try FuzzCommandTests.temporaryCorpus(copying: ["url"])
        let path =
            package.appendingPathComponent("bin").path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return StandIn(package: package, corpus: corpus, path: path)
    }

    @Test func reportsTheCodeUnderTestPerModuleAndWritesHTML() throws {
        let s = try Self.standIn()
        defer { s.remove() }
        let html = s.package.appendingPathComponent("report")
        let run = try StcBinary.run(
            [
                "fuzz", "coverage", "url", "--no-build", "--package", s.package.path, "--corpus", s.corpus.path,
                "--html", html.path,
            ], environment: ["PATH": s.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: s.corpus.appendingPathComponent("url").path)
            .count
        #expect(run.stdout.contains("coverage of Lib by \(seeds) inputs of 1 target(s)"), "\(run.stdout)")
        // Lib's two files: 13 of 14 lines, 4 of 5 regions. The harness module and the plain one are left out.
        let row = run.stdout.split(separator: "\n").first { $0.hasPrefix("  Lib ") }.map(String.init) ?? ""
        #expect(row.contains(" 92.86%    13/14 ") && row.contains(" 80.00%     4/5 "), "\(run.stdout)")
        #expect(run.stdout.contains("       1   75.00%     3/4      Sources/Lib/A.swift"), "\(run.stdout)")
        #expect(!run.stdout.contains("B.swift"), "a file with every line reached is not listed: \(run.stdout)")
        #expect(run.stdout.contains("HTML report: \(html.path)/index.html"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: html.appendingPathComponent("index.html").path))

        let calls = s.calls
        let profiles = s.package.path + "/.build/fuzz-coverage/profiles"
        #expect(
            calls.first == "binary -runs=0 -artifact_prefix=\(profiles)/ \(s.corpus.path)/url "
                + "[profile=\(profiles)/url-%p.profraw]", "\(calls)")
        #expect(
            calls.contains(
                "llvm-profdata merge -sparse \(profiles)/url-1.profraw -o \(s.package.path)/.build/"
                    + "fuzz-coverage/fuzz.profdata"), "\(calls)")
        let export = calls.first { $0.hasPrefix("llvm-cov export ") } ?? ""
        #expect(export.hasSuffix(" \(s.binary.path) \(s.package.path)/Sources/Lib"), "\(export)")
        let show = calls.first { $0.hasPrefix("llvm-cov show ") } ?? ""
        #expect(show.contains("-format=html -output-dir=\(html.path) "), "\(show)")
        #expect(!calls.contains { $0.hasPrefix("swift ") }, "--no-build with the binaries there builds nothing")
    }

    @Test func aCrashingInputFailsTheRunButTheReportIsWritten() throws {
        let s = try Self.standIn()
        defer { s.remove() }
        let run = try StcBinary.run(
            ["fuzz", "coverage", "url", "--no-build", "--package", s.package.path, "--corpus", s.corpus.path],
            environment: ["PATH": s.path, "STAND_IN_EXIT": "1"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("url: an input crashed the coverage binary (exit 1)"), "\(run.stdout)")
        #expect(run.stdout.contains("  | ==1== ERROR: libFuzzer: deadly signal"), "\(run.stdout)")
        #expect(run.stdout.contains("HTML report: "), "\(run.stdout)")
    }

    @Test func binariesFromAnotherBuildAreRunAsTheyAre() throws {
        let s = try Self.standIn()
        defer { s.remove() }
        let out = s.package.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: s.binary, to: out.appendingPathComponent("url"))
        let common = ["fuzz", "coverage", "url", "--package", s.package.path, "--corpus", s.corpus.path]
        let run = try StcBinary.run(common + ["--binaries", out.path], environment: ["PATH": s.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(s.calls.first?.hasPrefix("binary -runs=0 ") == true, "\(s.calls)")
        #expect(
            (s.calls.first { $0.hasPrefix("llvm-cov export ") } ?? "").contains(" \(out.path)/url "), "\(s.calls)")
        #expect(!s.calls.contains { $0.hasPrefix("swift ") }, "\(s.calls)")

        let both = try StcBinary.run(common + ["--binaries", out.path, "--no-build"], environment: ["PATH": s.path])
        #expect(both.status == 2, "\(both.stderr)")
        try Self.write("{{a}}", to: s.corpus.appendingPathComponent("template/seed"))
        let missing = try StcBinary.run(
            ["fuzz", "coverage", "template"] + common.dropFirst(3) + ["--binaries", out.path])
        #expect(missing.status == 2 && missing.stderr.contains("no coverage binary \(out.path)/template"))
    }

    /// `--coverage` builds in its own scratch path without SCREENTIME_FUZZ_COVERAGE; `--out` copies the binaries,
    /// linked with the Swift runtime inside, from a fuzzing build of their own.
    @Test func coverageAndStaticBuildsHaveScratchPathsOfTheirOwn() throws {
        let (package, corpus) = try FuzzCommandTests.standInWorkspace()
        defer { FuzzCommandTests.remove(package, corpus) }
        let (path, _) = try FuzzCommandTests.standInSwift(
            in: package,
            script: """
                dest='\(package.path)/Fuzz/.build'; prev=
                for a in "$@"; do [ "$prev" = --scratch-path ] && dest="$a"; prev="$a"; done
                mkdir -p "$dest/release" && cp '\(package.path)/built-url' "$dest/release/url"; echo 'Build complete!'
                """)
        func calls() throws -> [String] {
            try String(contentsOf: package.appendingPathComponent("calls"), encoding: .utf8).split(separator: "\n").map(
                String.init)
        }
        let fuzz = package.path + "/Fuzz"
        let out = package.appendingPathComponent("out")
        let coverage = try StcBinary.run(
            ["fuzz", "build", "url", "--coverage", "--out", out.path, "--package", package.path],
            environment: ["PATH": path])
        #expect(coverage.status == 0, "\(coverage.stdout)\(coverage.stderr)")
        #expect(
            try calls().last
                == "swift build -c release --sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc "
                + "-profile-coverage-mapping --static-swift-stdlib --package-path \(fuzz) --scratch-path "
                + "\(fuzz)/.build/coverage --manifest-cache none --product url [coverage=]")  // a first build
        #expect(coverage.stdout == "url\t7 inline 8-bit counters\n", "\(coverage.stdout)")
        #expect(coverage.stderr.contains("copied 1 binaries to \(out.path)"), "\(coverage.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: out.appendingPathComponent("url").path))
        let stamp = try String(contentsOfFile: fuzz + "/.build/coverage/stc-sources", encoding: .utf8)
        #expect(
            stamp.hasPrefix(
                "build: env -u SCREENTIME_FUZZ_COVERAGE swift build -c release --sanitize=fuzzer -Xswiftc "
                    + "-profile-generate -Xswiftc -profile-coverage-mapping --static-swift-stdlib --package-path Fuzz "
                    + "--scratch-path Fuzz/.build/coverage\nsources:\n"), "\(stamp)")

        try FileManager.default.removeItem(at: out)
        let fuzzing = try StcBinary.run(
            ["fuzz", "build", "url", "--out", out.path, "--package", package.path], environment: ["PATH": path])
        #expect(fuzzing.status == 0, "\(fuzzing.stdout)\(fuzzing.stderr)")
        #expect(
            try calls().last
                == "swift build -c release --sanitize=address -Xswiftc -Xllvm -Xswiftc "
                + "-asan-instrumentation-with-call-threshold=0 --static-swift-stdlib --package-path \(fuzz) "
                + "--scratch-path \(fuzz)/.build/static --manifest-cache none --product url [coverage=1]")
        #expect(FileManager.default.isExecutableFile(atPath: out.appendingPathComponent("url").path))
        // Neither touched the build stc fuzz run uses.
        #expect(!FileManager.default.fileExists(atPath: fuzz + "/.build/release/url"))
    }

    @Test func listLongGivesEachTargetsMaxLen() throws {
        let run = try StcBinary.run(["fuzz", "list", "--long"])
        #expect(run.status == 0)
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 2).map(String.init) }
        #expect(rows.count == 13 && rows.allSatisfy { $0.count == 3 && Int($0[1]) != nil }, "\(run.stdout)")
        #expect(
            rows.contains { $0[0] == "url" && $0[1] == "512" } && rows.contains { $0[0] == "json" && $0[1] == "1024" }
                && rows.contains { $0[0] == "deeplink" && $0[1] == "512" }
                && rows.contains { $0[0] == "activity-timeline" && $0[1] == "512" }
                && rows.contains { $0[0] == "activity-calendar" && $0[1] == "64" })
        let short = try StcBinary.run(["fuzz", "list"]).stdout.split(separator: "\n")
        #expect(short.map { $0.split(separator: "\t")[0] } == rows.map { Substring($0[0]) })
    }

    /// A libFuzzer whose -help=1 lists `set_cover_merge` merges with it; one whose help does not, with -merge=1.
    @Test(arguments: [true, false])
    func mergeUsesSetCoverWhereLibFuzzerHasIt(hasSetCover: Bool) throws {
        let (package, corpus) = try FuzzCommandTests.standInWorkspace()
        defer { FuzzCommandTests.remove(package, corpus) }
        let help = hasSetCover ? " set_cover_merge      \t0\tIf 1, … set cover" : " merge      \t0\tIf 1, …"
        try Self.write(
            """
            #!/bin/sh
            echo 'INFO: Loaded 1 modules   (7 inline 8-bit counters): 7 [0x1, 0x8),' >&2
            case " $* " in *" -help=1 "*) printf '%s\\n' '\(help)' >&2; exit 0 ;; esac
            case " $* " in *"merge=1 "*) echo "merge $*" >> '\(package.path)/calls' ;; esac
            echo 'MERGE-OUTER: 0 new files with 0 new features added; 0 new coverage edges' >&2
            exit 0

            """, to: package.appendingPathComponent("Fuzz/.build/release/url"), executable: true)
        let found = package.appendingPathComponent(".build/fuzz-corpus/url/found")
        try Self.write("%41", to: found)
        let run = try StcBinary.run(
            ["fuzz", "merge", "url", "--no-build", "--package", package.path, "--corpus", corpus.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let call = (try? String(contentsOf: package.appendingPathComponent("calls"), encoding: .utf8)) ?? ""
        let flag = hasSetCover ? "-set_cover_merge=1" : "-merge=1"
        #expect(call.hasPrefix("merge \(flag) -use_counters=0 "), "\(call)")
        #expect(run.stderr.contains(" \(flag) -use_counters=0 "), "\(run.stderr)")
    }
}
