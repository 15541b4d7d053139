import Foundation

/// The three builds of the planted reference the benchmark runs, each in a scratch path of its own under
/// `.build/bugs/`, so that no normal build ever holds a planted bug and none of them is rebuilt by a normal build.
///
/// Rule: every build sets `STC_PLANTED_BUGS=1` (Package.swift then defines the condition for the reference's
/// modules only); each prints its command line before it runs, as `stc fuzz build` does.
public struct PlantedBuilds: Sendable {
    /// How `stc fuzz run` builds the fuzz package: `swift` arguments (without `--scratch-path`) and environment.
    public struct FuzzBuildRecipe: Sendable {
        public var arguments: [String]
        public var environment: [String: String]
        public init(arguments: [String], environment: [String: String]) {
            self.arguments = arguments
            self.environment = environment
        }
    }

    public var packageRoot: String
    public var fuzzRecipe: FuzzBuildRecipe
    /// `debug` for a quick run (the planted `stc` only checks the machinery then), `release` for measurements.
    public var configuration: String

    public init(packageRoot: String, fuzzRecipe: FuzzBuildRecipe, configuration: String = "release") {
        self.packageRoot = packageRoot
        self.fuzzRecipe = fuzzRecipe
        self.configuration = configuration
    }

    public static let plantedVariable = (name: "STC_PLANTED_BUGS", value: "1")

    var scratch: String { packageRoot + "/.build/bugs" }
    public var stc: String { scratch + "/stc/\(configuration)/stc" }
    public func fuzzer(_ target: String) -> String { scratch + "/fuzz/release/" + target }
    public func naive(_ harness: String) -> String { scratch + "/naive/release/" + harness }

    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `stc` with the planted bugs compiled in.
    func buildStc(log: (String) -> Void) throws(BuildFailure) {
        try build(
            ["build", "-c", configuration, "--product", "stc", "--scratch-path", scratch + "/stc"], environment: [:],
            log: log)
    }

    /// The fuzz targets named (all when empty), built as `stc fuzz run` builds them.
    func buildFuzzers(_ targets: [String], log: (String) -> Void) throws(BuildFailure) {
        let products = targets.isEmpty ? [nil] : targets.map(Optional.some)
        for product in products {
            var arguments = fuzzRecipe.arguments + ["--scratch-path", scratch + "/fuzz"]
            if let product { arguments += ["--product", product] }
            try build(arguments, environment: fuzzRecipe.environment, log: log)
        }
    }

    /// The naive baseline harnesses, built as a user would: `--sanitize=fuzzer --sanitize=address`, and with the
    /// code under test given libFuzzer's coverage instrumentation as our fuzz build gives it (the root manifest's
    /// `SCREENTIME_FUZZ_COVERAGE`): with SwiftPM 6.3 on Linux, `--sanitize=fuzzer` alone leaves an executable
    /// target's binary without coverage counters, and a blind fuzzer would make the baseline weaker than it is
    /// meant to be. All of them at once, which is how a user builds them.
    func buildNaive(log: (String) -> Void) throws(BuildFailure) {
        try build(
            [
                "build", "-c", "release", "--sanitize=fuzzer", "--sanitize=address", "--package-path",
                packageRoot + "/Fuzz/Naive", "--scratch-path", scratch + "/naive",
            ], environment: fuzzRecipe.environment, log: log)
    }

    private func build(_ arguments: [String], environment: [String: String], log: (String) -> Void)
        throws(BuildFailure)
    {
        guard let swift = Self.which("swift") else { throw BuildFailure(description: "`swift` is not on the PATH") }
        var environment = environment
        environment[Self.plantedVariable.name] = Self.plantedVariable.value
        // SwiftPM's cached plan of a package with a path dependency misses files added to the dependency since;
        // planning afresh costs seconds.
        for stale in ["release.yaml", "debug.yaml"] {
            for directory in ["stc", "fuzz", "naive"] {
                try? FileManager.default.removeItem(atPath: "\(scratch)/\(directory)/\(stale)")
            }
        }
        let shown = environment.keys.sorted().filter { $0.hasPrefix("STC_") || $0.hasPrefix("SCREENTIME_") }
            .map { "\($0)=\(environment[$0] ?? "")" }
        log("$ " + (shown + ["swift"] + arguments).joined(separator: " "))
        let outcome: TimedProcess.Outcome
        do {
            outcome = try TimedProcess.run(
                swift, arguments, environment: environment, directory: packageRoot, limit: 3600)
        } catch {
            throw BuildFailure(description: error.description)
        }
        if outcome.status != 0 || outcome.signaled {
            throw BuildFailure(description: "the build failed (exit \(outcome.status)):\n\(outcome.tail(30))")
        }
        log(String(format: "  built in %.0f s", outcome.seconds))
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
