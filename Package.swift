// swift-tools-version:6.0
// The Screen Time conformance and fuzz suite.
//
// Module graph (kept lean: builds are slow on 2 cores):
//   StrictJSON            pure-Swift JSON values, a strict parser with limits and offsets, a canonical writer
//   ScreenTimeSelection   tokens and FamilyActivitySelection: the strict codec, canonical form, order, set algebra
//   ScreenTimeEncoding    URL component percent-encoding, deep links, shield-text templates
//   ScreenTimeReference   the reference implementation under iOS's own names (Foundation only, no test code);
//                         re-exports the two above, so users import this one module
//   PropertyTesting       choice-sequence generators, shrinking, runner (knows nothing of Screen Time)
//   FuzzCore              what a fuzz target is (FuzzTarget, HarnessFailure, the libFuzzer entry)
//   SelectionFuzzTargets  the selection-decode and selection-json harness bodies
//   EncodingFuzzTargets   the url and template harness bodies
//   DifferentialFuzzTargets  the selection-differential harness: our decoder against Foundation's
//                         (each fuzz binary links only its own harness module and what it tests: libFuzzer scans
//                         every coverage counter of a binary after each execution)
//   FuzzHarnesses         re-exports every byte-level target
//   ShieldProperties      the token universe, shield generators and the shield.* properties (and their namespace)
//   AuthorizationProperties  authorization generators and the auth.*, lifecycle.* properties
//   StructuredFuzzTargets the structured fuzz harnesses (shield, auth) over those two families, and their seeds
//                         (their fuzz binaries link these three without the rest of the catalog)
//   ReferenceProperties   the other domain generators and properties (selection, encodings), the whole catalog,
//                         the list of every fuzz target; re-exports the three above
//   Conformance           vectors, the operation table, implementations, runner, reports
//   Benchmarking          `stc bench`: timing harness, ours-vs-Foundation comparisons, runner and fuzz throughput
//   stc                   the command-line tool: thin commands over the libraries
import PackageDescription

// Fuzz builds (`stc fuzz run`, scripts/ci-fuzz.sh) set SCREENTIME_FUZZ_COVERAGE=1 and build the Fuzz package with
// `--sanitize=address`. Then libFuzzer's coverage instrumentation goes to the code under test, the first four
// modules, and to the two harness modules whose branches lead the fuzzer somewhere (how a parsed selection is
// shaped; which answer Foundation's decoder gave, the only view of it the fuzzer has). It is what
// `-sanitize=fuzzer` gives on Linux (edge counters, PC table, indirect calls, stack depth) except comparison
// tracing, which cost the parsing targets 4–20 % of their executions and reached no more edges. The later
// `-sanitize=` wins, and SwiftPM puts a target's own flags after its `--sanitize`. Generators, properties, second
// implementations and the url and template checks get ASan alone: libFuzzer then spends its per-edge work on the
// reference's edges, which those targets reach just as well at 1.15–1.9× the executions (Fuzz/README.md,
// "Coverage of the code under test"). Unset, as in every other build, this adds nothing. (Set for a build of this
// package itself, it fails to link: undefined `__sancov_lowest_stack`. Only the Fuzz package's build sets it.)
// stc's fuzz build stamp (FuzzBuild.flagsLine) names these flags: change both, or stale objects are linked.
let fuzzBuild = Context.environment["SCREENTIME_FUZZ_COVERAGE"] == "1"
let fuzzCoverage: [SwiftSetting] =
    fuzzBuild
    ? [.unsafeFlags([
        "-sanitize=address", "-sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table",
        "-Xllvm", "-sanitizer-coverage-stack-depth",
    ])]
    : []

