// swift-tools-version:6.0
// libFuzzer targets for the Screen Time reference. Its own package, so that `swift test` at the root never
// needs libFuzzer. Build with:
//   swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
//     -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0
// (or simply `stc fuzz run TARGET`). Each target is a thin shim over a harness body in ReferenceProperties,
// which `swift test` at the root also runs on every corpus file.
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

let package = Package(
    name: "ScreenTimeFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ScreenTimeConformance", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: name,
            dependencies: (harnessModules[name] ?? ["FuzzHarnesses"])
                .map { .product(name: $0, package: "ScreenTimeConformance") },
            path: "Sources/\(name)")
    }
)
