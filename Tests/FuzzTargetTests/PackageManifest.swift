import Foundation

/// The root package as SwiftPM reads it (`swift package dump-package`, with the fuzz build's variable set), for
/// tests that check what the manifest's module table gives.
struct PackageManifest {
    var libraryProducts: [String]
    var regularTargets: [String]
    /// The Swift `define` settings of each target.
    var defines: [String: [String]] = [:]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    enum Failure: Error {
        case dumpPackage(status: Int32, stderr: String)
        case notJSON
    }

    /// Runs `swift package dump-package` with a scratch path of its own: the package's `.build` is locked by the
    /// `swift test` that runs this.
    static func dump(environment extra: [String: String] = [:]) throws -> PackageManifest {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stc-tests-dump-package" + extra.keys.sorted().map { "-" + $0 }.joined()
        ).path
        process.arguments = [
            "swift", "package", "--package-path", root.path, "--scratch-path", scratch, "dump-package",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SCREENTIME_FUZZ_COVERAGE"] = "1"
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.dumpPackage(
                status: process.terminationStatus, stderr: String(decoding: errData, as: UTF8.self))
        }
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let products = document["products"] as? [[String: Any]],
            let targets = document["targets"] as? [[String: Any]]
        else { throw Failure.notJSON }
        var manifest = PackageManifest(
            libraryProducts: products.filter { ($0["type"] as? [String: Any])?["library"] != nil }.compactMap {
                $0["name"] as? String
            },
            regularTargets: targets.filter { $0["type"] as? String == "regular" }.compactMap { $0["name"] as? String })
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            let settings = target["settings"] as? [[String: Any]] ?? []
            manifest.defines[name] = settings.compactMap {
                (($0["kind"] as? [String: Any])?["define"] as? [String: Any])?["_0"] as? String
            }
        }
        return manifest
    }
}
