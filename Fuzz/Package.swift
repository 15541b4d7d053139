// swift-tools-version:6.0
// libFuzzer targets for the Screen Time reference. Its own package, so that `swift test` at the root never
// needs libFuzzer. Build with:
//   swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
// (or simply `stc fuzz run TARGET`). Each target is a thin shim over a harness body in ReferenceProperties,
// which `swift test` at the root also runs on every corpus file.
import PackageDescription

let targets = ["selection-decode", "selection-json", "selection-differential"]

let package = Package(
    name: "ScreenTimeFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ScreenTimeConformance", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: name,
            dependencies: [.product(name: "ReferenceProperties", package: "ScreenTimeConformance")],
            path: "Sources/\(name)")
    }
)
