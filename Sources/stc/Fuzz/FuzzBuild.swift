import Foundation
import _CommandSupport
import _FuzzCorpus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Building and checking the libFuzzer binaries.
enum FuzzBuild {
    typealias Variant = FuzzBuildRecipe.Variant

    /// The environment of the `swift build` child: ours plus ``FuzzBuildRecipe.coverageVariable`` (without it, for the coverage
    /// build).
    static func environment(_ variant: Variant = .fuzzing) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[FuzzBuildRecipe.coverageVariable.name] =
            variant.setsCoverageVariable ? FuzzBuildRecipe.coverageVariable.value : nil
        return environment
    }

    /// A build with these `swift` arguments as one shell command, the variable included (for the log and messages).
    static func commandLine(_ arguments: [String], variant: Variant = .fuzzing) -> String {
        let words = arguments.map(Shell.quote).joined(separator: " ")
        if variant.setsCoverageVariable {
            return "\(FuzzBuildRecipe.coverageVariable.name)=\(FuzzBuildRecipe.coverageVariable.value) swift " + words
        }
        return "env -u \(FuzzBuildRecipe.coverageVariable.name) swift " + words
    }

    /// What SwiftPM says when its cached manifest or build plan predates a shim directory added to Fuzz/Sources:
    /// `Fuzz/Package.swift` lists the directory when it is evaluated, but SwiftPM reuses the cached evaluation.
    static let stalePlanMessages = ["no product named", "in build description"]

    /// The cached build plan of a build of the Fuzz package (SwiftPM makes both again).
    static func cachedPlanFiles(fuzzPackage: String, variant: Variant = .fuzzing) -> [String] {
        let directory = variant.buildDirectory(fuzzPackage: fuzzPackage)
        return [directory + "/release.yaml", directory + "/release/description.json"]
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

    /// Where stc keeps the record of its last successful build of this variant (``stamp(root:manifest:variant:)``).
    static func sourceStamp(fuzzPackage: String, variant: Variant = .fuzzing) -> String {
        variant.buildDirectory(fuzzPackage: fuzzPackage) + "/stc-sources"
    }

    /// The built binary of `target`.
    static func binary(fuzzPackage: String, target: String, variant: Variant = .fuzzing) -> String {
        variant.buildDirectory(fuzzPackage: fuzzPackage) + "/release/" + target
    }

    /// The record of a fuzz build: first the flags (the build command's and each module's, from the manifest), then
    /// after a `sources:` line the Swift files it compiles (the root package's `Sources` and `Fuzz/Sources`), one
    /// path a line, sorted. SwiftPM notices neither: its cached plan of the Fuzz package does not see a file added
    /// to its path dependency (the build then fails on whatever the new file declares), and it does not recompile
    /// objects whose module flags changed in the manifest. So a new source list clears the plan, and new flags
    /// remove the release build too.
    static func stamp(root: String, manifest: FuzzManifest?, variant: Variant = .fuzzing) -> String {
        var paths: [String] = []
        for directory in ["Sources", "Fuzz/Sources"] {
            let base = (root as NSString).appendingPathComponent(directory)
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? []
            paths += files.filter { $0.hasSuffix(".swift") }.map { directory + "/" + $0 }
        }
        let flags =
            [
                "build: "
                    + commandLine(
                        FuzzBuildRecipe.arguments(fuzzPackage: "Fuzz", product: nil, variant: variant), variant: variant
                    )
            ]
            + (manifest?.stampLines ?? [])
        return (flags + ["sources:"] + paths.sorted()).joined(separator: "\n") + "\n"
    }

    /// The flags part of a stamp: everything before its `sources:` line.
    static func flagsPart(of stamp: String) -> Substring {
        stamp.range(of: "\nsources:\n").map { stamp[..<$0.lowerBound] } ?? stamp[...]
    }

    /// Builds `targets` (all when nil), printing the command; throws with the build's tail on failure. When the
    /// package's source files changed since stc's last build of this variant, SwiftPM's cached plan is cleared
    /// first; a build that still fails because the caches do not know a new target is retried once without them.
    static func build(_ workspace: FuzzWorkspace, targets: [String]?, variant: Variant = .fuzzing) throws {
        guard let swift = FuzzProcess.which("swift") else { throw CommandFailure("`swift` is not on the PATH") }
        let fuzz = try workspace.fuzzPackage()
        let root = try workspace.requirePackage()
        // The coverage build does not set the variable, so the manifest gives its modules no flags of their own.
        let manifest = variant.setsCoverageVariable ? try FuzzManifest.read(root: root, swift: swift) : nil
        let sources = stamp(root: root, manifest: manifest, variant: variant)
        let stampFile = sourceStamp(fuzzPackage: fuzz, variant: variant)
        let directory = variant.buildDirectory(fuzzPackage: fuzz)
        // No stamp: the first fuzz build of this checkout. SwiftPM's shared manifest cache is keyed on the
        // manifest's text, and Fuzz/Package.swift lists Fuzz/Sources when it is evaluated, so an evaluation cached by
        // another checkout (a fresh clone on a machine that built an older one) would hide a newer target, and the
        // build would succeed without it: evaluate the manifests afresh.
        let last = try? String(contentsOfFile: stampFile, encoding: .utf8)
        var planIsStale = last == nil
        if let last, last != sources {
            if flagsPart(of: last) != flagsPart(of: sources) {
                // SwiftPM keeps objects compiled without an `-Xllvm` option that is now given: compile afresh.
                Console.error(
                    "stc: the fuzz build flags changed since the last fuzz build; "
                        + "removing its release build to compile everything again")
                try? FileManager.default.removeItem(atPath: directory + "/release")
                try? FileManager.default.removeItem(atPath: directory + "/\(hostTriple)/release")
            } else {
                Console.error(
                    "stc: source files were added or removed since the last fuzz build; clearing SwiftPM's cached "
                        + "plan (it does not see new files in a path dependency)")
            }
            for file in cachedPlanFiles(fuzzPackage: fuzz, variant: variant) {
                try? FileManager.default.removeItem(atPath: file)
            }
            planIsStale = true
        }
        for product in targets.map({ $0.map(Optional.some) }) ?? [nil] {
            let started = Date()
            var output = try buildOnce(
                swift,
                FuzzBuildRecipe.arguments(
                    fuzzPackage: fuzz, product: product, manifestCache: !planIsStale, variant: variant),
                variant: variant)
            if output.status != 0, stalePlanMessages.contains(where: output.text.contains) {
                Console.error(
                    "stc: SwiftPM's cached manifest or build plan predates a target in Fuzz/Sources; "
                        + "clearing it and building again")
                for file in cachedPlanFiles(fuzzPackage: fuzz, variant: variant) {
                    try? FileManager.default.removeItem(atPath: file)
                }
                output = try buildOnce(
                    swift,
                    FuzzBuildRecipe.arguments(
                        fuzzPackage: fuzz, product: product, manifestCache: false, variant: variant),
                    variant: variant)
            }
            if output.status != 0 {
                let tail = output.text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(
                    separator: "\n")
                throw CommandFailure("the fuzz build failed (exit \(output.status)):\n\(tail)")
            }
            Console.error(String(format: "  built in %.0f s", Date().timeIntervalSince(started)))
        }
        try? Data(sources.utf8).write(to: URL(fileURLWithPath: stampFile), options: .atomic)
    }

    private static func buildOnce(_ swift: String, _ args: [String], variant: Variant) throws -> FuzzProcess.Output {
        Console.error("$ " + commandLine(args, variant: variant))
        return try FuzzProcess.run(swift, args, environment: environment(variant)) { line in
            if line.contains("error:") || line.hasPrefix("Compiling") || line.hasPrefix("Build complete")
                || line.contains("Linking")
            {
                Console.error("  " + line)
            }
        }
    }

    /// Builds unless `skip` is set and every binary exists.
    static func ensure(
        _ workspace: FuzzWorkspace, targets: [String], skip: Bool, allTargets: Bool = false, variant: Variant = .fuzzing
    ) throws {
        for target in targets where !(try workspace.hasShim(target)) {
            throw CommandFailure(
                "no libFuzzer shim for '\(target)' in Fuzz/Sources/\(target) (see Fuzz/README.md, 'Adding a target')")
        }
        if skip,
            try targets.allSatisfy({
                FileManager.default.isExecutableFile(atPath: try workspace.binary($0, variant: variant))
            })
        {
            return
        }
        try build(workspace, targets: allTargets ? nil : targets, variant: variant)
    }

    /// Runs the binary on an empty corpus and reads libFuzzer's banner: an instrumented binary reports
    /// `INFO: Loaded 1 modules (N inline 8-bit counters)` with N > 0. Returns N.
    static func checkInstrumented(_ binary: String, variant: Variant = .fuzzing) throws -> Int {
        let empty = NSTemporaryDirectory() + "stc-fuzz-empty-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let output = try FuzzProcess.run(binary, ["-runs=0", empty], environment: FuzzProcess.fuzzerEnvironment())
        for line in output.text.split(separator: "\n")
        where line.hasPrefix("INFO: Loaded ") && line.contains("inline 8-bit counters") {
            // INFO: Loaded 1 modules   (12345 inline 8-bit counters): 12345 [0x…, 0x…),
            if let open = line.firstIndex(of: "(") {
                let digits = line[line.index(after: open)...].prefix { $0.isNumber }
                if let n = Int(digits), n > 0 { return n }
            }
        }
        throw CommandFailure(
            "\(binary) is not an instrumented libFuzzer binary "
                + "(no 'INFO: Loaded 1 modules (N inline 8-bit counters)' with N > 0); rebuild with: "
                + commandLine(
                    FuzzBuildRecipe.arguments(fuzzPackage: "Fuzz", product: nil, variant: variant), variant: variant))
    }
}
