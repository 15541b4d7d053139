import Foundation

/// Runs the built `stc` executable, as a user would.
enum StcBinary {
    /// `stc` beside the test bundle (SwiftPM builds both into the same products directory).
    static let url: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("stc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/stc")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum Failure: Error { case binaryNotFound }

    /// `environment`: variables set (a `nil` value removes one) on top of this process's environment.
    static func run(
        _ arguments: [String], stdin: Data = Data(), currentDirectory: URL? = nil, environment: [String: String?] = [:]
    ) throws -> Run {
        guard let url else { throw Failure.binaryNotFound }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for (name, value) in environment { env[name] = value }
            process.environment = env
        }
        process.currentDirectoryURL = currentDirectory ?? packageRoot
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes concurrently so that neither can fill up and block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
