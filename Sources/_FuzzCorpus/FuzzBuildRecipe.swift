/// How stc builds the libFuzzer binaries of the Fuzz package (`stc fuzz run`, `stc fuzz build`, `stc fuzz
/// coverage`), shared with the lab's planted builds so that they are built exactly as the fuzzers they measure.
public enum FuzzBuildRecipe {
    /// The builds stc makes of the Fuzz package. Each has its own scratch directory, so that making one never
    /// replaces the objects of another: SwiftPM recompiles every module when `--static-swift-stdlib` or the
    /// instrumentation changes.
    public enum Variant: Sendable, Equatable {
        /// The fuzzing build of `stc fuzz run` (``arguments(fuzzPackage:product:manifestCache:variant:)``), in
        /// `Fuzz/.build`.
        case fuzzing
        /// The fuzzing build linked with the Swift runtime and Foundation inside (`--static-swift-stdlib`), in
        /// `Fuzz/.build/static`: binaries that run where no Swift toolchain is installed, as in OSS-Fuzz's runner
        /// image (`stc fuzz build --out`).
        case fuzzingStatic
        /// The coverage build (`stc fuzz coverage`, OSS-Fuzz's `coverage` sanitizer), in `Fuzz/.build/coverage`:
        /// LLVM's profile instrumentation for llvm-cov in every module, libFuzzer linked by SwiftPM
        /// (`--sanitize=fuzzer`), no ASan, and no ``coverageVariable`` (the manifests then add nothing). Always
        /// static: one build serves `stc fuzz coverage` and `stc fuzz build --coverage --out`.
        case coverage

        /// The scratch directory inside the Fuzz package's `.build`, or nil for SwiftPM's default.
        public var scratchName: String? {
            switch self {
            case .fuzzing: nil
            case .fuzzingStatic: "static"
            case .coverage: "coverage"
            }
        }

        /// The build's own directory: the Fuzz package's `.build`, or the scratch directory inside it.
        public func buildDirectory(fuzzPackage: String) -> String {
            fuzzPackage + "/.build" + (scratchName.map { "/" + $0 } ?? "")
        }

        /// The flags that make this build, after `build -c release`.
        public var flags: [String] {
            switch self {
            case .fuzzing: ["--sanitize=address"] + asanCallbacks
            case .fuzzingStatic: ["--sanitize=address"] + asanCallbacks + ["--static-swift-stdlib"]
            case .coverage: ["--sanitize=fuzzer"] + profileInstrumentation + ["--static-swift-stdlib"]
            }
        }

        /// Whether the manifests see ``coverageVariable``: the fuzzing builds' coverage instrumentation on the code
        /// under test, and Fuzz/Package.swift linking libFuzzer itself.
        public var setsCoverageVariable: Bool { self != .coverage }
    }

    /// The fuzz build: ASan everywhere (`--sanitize=address`), libFuzzer's coverage instrumentation on the code
    /// under test (``environment``: the root Package.swift then gives it to the modules its table marks), libFuzzer
    /// linked by Fuzz/Package.swift, with ``asanCallbacks``. Another ``Variant`` builds in its own scratch path.
    public static func arguments(
        fuzzPackage: String, product: String?, manifestCache: Bool = true, variant: Variant = .fuzzing
    ) -> [String] {
        var args = ["build", "-c", "release"] + variant.flags + ["--package-path", fuzzPackage]
        if variant.scratchName != nil { args += ["--scratch-path", variant.buildDirectory(fuzzPackage: fuzzPackage)] }
        if !manifestCache { args += ["--manifest-cache", "none"] }
        if let product { args += ["--product", product] }
        return args
    }

    /// What the fuzz build sets for the manifests: coverage for the code under test, not for the generators,
    /// properties and checks around it. libFuzzer's work after each execution grows with the edges an input hits,
    /// so edges of test code cost executions and lead nowhere (docs/PERFORMANCE.md#decisions).
    public static let coverageVariable = (name: "SCREENTIME_FUZZ_COVERAGE", value: "1")

    /// ASan checks each memory access through a call into its runtime instead of an inline shadow test. Swift runs
    /// the coverage pass after ASan, so an inline test would become a coverage counter of its own, one that
    /// libFuzzer scans after every execution and that leads it nowhere. The same checks, so the same bugs are
    /// found, in more executions per second (docs/PERFORMANCE.md#decisions).
    public static let asanCallbacks = ["-Xswiftc", "-Xllvm", "-Xswiftc", "-asan-instrumentation-with-call-threshold=0"]

    /// What llvm-cov reads: counters per region and the map from regions to source lines.
    public static let profileInstrumentation = [
        "-Xswiftc", "-profile-generate", "-Xswiftc", "-profile-coverage-mapping",
    ]
}
