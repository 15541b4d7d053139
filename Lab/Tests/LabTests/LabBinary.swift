import Foundation
import _TestSupport

/// Runs the built `lab` executable, as a user would, from the product package's root (``PackagePaths/root``),
/// through the product's one runner.
enum LabBinary {
    /// The product package: the lab's parent directory.
    static var packageRoot: URL { PackagePaths.root }

    /// `lab` beside the test bundle (SwiftPM builds both into the same products directory).
    static let path: String? = BuiltProducts.path("lab")

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum Failure: Error { case binaryNotFound }

    /// Runs `lab` with `arguments` in `currentDirectory` (the product package by default), its output captured;
    /// a run longer than 20 minutes is killed.
    static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> Run {
        guard let path else { throw Failure.binaryNotFound }
        let command = Command(path, arguments, directory: (currentDirectory ?? packageRoot).path)
        let result = try Subprocess.run(command, timeLimit: 1200)
        return Run(status: result.termination.shellStatus, stdout: result.stdoutText, stderr: result.stderrText)
    }
}
