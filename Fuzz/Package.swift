// swift-tools-version:6.0
// libFuzzer targets for the Screen Time reference. Its own package, so that `swift test` at the root never
// needs libFuzzer. `stc fuzz run TARGET` builds it (the command it prints is the whole recipe).
//
// Every directory under Sources/ is one target, named like the FuzzTarget it runs (`stc fuzz list`): a thin shim
// over a harness body in the root package, which `swift test` at the root also runs on every corpus file. A shim's
// binary links the harness modules the shim imports (`import _SelectionFuzzTargets`), and nothing else: libFuzzer
// scans every coverage counter of a binary after each execution, so code a binary never runs only costs time.
// Adding a target is adding its shim directory; nothing here names targets.
import Foundation
import PackageDescription

let sources = Context.packageDirectory + "/Sources"
let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [])
    .filter { !$0.hasPrefix(".") }
    .sorted()

/// The root package's harness modules a shim imports: the lines `import _Name` of its Swift files.
func harnessModules(of target: String) -> [String] {
    let directory = sources + "/" + target
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
        $0.hasSuffix(".swift")
    }
    var modules: [String] = []
    for file in files.sorted() {
        let text = (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("import _") {
            let module = String(line.dropFirst("import ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            if !modules.contains(module) { modules.append(module) }
        }
    }
    return modules
}

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
                + harnessModules(of: name).map { .product(name: $0, package: "ScreenTimeConformance") },
            path: "Sources/\(name)",
            swiftSettings: ownsLibFuzzer ? [.define("LIBFUZZER_DRIVER_MAIN")] : [],
            linkerSettings: ownsLibFuzzer ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])
    } + [.target(name: "LibFuzzerDriver", path: "LibFuzzerDriver")]
)
