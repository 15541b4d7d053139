import Foundation
import StrictJSON
import _CommandSupport

/// The root package's modules as a fuzz build sees them, read from the manifest itself
/// (`SCREENTIME_FUZZ_COVERAGE=1 swift package dump-package`): Package.swift's module table is the one place the
/// fuzz-build flags are written, and stc derives what it needs from it rather than keeping a copy.
///
/// ```swift
/// let manifest = try FuzzManifest.read(root: "/path/to/repo", swift: "/usr/bin/swift")
/// manifest.modules.first { $0.name == "StrictJSON" }?.hasCoverage   // true
/// ```
struct FuzzManifest: Equatable {
    /// One regular (library) module and the Swift compiler flags the fuzz build gives it.
    struct Module: Equatable {
        var name: String
        var swiftFlags: [String]

        /// libFuzzer's coverage instrumentation (`-sanitize-coverage=…`).
        var hasCoverage: Bool { swiftFlags.contains { $0.hasPrefix("-sanitize-coverage=") } }
        /// ASan's stack-use-after-return check is kept (not turned off with `-asan-use-after-return=never`).
        var keepsFakeStackFrames: Bool { !swiftFlags.contains("-asan-use-after-return=never") }
    }

    var modules: [Module]

    /// What the fuzz build stamp records: one `module NAME: FLAGS` line per module, in the manifest's order.
    var stampLines: [String] { modules.map { "module \($0.name): \($0.swiftFlags.joined(separator: " "))" } }

    /// Runs `swift package dump-package` on the package at `root` with ``FuzzBuild/coverageVariable`` set. Its
    /// scratch path is a temporary directory, never the package's `.build`: SwiftPM locks that one while it
    /// builds or tests, and a `swift test` that runs `stc fuzz modules` would wait on itself.
    static func read(root: String, swift: String) throws -> FuzzManifest {
        let scratch = NSTemporaryDirectory() + "stc-dump-package"
        let arguments = ["package", "--package-path", root, "--scratch-path", scratch, "dump-package"]
        let run = try FuzzProcess.capture(swift, arguments, environment: FuzzBuild.environment())
        guard run.status == 0 else {
            throw CommandFailure(
                "cannot read \(root)/Package.swift (swift package dump-package exited \(run.status)):\n\(run.stderr)")
        }
        return try parse(run.stdout)
    }

    /// The modules of a `dump-package` document: each target of type `regular`, with the flags of its
    /// `unsafeFlags` settings for the Swift compiler, in order.
    static func parse(_ json: [UInt8]) throws -> FuzzManifest {
        let document: JSONValue
        do {
            document = try JSONParser.value(json)
        } catch {
            throw CommandFailure("swift package dump-package printed something that is not JSON (\(error))")
        }
        guard let targets = document["targets"]?.arrayValue else {
            throw CommandFailure("swift package dump-package printed no \"targets\" list")
        }
        var modules: [Module] = []
        for target in targets where target["type"]?.stringValue == "regular" {
            guard let name = target["name"]?.stringValue else { continue }
            var flags: [String] = []
            for setting in target["settings"]?.arrayValue ?? [] where setting["tool"]?.stringValue == "swift" {
                for flag in setting["kind"]?["unsafeFlags"]?["_0"]?.arrayValue ?? [] {
                    if let flag = flag.stringValue { flags.append(flag) }
                }
            }
            modules.append(Module(name: name, swiftFlags: flags))
        }
        return FuzzManifest(modules: modules)
    }
}
