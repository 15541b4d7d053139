import Foundation
import StrictJSON
import _CommandSupport
import _FuzzCorpus

/// `stc fuzz coverage`: what of the code under test the corpus reaches, through the coverage binaries and llvm-cov.
enum FuzzCoverageCommand {
    static let help = HelpPage(
        "stc fuzz coverage", usage: ["[TARGET…] [--html DIR] [--binaries DIR | --no-build]"],
        description: """
            Runs the corpus through the coverage binaries and reports what it reaches of the code under test: the
            modules to which the fuzz build gives libFuzzer's coverage, less the harness modules (names starting with
            `_`; see stc fuzz modules). For every target (default) or the given ones:
              1. builds the coverage binaries (stc fuzz build --coverage);
              2. runs each target's binary over corpus/TARGET/ and corpus/TARGET/regressions/ (-runs=0: what
                 libFuzzer runs on each input), writing LLVM profiles to .build/fuzz-coverage/profiles/;
              3. merges them (llvm-profdata merge) and prints, from llvm-cov, the lines, regions and functions
                 reached per module and every file with unreached lines, the most first;
              4. writes an HTML report (llvm-cov show -format=html): each file with the lines and regions no
                 input reached in red, where to look for a branch the corpus never takes.
            llvm-profdata and llvm-cov are those beside `swift` (the toolchain's, which read its compiler's profiles),
            else the first on the PATH.
            """,
        options: [
            .init("--html DIR", "the HTML report's directory (default .build/fuzz-coverage/html; open index.html)"),
            .init(
                "--binaries DIR",
                """
                run the coverage binaries in DIR, named like the targets (e.g. the $OUT of
                .clusterfuzzlite/build.sh with SANITIZER=coverage), instead of building them
                """),
            .init("--no-build", "use the existing coverage binaries if there are"),
        ] + FuzzCommand.commonHelp,
        exitCodes: [
            .init("0", "reported"), .init("1", "an input crashed a binary (the report covers the rest)"),
            .init("2", "usage, build or I/O error"),
        ])

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [.value("--html", "DIR"), .value("--binaries", "DIR"), .flag("--no-build")],
        positionals: .any)

    static let command = Command(
        "coverage", summary: "which lines of the reference the corpus reaches (llvm-cov summary, HTML report)",
        syntax: syntax, help: help, run: main)

    /// Lines, regions and functions: how many there are and how many the inputs reached.
    struct Counts {
        var lines = (count: 0, covered: 0)
        var regions = (count: 0, covered: 0)
        var functions = (count: 0, covered: 0)

        static func += (a: inout Counts, b: Counts) {
            a.lines = (a.lines.count + b.lines.count, a.lines.covered + b.lines.covered)
            a.regions = (a.regions.count + b.regions.count, a.regions.covered + b.regions.covered)
            a.functions = (a.functions.count + b.functions.count, a.functions.covered + b.functions.covered)
        }
    }

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let targets = try (a.positionals.isEmpty ? FuzzTargets.all.map(\.name) : a.positionals).map {
            try FuzzCommand.target($0)
        }
        if a.value("--binaries") != nil, a.flag("--no-build") {
            throw UsageError("--binaries runs the binaries in its directory; --no-build is for stc's own build")
        }
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        let ws = FuzzCommand.workspace(a)
        let root = try ws.requirePackage()
        guard fm.fileExists(atPath: root + "/Fuzz/Package.swift") else {
            throw CommandFailure("\(root) holds no Fuzz/Package.swift (give the repository with --package DIR)")
        }
        let work = root + "/.build/fuzz-coverage"
        let html = FuzzWorkspace.absolute(a.value("--html") ?? work + "/html", in: cwd)
        do {
            try fm.createDirectory(atPath: html, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot make the --html directory \(html): \(error.localizedDescription)")
        }

        // What each target runs: its seeds and regressions, as directories for libFuzzer.
        var plan: [(target: FuzzTarget, directories: [String], inputs: Int)] = []
        for target in targets {
            let directories = [ws.corpus.seedDirectory(target.name), ws.corpus.regressionDirectory(target.name)]
                .filter { !FuzzCorpus.files(in: $0).isEmpty }
            let inputs = directories.reduce(0) { $0 + FuzzCorpus.files(in: $1).count }
            guard inputs > 0 else {
                let seeds = Shell.displayPath(ws.corpus.seedDirectory(target.name))
                throw CommandFailure("no inputs for \(target.name): \(seeds) and \(seeds)/regressions hold no file")
            }
            plan.append((target, directories, inputs))
        }

        var binaries: [String] = []
        if let given = a.value("--binaries") {
            let directory = FuzzWorkspace.absolute(given, in: cwd)
            for target in targets {
                let binary = (directory as NSString).appendingPathComponent(target.name)
                guard fm.isExecutableFile(atPath: binary) else {
                    throw CommandFailure("no coverage binary \(binary) (build them with stc fuzz build --coverage)")
                }
                binaries.append(binary)
            }
        } else {
            try FuzzBuild.ensure(
                ws, targets: targets.map(\.name), skip: a.flag("--no-build"), allTargets: a.positionals.isEmpty,
                variant: .coverage)
            binaries = try targets.map { try ws.binary($0.name, variant: .coverage) }
        }
        guard let profdata = llvmTool("llvm-profdata"), let cov = llvmTool("llvm-cov") else {
            throw CommandFailure(
                "llvm-profdata and llvm-cov are neither beside `swift` nor on the PATH (they ship with the toolchain)")
        }
        guard let swift = FuzzProcess.which("swift") else { throw CommandFailure("`swift` is not on the PATH") }
        let modules = try FuzzManifest.read(root: root, swift: swift).modules
            .filter { $0.hasCoverage && !$0.name.hasPrefix("_") }.map(\.name)
        guard !modules.isEmpty else {
            throw CommandFailure("the manifest gives no module outside the harnesses libFuzzer's coverage")
        }
        let sources = modules.map { root + "/Sources/" + $0 }

        // 2. Each target's inputs through its binary, one profile per process.
        let profiles = work + "/profiles"
        try? fm.removeItem(atPath: profiles)
        try fm.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        var crashed: [String] = []
        for (entry, binary) in zip(plan, binaries) {
            var environment = FuzzProcess.fuzzerEnvironment()
            environment["LLVM_PROFILE_FILE"] = profiles + "/\(entry.target.name)-%p.profraw"
            let args = ["-runs=0", "-artifact_prefix=\(profiles)/"] + entry.directories
            Console.error(
                "$ LLVM_PROFILE_FILE=\(Shell.quote(Shell.displayPath(environment["LLVM_PROFILE_FILE"] ?? ""))) "
                    + "SWIFT_BACKTRACE=enable=no "
                    + ([Shell.displayPath(binary)] + args.map(Shell.displayPath)).map(Shell.quote).joined(
                        separator: " "))
            let output = try FuzzProcess.run(binary, args, environment: environment, currentDirectory: profiles)
            if output.status != 0 || output.crashedBySignal {
                crashed.append(entry.target.name)
                Console.out("\(entry.target.name): an input crashed the coverage binary (exit \(output.status)):")
                for line in output.text.split(separator: "\n").filter({
                    $0.contains("ERROR: ") || $0.contains("Fatal error") || $0.contains("invariant failed")
                        || $0.contains("Test unit written to ")
                }) {
                    Console.out("  | \(line)")
                }
            }
        }
        let raw = (try? fm.contentsOfDirectory(atPath: profiles))?.filter { $0.hasSuffix(".profraw") }.sorted() ?? []
        guard !raw.isEmpty else {
            throw CommandFailure(
                "no profile was written to \(Shell.displayPath(profiles)): are these coverage binaries "
                    + "(stc fuzz build --coverage)?")
        }

        // 3. One profile, then llvm-cov's summary of the code under test.
        let merged = work + "/fuzz.profdata"
        try runTool(profdata, ["merge", "-sparse"] + raw.map { profiles + "/" + $0 } + ["-o", merged])
        let objects = [binaries[0]] + binaries.dropFirst().flatMap { ["-object", $0] }
        let export = try runTool(
            cov, ["export", "-summary-only", "-instr-profile", merged] + objects + sources, keepOutput: true)
        let files = try parseSummary(export)
        guard !files.isEmpty else {
            throw CommandFailure(
                "llvm-cov found no source of \(modules.joined(separator: ", ")) in the binaries: were they built from "
                    + "this checkout?")
        }
        let inputs = plan.reduce(0) { $0 + $1.inputs }
        Console.out(
            "coverage of \(modules.joined(separator: ", ")) by \(inputs) inputs of \(plan.count) target(s) "
                + "(\(Shell.displayPath(ws.corpus.root))):")
        Console.out(report(files, modules: modules, root: root))

        // 4. The HTML report.
        try runTool(
            cov,
            ["show", "-format=html", "-output-dir=\(html)", "-show-line-counts-or-regions", "-instr-profile", merged]
                + objects + sources)
        Console.out("HTML report: \(Shell.displayPath(html))/index.html")
        if !crashed.isEmpty {
            Console.out(
                "crashing inputs in: \(crashed.joined(separator: ", ")) (stc fuzz replay TARGET --binary shows them)")
            return 1
        }
        return 0
    }

    /// An llvm tool of the toolchain that compiled the binaries: beside the real `swift` first (the profile format
    /// is the compiler's; another LLVM's llvm-cov may not read it), then `xcrun --find` on macOS, then the PATH.
    static func llvmTool(_ name: String) -> String? {
        if let swift = FuzzProcess.which("swift") {
            let directory = ((swift as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
            let candidate = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        #if os(macOS)
            if let found = try? FuzzProcess.capture("/usr/bin/xcrun", ["--find", name]), found.status == 0 {
                let path = String(decoding: found.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        #endif
        return FuzzProcess.which(name)
    }

    @discardableResult
    static func runTool(_ tool: String, _ args: [String], keepOutput: Bool = false) throws -> [UInt8] {
        let run = try FuzzProcess.capture(tool, args)
        guard run.status == 0 else {
            let name = (tool as NSString).lastPathComponent
            throw CommandFailure(
                "\(name) \(args.first ?? "") failed (exit \(run.status)):\n"
                    + run.stderr.split(separator: "\n").suffix(15).joined(separator: "\n"))
        }
        return keepOutput ? run.stdout : []
    }

    /// Each file of an `llvm-cov export -summary-only` document with its counts.
    static func parseSummary(_ json: [UInt8]) throws -> [(path: String, counts: Counts)] {
        let document: JSONValue
        do {
            document = try JSONParser.value(json)
        } catch {
            throw CommandFailure("llvm-cov export printed something that is not JSON (\(error))")
        }
        guard let data = document["data"]?.arrayValue?.first, let files = data["files"]?.arrayValue else {
            throw CommandFailure("llvm-cov export printed no \"data\"[0].\"files\" list")
        }
        return files.compactMap { file in
            guard let path = file["filename"]?.stringValue, let summary = file["summary"] else { return nil }
            func pair(_ key: String) -> (count: Int, covered: Int) {
                (summary[key]?["count"]?.intValue ?? 0, summary[key]?["covered"]?.intValue ?? 0)
            }
            return (path, Counts(lines: pair("lines"), regions: pair("regions"), functions: pair("functions")))
        }
    }

    static func percent(_ pair: (count: Int, covered: Int)) -> String {
        let value = pair.count == 0 ? 100 : 100 * Double(pair.covered) / Double(pair.count)
        return String(format: "%6.2f%% %5d/%-5d", value, pair.covered, pair.count)
    }

    /// The table: a line per module and the total, then the files with unreached lines, the most first.
    static func report(_ files: [(path: String, counts: Counts)], modules: [String], root: String) -> String {
        func module(of path: String) -> String? { modules.first { path.contains("/Sources/\($0)/") } }
        let width = max(24, (modules.map(\.count).max() ?? 0) + 2)
        func row(_ name: String, _ c: Counts) -> String {
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + percent(c.lines) + "  "
                + percent(c.regions) + "  " + percent(c.functions)
        }
        var lines = [
            "  " + "module".padding(toLength: width, withPad: " ", startingAt: 0)
                + "lines".padding(toLength: 21, withPad: " ", startingAt: 0)
                + "regions".padding(
                    toLength: 21, withPad: " ", startingAt: 0) + "functions"
        ]
        var total = Counts()
        for name in modules {
            var counts = Counts()
            for file in files where module(of: file.path) == name { counts += file.counts }
            total += counts
            lines.append(row(name, counts))
        }
        lines.append(row("all", total))
        let unreached = files.filter { $0.counts.lines.covered < $0.counts.lines.count }.sorted {
            ($0.counts.lines.count - $0.counts.lines.covered, $1.path) > (
                $1.counts.lines.count - $1.counts.lines.covered, $0.path
            )
        }
        if !unreached.isEmpty {
            lines.append("")
            lines.append("  files with unreached lines (unreached, then lines reached):")
            for file in unreached {
                let path = file.path.hasPrefix(root + "/") ? String(file.path.dropFirst(root.count + 1)) : file.path
                let missed = file.counts.lines.count - file.counts.lines.covered
                lines.append(String(format: "  %6d  ", missed) + "\(percent(file.counts.lines))  \(path)")
            }
        }
        return lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }
}
