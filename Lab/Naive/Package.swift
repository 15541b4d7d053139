// swift-tools-version:6.0
// The naive baseline of the bug-finding benchmark (docs/BUG-FINDING.md): the fuzz harness a user writes first, one
// per family. Bytes go straight into the public API (`Data(base64Encoded:)` + `JSONDecoder`, or the plain call);
// the only oracle is a crash; built as a user would build it (`swift build -c release --sanitize=fuzzer
// --sanitize=address`), with no dictionary, no seeds and no structured generation. `lab bench --filter bugs`
// builds it against the planted reference and runs it beside our fuzz targets with the same seeds and cap.
import PackageDescription

let harnesses = [
    "naive-activity", "naive-auth", "naive-selection", "naive-settings", "naive-shield", "naive-template", "naive-url",
]

let package = Package(
    name: "NaiveFuzzBaseline",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ScreenTimeConformance", path: "../..")],
    targets: harnesses.map { name in
        .executableTarget(
            name: name, dependencies: [.product(name: "ScreenTimeReference", package: "ScreenTimeConformance")],
            path: "Sources/\(name)")
    }
)