let package = Package(
    name: "ScreenTimeConformance",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ScreenTimeReference", targets: ["ScreenTimeReference"]),
        .library(name: "SelectionFuzzTargets", targets: ["SelectionFuzzTargets"]),
        .library(name: "EncodingFuzzTargets", targets: ["EncodingFuzzTargets"]),
        .library(name: "DifferentialFuzzTargets", targets: ["DifferentialFuzzTargets"]),
        .library(name: "PropertyTesting", targets: ["PropertyTesting"]),
        .library(name: "FuzzHarnesses", targets: ["FuzzHarnesses"]),
        .library(name: "StructuredFuzzTargets", targets: ["StructuredFuzzTargets"]),
        .library(name: "ReferenceProperties", targets: ["ReferenceProperties"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .executable(name: "stc", targets: ["stc"]),
    ],
    targets: [
        // Double rounding calls into libm, which nothing else links on Linux when Foundation is not imported.
        .target(name: "StrictJSON", swiftSettings: fuzzCoverage, linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "ScreenTimeSelection", dependencies: ["StrictJSON"], swiftSettings: fuzzCoverage),
        .target(name: "ScreenTimeEncoding", dependencies: ["StrictJSON"], swiftSettings: fuzzCoverage),
        .target(name: "ScreenTimeReference", dependencies: ["ScreenTimeSelection", "ScreenTimeEncoding", "StrictJSON"], swiftSettings: fuzzCoverage),
        .target(name: "PropertyTesting"),
        // Apart from ReferenceProperties so that a byte-level fuzz binary does not carry the property catalog's
        // coverage counters (libFuzzer scans them all after every execution).
        .target(name: "FuzzCore"),
        .target(name: "SelectionFuzzTargets", dependencies: ["FuzzCore", "ScreenTimeSelection"], swiftSettings: fuzzCoverage),
        .target(name: "EncodingFuzzTargets", dependencies: ["FuzzCore", "ScreenTimeEncoding", "StrictJSON"]),
        .target(name: "DifferentialFuzzTargets", dependencies: ["FuzzCore", "ScreenTimeSelection", "StrictJSON"], swiftSettings: fuzzCoverage),
        // Every byte-level target in one import (stc, the tests, the property catalog's list of targets).
        .target(name: "FuzzHarnesses", dependencies: ["FuzzCore", "SelectionFuzzTargets", "EncodingFuzzTargets", "DifferentialFuzzTargets"]),
        .target(name: "ShieldProperties", dependencies: ["ScreenTimeReference", "PropertyTesting"]),
        .target(name: "AuthorizationProperties", dependencies: ["ShieldProperties", "ScreenTimeReference", "PropertyTesting"]),
        .target(name: "StructuredFuzzTargets", dependencies: ["FuzzCore", "ShieldProperties", "AuthorizationProperties", "ScreenTimeReference", "PropertyTesting"]),
        .target(
            name: "ReferenceProperties",
            dependencies: ["FuzzHarnesses", "StructuredFuzzTargets", "ShieldProperties", "AuthorizationProperties", "ScreenTimeReference", "PropertyTesting", "StrictJSON"]),
        .target(name: "Conformance", dependencies: ["ScreenTimeReference", "StrictJSON"]),
        // `stc bench`: timing harness and the benchmarks (Foundation only for the comparisons).
        .target(name: "Benchmarking", dependencies: ["Conformance", "PropertyTesting", "ScreenTimeReference", "StrictJSON"]),
        .executableTarget(name: "stc", dependencies: ["Benchmarking", "Conformance", "FuzzHarnesses", "PropertyTesting", "ReferenceProperties", "ScreenTimeReference", "StrictJSON"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        .testTarget(name: "ScreenTimeReferenceTests", dependencies: ["ScreenTimeReference", "ScreenTimeSelection", "StrictJSON", "PropertyTesting"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["Conformance", "ScreenTimeReference", "StrictJSON"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "PropertyTestingTests", dependencies: ["PropertyTesting"]),
        .testTarget(
            name: "ReferencePropertiesTests",
            dependencies: [
                "FuzzHarnesses", "EncodingFuzzTargets", "ReferenceProperties", "ShieldProperties", "AuthorizationProperties",
                "StructuredFuzzTargets", "ScreenTimeReference", "PropertyTesting",
            ]),
        // End-to-end: runs the built `stc` binary and checks output and exit codes.
        .testTarget(name: "StcTests", dependencies: ["stc"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz builds, too: ASan's stack-use-after-return detection (a fake stack frame, taken from ASan's allocator, for
// every call of a function with an addressable local; on by default since LLVM 15) only in the modules that hand
// out the address of a stack buffer: `withUnsafeTemporaryAllocation`, `withUnsafe[Mutable]Bytes(of:)`,
// `withUnsafe[Mutable]Pointer(to:)`. Elsewhere no stack address outlives its call (safe Swift gives none out), so
// the check cannot fire, and its fake frames took 14–23 % of the time of `shield` and `auth` (Fuzz/README.md,
// "Stack-use-after-return only where stack addresses are handed out"). A test keeps this list equal to the modules
// that use those calls. The fuzz build stamp (FuzzBuild.flagsLine) names the flag, like the coverage flags above.
let fakeStackFrameModules: Set<String> = ["ScreenTimeSelection", "ScreenTimeEncoding", "EncodingFuzzTargets", "Benchmarking"]
if fuzzBuild {
    for target in package.targets where target.type == .regular && !fakeStackFrameModules.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xllvm", "-asan-use-after-return=never"])]
    }
}
