import Foundation
import _TestSupport

/// The root package as SwiftPM reads it (`swift package dump-package`, with the fuzz build's variable set), for
/// tests that check what the manifest's module table gives.
struct PackageManifest {
    var libraryProducts: [String]
    var regularTargets: [String]
    /// The Swift `define` settings of each target.
    var defines: [String: [String]] = [:]

    static let root = PackagePaths.root

    enum Failure: Error {
        case dumpPackage(status: Int32, stderr: String)
        case notJSON
    }

    /// Runs `swift package dump-package` with a scratch path of its own: the package's `.build` is locked by the
    /// `swift test` that runs this.
    static func dump(environment extra: [String: String] = [:]) throws -> PackageManifest {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stc-tests-dump-package" + extra.keys.sorted().map { "-" + $0 }.joined()
        ).path
        var environment = ["SCREENTIME_FUZZ_COVERAGE": "1"]
        environment.merge(extra) { _, given in given }
        let command = Command(
            "swift", ["package", "--package-path", root.path, "--scratch-path", scratch, "dump-package"]
        ).setting(environment)
        let result = try Subprocess.run(command, timeLimit: 600)
        guard result.succeeded else {
            throw Failure.dumpPackage(status: result.termination.shellStatus, stderr: result.stderrText)
        }
        guard let document = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
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
