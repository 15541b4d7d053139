import Foundation
import MutationTesting
import _FuzzCorpus
import _Subprocess

/// The builds of the planted reference the benchmark runs: the product package copied to `.build/bugs/package`
/// with ``PlantPatch`` applied, and built there into scratch paths of their own under `.build/bugs/`, so that no
/// normal build ever holds a planted bug and none of them is rebuilt by a normal build.
///
/// Rule: the copy is the package's files (``WorkCopy``: build products and version control left out) with the
/// patched files in place of theirs; a file already there with the same bytes is left alone, so that a second run
/// builds incrementally. Each build prints its command line before it runs, as `stc fuzz build` does.
public struct PlantedBuilds: Sendable {
    /// The product package, whose sources are planted (only read).
    public var packageRoot: String
    /// `debug` for a quick run (the planted `stc` only checks the machinery then), `release` for measurements.
    public var configuration: String

    /// - Parameters:
    ///   - packageRoot: the product package (the lab's parent directory).
    ///   - configuration: the planted `stc`'s build configuration.
    public init(packageRoot: String, configuration: String = "release") {
        self.packageRoot = packageRoot
        self.configuration = configuration
    }

    var scratch: String { packageRoot + "/.build/bugs" }
    /// The patch of every planted bug.
    public var patch: PlantPatch { PlantPatch(path: packageRoot + "/Lab/Plants/planted-bugs.patch") }
    /// The planted copy of the package.
    public var plantedPackage: String { scratch + "/package" }
    public var stc: String { scratch + "/stc/\(configuration)/stc" }
    public func fuzzer(_ target: String) -> String { scratch + "/fuzz/release/" + target }
    public func naive(_ harness: String) -> String { scratch + "/naive/release/" + harness }

    public struct BuildFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes ``plantedPackage`` the package with the plants.
    /// - Parameter log: where the step's line goes.
    /// - Throws: ``BuildFailure`` when the patch does not apply or the copy cannot be written.
    public func plant(log: (String) -> Void) throws(BuildFailure) {
        log("planting \(patch.path) into \(plantedPackage)")
        do {
            let files = try patch.applied(to: packageRoot)
            try WorkCopy(packageRoot: packageRoot, directory: plantedPackage).sync(replacing: files)
        } catch let failure as PlantPatch.Failure {
            throw BuildFailure(description: failure.description)
        } catch {
            throw BuildFailure(description: "cannot write the planted copy: \(error)")
        }
    }

    /// `stc` with the planted bugs compiled in.
    public func buildStc(log: (String) -> Void) throws(BuildFailure) {
        try build(
            [
                "build", "-c", configuration, "--product", "stc", "--package-path", plantedPackage,
                "--scratch-path", scratch + "/stc",
            ], environment: [:], log: log)
    }

    /// The fuzz targets named (all when empty), built as `stc fuzz run` builds them (``FuzzBuildRecipe``).
    func buildFuzzers(_ targets: [String], log: (String) -> Void) throws(BuildFailure) {
        let products = targets.isEmpty ? [nil] : targets.map(Optional.some)
        for product in products {
            let arguments =
                FuzzBuildRecipe.arguments(fuzzPackage: plantedPackage + "/Fuzz", product: product)
                + ["--scratch-path", scratch + "/fuzz"]
            try build(arguments, environment: coverageEnvironment, log: log)
        }
    }

    var coverageEnvironment: [String: String] {
        [FuzzBuildRecipe.coverageVariable.name: FuzzBuildRecipe.coverageVariable.value]
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
                plantedPackage + "/Lab/Naive", "--scratch-path", scratch + "/naive",
            ], environment: coverageEnvironment, log: log)
    }

    func build(_ arguments: [String], environment: [String: String], log: (String) -> Void)
        throws(BuildFailure)
    {
        guard let swift = Self.which("swift") else { throw BuildFailure(description: "`swift` is not on the PATH") }
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

    /// The first `name` in `PATH` that can be run (``Command/which(_:path:)``).
    static func which(_ name: String) -> String? { Command.which(name) }
}
