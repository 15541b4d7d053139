// swift-tools-version:6.0
// The lab: what measures the suite rather than what the suite is. The benchmarks (`lab bench`), the bug-finding
// benchmark with its planted bugs (`lab bench --filter bugs`), mutation testing (`lab mutate`), the public shrinking
// challenge and the naive fuzz baseline (Naive/). A package of its own that depends on the product by path, as
// swift-collections keeps its benchmarks in Benchmarks/Package.swift: a package that depends on the product never
// compiles any of it.
//
//     swift run -c release --package-path Lab lab bench
//     swift test --package-path Lab
import PackageDescription

let product = "ScreenTimeConformance"
/// The product's modules the lab links, all through its one internal product.
let suite = Target.Dependency.product(name: "_ScreenTimeLab", package: product)
/// The product's test support (package root, temporary directories, running built products), for every test target.
let testSupport = Target.Dependency.product(name: "_ScreenTimeTestSupport", package: product)

let package = Package(
    name: "ScreenTimeLab",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: product, path: "..")],
    targets: [
        // The public shrinking challenge as a catalog: the lab's tests and `lab bench` run the same definitions.
        .target(name: "ShrinkingChallenges", dependencies: [suite]),
        .target(name: "Benchmarking", dependencies: [suite, "ShrinkingChallenges"]),
        // `lab mutate`: the mutation score of the product's tests over the reference (a lexer, the operators, a
        // mutant schema built in a copy of the package, the kill checks, the report). It reads the reference as
        // text and runs the copy's build and tests as processes (the product's `_Subprocess`).
        .target(name: "MutationTesting", dependencies: [suite]),
        // The bug-finding benchmark: the planted bugs (Plants/planted-bugs.patch, applied to a copy of the
        // package), the hammers that look for them, the naive baseline (docs/BUG-FINDING.md).
        .target(name: "BugFinding", dependencies: [suite, "MutationTesting"]),
        .executableTarget(name: "lab", dependencies: [suite, "Benchmarking", "BugFinding", "MutationTesting"]),
        .testTarget(name: "ShrinkingChallengesTests", dependencies: [suite, testSupport, "ShrinkingChallenges"]),
        .testTarget(name: "MutationTestingTests", dependencies: [testSupport, "MutationTesting"]),
        .testTarget(name: "BugFindingTests", dependencies: [suite, testSupport, "BugFinding", "MutationTesting"]),
        // End-to-end: runs the built `lab` and checks its output, exit codes and help.
        .testTarget(name: "LabTests", dependencies: ["lab", suite, testSupport], exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)
