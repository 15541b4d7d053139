import Foundation

/// The executables this package builds (`stc`, `testing-kit-fixture`), found where SwiftPM put the test bundle.
///
/// Rule: SwiftPM builds products and test bundles into the same products directory, so the search goes up from
/// the running test binary (`CommandLine.arguments[0]`, inside a bundle on macOS) a few levels; the package's
/// `.build/debug` is the last resort.
///
/// ```swift
/// let fixture = try #require(BuiltProducts.path("testing-kit-fixture"))
/// ```
public enum BuiltProducts {
    /// The path of the built executable `name`, or nil when it was not built.
    public static func path(_ name: String) -> String? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = PackagePaths.path(".build/debug/\(name)")
        return FileManager.default.isExecutableFile(atPath: fallback) ? fallback : nil
    }
}

/// Runs the built `stc` executable, as a user would: from the package root unless told otherwise, with its
/// output captured.
///
/// ```swift
/// let run = try StcBinary.run(["conformance", "--json"])
/// #expect(run.status == 0, "\(run.stderr)")
/// ```
public enum StcBinary {
    /// `stc` beside the test bundle.
    public static let url: URL? = BuiltProducts.path("stc").map(URL.init(fileURLWithPath:))

    /// The package root (``PackagePaths/root``), the default working directory of a run.
    public static var packageRoot: URL { PackagePaths.root }

    /// What a run gave.
    public struct Run: Sendable {
        /// The exit code, or 128 plus the signal, as a shell shows it.
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public enum Failure: Error { case binaryNotFound }

    /// Runs `stc arguments`, its standard input `stdin`.
    ///
    /// - Parameters:
    ///   - environment: variables set (a `nil` value removes one) on top of this process's environment.
    ///   - timeLimit: seconds after which the run is killed; a test must never hang on a broken `stc`.
    public static func run(
        _ arguments: [String], stdin: Data = Data(), currentDirectory: URL? = nil,
        environment: [String: String?] = [:], timeLimit: Double = 600
    ) throws -> Run {
        guard let url else { throw Failure.binaryNotFound }
        let command = Command(url.path, arguments, directory: (currentDirectory ?? packageRoot).path)
            .setting(environment)
        let result = try Subprocess.run(command, input: .bytes([UInt8](stdin)), timeLimit: timeLimit)
        return Run(status: result.termination.shellStatus, stdout: result.stdoutText, stderr: result.stderrText)
    }
}
