// swift-tools-version:6.0
// A blocker app's own code, tested with the ScreenTimeTesting kit: in process by `swift test`, and through its
// adapter by `stc conformance` and `stc explore`. README.md beside this file shows what the reports say.
import PackageDescription

let package = Package(
    name: "BlockerApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "ScreenTimeConformance", path: "../..")],
    targets: [
        // The app's code as it sits in the iOS app: FamilyControls and ManagedSettings there, the reference here.
        .target(
            name: "BlockerApp",
            dependencies: [.product(name: "ScreenTimeReference", package: "ScreenTimeConformance")]),
        // The app's functions described for the kit, shared by the tests and the adapter.
        .target(
            name: "BlockerAppChecks",
            dependencies: ["BlockerApp", .product(name: "ScreenTimeTesting", package: "ScreenTimeConformance")]),
        .executableTarget(name: "blocker-adapter", dependencies: ["BlockerAppChecks"]),
        .testTarget(name: "BlockerAppTests", dependencies: ["BlockerApp", "BlockerAppChecks"]),
    ],
    swiftLanguageModes: [.v6]
)
