// swift-tools-version:6.0
// The Screen Time conformance and fuzz suite.
//
// Every module is one row of `modules` below: what it is for, what it needs, and what a fuzz build gives it.
// Products, targets and the fuzz-build settings are derived from that table; `stc fuzz` and scripts/ci-fuzz.sh
// read the result back with `swift package dump-package` instead of keeping lists of their own.
import PackageDescription

/// What a module is for. Users pick from the first four tiers; the fuzz and support tiers are internal (their
/// names start with `_`, as swift-collections does for `_RopeModule`) and offer products only because
/// `Fuzz/Package.swift` and `Lab/Package.swift` must name the modules they link.
enum Role {
    /// The reference implementation and its parts: the code under test.
    case reference
    /// The property-testing engine and the Screen Time generators and properties built on it.
    case properties
    /// Vectors, the operation table, implementations, the runner, reports, the explorer, and the testing kit
    /// over them.
    case conformance
    /// `stc` and what only it uses.
    case tool
    /// Fuzz harness bodies and their plumbing.
    case fuzz
    /// Internal plumbing shared by stc, conformance, the tests and the lab (names start with `_`).
    case support
}

/// One module: a row of the table.
struct Module {
    let name: String
    let role: Role
    let dependencies: [String]
    /// Offered as a library product (a user-facing module, or a harness module `Fuzz/Package.swift` links).
    let product: Bool
    /// A fuzz build gives it libFuzzer's coverage instrumentation: the code under test (the default for
    /// `.reference`), and the harnesses whose branches lead the fuzzer somewhere. Generators, properties and checks
    /// get ASan alone, so that libFuzzer's per-edge work goes to the reference's edges
    /// (docs/PERFORMANCE.md#decisions).
    let fuzzCoverage: Bool
    /// Hands out the address of a stack buffer (`withUnsafeTemporaryAllocation`, `withUnsafeBytes(of:)`,
    /// `withUnsafePointer(to:)` and their mutable forms), so a fuzz build keeps ASan's stack-use-after-return
    /// check here. Elsewhere no stack address outlives its call, the check cannot fire, and its fake frames only
    /// cost time. A test keeps this equal to the modules that make those calls.
    let handsOutStackAddresses: Bool
    let linkerSettings: [LinkerSetting]
    /// Build-tool plugins of this package that run when the module builds.
    let plugins: [String]
    /// Paths in the module's directory that are not its sources.
    let exclude: [String]

    init(
        _ name: String, _ role: Role, dependencies: [String] = [], product: Bool = false, fuzzCoverage: Bool? = nil,
        handsOutStackAddresses: Bool = false, linkerSettings: [LinkerSetting] = [], plugins: [String] = [],
        exclude: [String] = []
    ) {
        // The tier shows in the name: a user never sees an underscore module offered as if it were for them.
        precondition(
            name.hasPrefix("_") == (role == .fuzz || role == .support),
            "\(name): fuzz and support modules, and only they, start with _")
        self.name = name
        self.role = role
        self.dependencies = dependencies
        self.product = product
        self.fuzzCoverage = fuzzCoverage ?? (role == .reference)
        self.handsOutStackAddresses = handsOutStackAddresses
        self.linkerSettings = linkerSettings
        self.plugins = plugins
        self.exclude = exclude
    }
}

