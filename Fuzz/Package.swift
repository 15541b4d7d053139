// swift-tools-version:6.0
// libFuzzer targets for the Screen Time reference. Its own package, so that `swift test` at the root never
// needs libFuzzer. Build with:
//   swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
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
