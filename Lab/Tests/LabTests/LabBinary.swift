import Foundation

/// Runs the built `lab` executable, as a user would, from the product package's root.
enum LabBinary {
    /// The product package: the lab's parent directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `lab` beside the test bundle (SwiftPM builds both into the same products directory).
    static let url: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("lab")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum Failure: Error { case binaryNotFound }

    /// Runs `lab` with `arguments` in `currentDirectory` (the product package by default); stdout and stderr are
    /// files read after the exit, so that neither pipe can fill up and block the child.
    static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> Run {
        guard let url else { throw Failure.binaryNotFound }
        let fm = FileManager.default
        let base = fm.temporaryDirectory.appendingPathComponent("lab-run-\(UUID().uuidString)")
        let out = base.appendingPathExtension("out")
        let err = base.appendingPathExtension("err")
        fm.createFile(atPath: out.path, contents: nil)
        fm.createFile(atPath: err.path, contents: nil)
        defer {
            try? fm.removeItem(at: out)
            try? fm.removeItem(at: err)
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = currentDirectory ?? packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}
