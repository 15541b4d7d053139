// swift-tools-version:6.0
// libFuzzer targets for the Screen Time reference. Its own package, so that `swift test` at the root never
// needs libFuzzer. Build with (or simply `stc fuzz run TARGET`):
//   SCREENTIME_FUZZ_COVERAGE=1 swift build -c release --sanitize=address \
//     -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0
// SCREENTIME_FUZZ_COVERAGE=1 gives libFuzzer's coverage instrumentation, without comparison tracing, to the code
// under test and two harness modules (see the root Package.swift); everything else gets ASan alone, and each
// binary links libFuzzer through its own linker flags below. (`--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address`
// still builds working fuzzers, with coverage and comparison tracing of every module.) Each target is a thin shim
// over a harness body in the root package, which `swift test` at the root also runs on every corpus file.
//
// Every directory under Sources/ is one target, named like the FuzzTarget it runs (`stc fuzz list`); adding a
// target is adding its shim directory.
import Foundation
import PackageDescription

let sources = Context.packageDirectory + "/Sources"
let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [])
    .filter { !$0.hasPrefix(".") }
    .sorted()

// libFuzzer scans every coverage counter in the binary after each execution, so a binary that carries code it
// never runs is slower for nothing. Each target links only its harness module and what that tests: the
// structured targets run the shield and auth property families (StructuredFuzzTargets, without the rest of the
// catalog); the selection targets need the codec alone (9.1k counters against 17.2k with all of the reference,
// and 22–44 % more executions per second); url and template the encodings alone; the differential target the
// codec and its Foundation counterpart. A new target links FuzzHarnesses (every byte-level target) until it has
// a module of its own.
let harnessModules: [String: [String]] = [
    "shield": ["StructuredFuzzTargets"], "auth": ["StructuredFuzzTargets"],
    "selection-decode": ["SelectionFuzzTargets"], "selection-json": ["SelectionFuzzTargets"],
    "selection-differential": ["DifferentialFuzzTargets"],
    "url": ["EncodingFuzzTargets"], "template": ["EncodingFuzzTargets"],
]

// The fuzz build of `stc fuzz run` (SCREENTIME_FUZZ_COVERAGE=1, `--sanitize=address`): SwiftPM does not know that
// the binaries are fuzzers, so each links libFuzzer itself and its shim's `@main` starts libFuzzer
// (LIBFUZZER_DRIVER_MAIN). Built with `--sanitize=fuzzer` instead, SwiftPM does both as usual.
let ownsLibFuzzer = Context.environment["SCREENTIME_FUZZ_COVERAGE"] == "1"

let package = Package(
    name: "ScreenTimeFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ScreenTimeConformance", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["LibFuzzerDriver"]
                + (harnessModules[name] ?? ["FuzzHarnesses"]).map { .product(name: $0, package: "ScreenTimeConformance") },
            path: "Sources/\(name)",
            swiftSettings: ownsLibFuzzer ? [.define("LIBFUZZER_DRIVER_MAIN")] : [],
            linkerSettings: ownsLibFuzzer ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])
    } + [.target(name: "LibFuzzerDriver", path: "LibFuzzerDriver")]
)