let modules: [Module] = [
    // Internal plumbing: the one process runner (spawn, pipes drained without deadlock, time limits, process
    // groups) of conformance, stc, the tests and the lab. Foundation only.
    Module("_Subprocess", .support),

    // The reference (Foundation only, no test code).
    Module(
        "StrictJSON", .reference,
        // Double rounding calls into libm, which nothing else links on Linux when Foundation is not imported.
        linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    // Property lists read and written by our own code (SPEC.md §1.2), not PropertyListSerialization.
    Module("StrictPropertyList", .reference),
    Module(
        "ScreenTimeSelection", .reference, dependencies: ["StrictJSON", "StrictPropertyList"],
        handsOutStackAddresses: true),
    Module("ScreenTimeEncoding", .reference, dependencies: ["StrictJSON"], handsOutStackAddresses: true),
    // DeviceActivity under iOS's names, with the simulator that stands in for the system (SPEC.md §8).
    Module("ScreenTimeActivity", .reference, dependencies: ["ScreenTimeSelection"]),
    Module(
        "ScreenTimeReference", .reference,
        dependencies: ["ScreenTimeActivity", "ScreenTimeSelection", "ScreenTimeEncoding", "StrictJSON"],
        product: true),

    // Property testing.
    Module("PropertyTesting", .properties, product: true),
    Module("FoundationBaseline", .properties),
    Module(
        "ScreenTimeProperties", .properties,
        dependencies: ["FoundationBaseline", "PropertyTesting", "ScreenTimeReference", "StrictJSON"], product: true),

    // Conformance.
    Module(
        "Conformance", .conformance, dependencies: ["_Subprocess", "ScreenTimeReference", "StrictJSON"], product: true),
    Module(
        "Exploration", .conformance,
        dependencies: ["Conformance", "PropertyTesting", "ScreenTimeProperties", "ScreenTimeReference", "StrictJSON"]),
    // corpus/conformance/*.json built in (Plugins/EmbedShippedVectors), so that no one needs a path to them. `Suites`
    // links to that directory, so that SwiftPM, which watches module directories, plans again when a suite is added.
    Module(
        "ShippedVectors", .conformance, dependencies: ["Conformance"], plugins: ["EmbedShippedVectors"],
        exclude: ["Suites"]),
    // The testing kit: a user's own Swift code against the vectors and the explorer, in their test target.
    Module(
        "ScreenTimeTesting", .conformance,
        dependencies: ["Conformance", "Exploration", "ScreenTimeReference", "ShippedVectors", "StrictJSON"],
        product: true),

    // The tool's command plumbing, shared with the lab's `lab` (Lab/Package.swift): the command table and its
    // dispatch, the argument scanner, the console and progress lines.
    Module("_CommandSupport", .support, dependencies: ["Conformance"]),

    // Fuzzing (internal). Each byte-level fuzz binary links only its harness module and what that tests:
    // libFuzzer scans every coverage counter of a binary after each execution.
    Module("_FuzzCore", .fuzz),
    Module("_JSONFuzzTargets", .fuzz, dependencies: ["_FuzzCore", "StrictJSON"], product: true),
    Module(
        "_SelectionFuzzTargets", .fuzz, dependencies: ["_FuzzCore", "ScreenTimeSelection"], product: true,
        fuzzCoverage: true),
    Module(
        "_EncodingFuzzTargets", .fuzz, dependencies: ["_FuzzCore", "ScreenTimeEncoding", "StrictJSON"],
        product: true, handsOutStackAddresses: true),
    Module(
        "_DifferentialFuzzTargets", .fuzz,
        dependencies: [
            "_FuzzCore", "FoundationBaseline", "ScreenTimeSelection", "StrictJSON", "StrictPropertyList",
        ], product: true,
        fuzzCoverage: true),
    // DeviceActivity (SPEC §8): timelines through the monitoring engine, and our calendar matching against
    // Foundation's `Calendar`. Coverage like _DifferentialFuzzTargets: its deviation checks are the fuzzer's only
    // view of Foundation's answers.
    Module(
        "_ActivityFuzzTargets", .fuzz, dependencies: ["_FuzzCore", "ScreenTimeActivity", "ScreenTimeSelection"],
        product: true, fuzzCoverage: true),
    Module(
        "_StructuredFuzzTargets", .fuzz,
        dependencies: ["_FuzzCore", "PropertyTesting", "ScreenTimeProperties", "ScreenTimeReference"], product: true),
    Module(
        "_FuzzCorpus", .fuzz,
        dependencies: [
            "_FuzzCore", "_JSONFuzzTargets", "_SelectionFuzzTargets", "_EncodingFuzzTargets",
            "_DifferentialFuzzTargets", "_ActivityFuzzTargets",
            "_StructuredFuzzTargets", "PropertyTesting",
        ]),
]

// What the test targets share (package root, fixtures, temporary directories, the built `stc`, subprocesses,
// the Swift Testing bridge of property results): a plain target under Tests/, linked by test targets only.
let testSupport = Module("_TestSupport", .support, dependencies: ["_Subprocess", "PropertyTesting"])

// Fuzz builds (`stc fuzz run`, scripts/ci-fuzz.sh) set SCREENTIME_FUZZ_COVERAGE=1 and build the Fuzz package with
// `--sanitize=address`. Then the modules with `fuzzCoverage` get what `-sanitize=fuzzer` gives on Linux (edge
// counters, PC table, indirect calls, stack depth) without comparison tracing, which reached no more edges and cost
// executions. SwiftPM puts a target's own flags after its `--sanitize`, and the later `-sanitize=` wins. Unset, as
// in every other build, this adds nothing. (Set for a build of this package itself, it fails to link: undefined
// `__sancov_lowest_stack`. Only the Fuzz package's build sets it.)
let fuzzBuild = Context.environment["SCREENTIME_FUZZ_COVERAGE"] == "1"

func fuzzSettings(_ module: Module) -> [SwiftSetting] {
    guard fuzzBuild else { return [] }
    var flags: [String] = []
    if module.fuzzCoverage {
        flags += [
            "-sanitize=address", "-sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table",
            "-Xllvm", "-sanitizer-coverage-stack-depth",
        ]
    }
    if !module.handsOutStackAddresses { flags += ["-Xllvm", "-asan-use-after-return=never"] }
    return flags.isEmpty ? [] : [.unsafeFlags(flags)]
}

/// The modules Lab/Package.swift imports: it depends on this package by path and links them through one internal
/// product, so that the products a user sees stay the five of the README.
let labModules = [
    "_CommandSupport", "_FuzzCorpus", "Conformance", "Exploration", "FoundationBaseline", "PropertyTesting",
    "ScreenTimeProperties", "ScreenTimeReference", "StrictJSON", "_Subprocess",
]

let package = Package(
    name: "ScreenTimeConformance",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: modules.filter(\.product).map { .library(name: $0.name, targets: [$0.name]) } + [
        .executable(name: "stc", targets: ["stc"]),
        // What the lab (Lab/Package.swift: benchmarks, bug finding, mutation testing) links; not for users.
        .library(name: "_ScreenTimeLab", targets: labModules),
        // The test support every test target uses, the lab's too: package root, fixtures, temporary directories,
        // running built products.
        .library(name: "_ScreenTimeTestSupport", targets: ["_TestSupport"]),
        // `swift package stc …` in a package that depends on this one.
        .plugin(name: "StcPlugin", targets: ["StcPlugin"]),
    ],
    targets: modules.map { module in
        .target(
            name: module.name, dependencies: module.dependencies.map { .target(name: $0) }, exclude: module.exclude,
            swiftSettings: fuzzSettings(module), linkerSettings: module.linkerSettings,
            plugins: module.plugins.map { .plugin(name: $0) })
    } + [
        .target(
            name: testSupport.name, dependencies: testSupport.dependencies.map { .target(name: $0) },
            path: "Tests/TestSupport", swiftSettings: fuzzSettings(testSupport)),
        .executableTarget(
            name: "stc",
            dependencies: [
                "_CommandSupport", "Conformance", "Exploration", "_FuzzCorpus", "PropertyTesting",
                "ScreenTimeProperties", "ScreenTimeReference", "ShippedVectors", "StrictJSON", "_Subprocess",
            ]),
        .executableTarget(name: "ShippedVectorsGenerator"),
        .plugin(name: "EmbedShippedVectors", capability: .buildTool(), dependencies: ["ShippedVectorsGenerator"]),
        .plugin(
            name: "StcPlugin",
            capability: .command(
                intent: .custom(verb: "stc", description: "run stc (conformance, explore, inspect, check, …)"))),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        .testTarget(name: "StrictPropertyListTests", dependencies: ["StrictPropertyList", "_TestSupport"]),
        .testTarget(
            name: "ScreenTimeReferenceTests",
            dependencies: [
                "ScreenTimeReference", "ScreenTimeSelection", "StrictJSON", "PropertyTesting", "_TestSupport",
            ]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["Conformance", "ScreenTimeReference", "ShippedVectors", "StrictJSON", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "PropertyTestingTests", dependencies: ["PropertyTesting", "_TestSupport"]),
        .testTarget(
            name: "ScreenTimePropertiesTests",
            dependencies: ["ScreenTimeProperties", "ScreenTimeReference", "PropertyTesting", "_TestSupport"]),
        .testTarget(
            name: "ExplorationTests",
            dependencies: ["Exploration", "Conformance", "ScreenTimeReference", "StrictJSON", "_TestSupport"]),
        .testTarget(
            name: "FuzzTargetTests",
            dependencies: [
                "_FuzzCorpus", "_ActivityFuzzTargets", "_DifferentialFuzzTargets", "_EncodingFuzzTargets",
                "_StructuredFuzzTargets",
                "FoundationBaseline",
                "ScreenTimeProperties", "ScreenTimeReference", "PropertyTesting", "StrictJSON", "_TestSupport",
            ]),
        .testTarget(
            name: "ScreenTimeTestingTests",
            dependencies: [
                "ScreenTimeTesting", "Conformance", "Exploration", "StrictJSON", "testing-kit-fixture", "_TestSupport",
            ]),
        // The kit's adapter over the reference, which ScreenTimeTestingTests runs as a subprocess.
        .executableTarget(
            name: "testing-kit-fixture", dependencies: ["ScreenTimeTesting"], path: "Tests/TestingKitFixture"),
        // End-to-end: runs the built `stc` binary and checks output and exit codes.
        .testTarget(
            name: "StcTests", dependencies: ["stc", "_CommandSupport", "_FuzzCorpus", "StrictJSON", "_TestSupport"],
            exclude: ["Goldens"]),
        .testTarget(name: "SubprocessTests", dependencies: ["_Subprocess"]),
    ],
    swiftLanguageModes: [.v6]
)
