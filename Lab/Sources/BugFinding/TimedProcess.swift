import Foundation

/// A child process run to its end (or killed at a hard limit), with its wall time and output.
///
/// Rule: the wall time runs from just before the spawn to the exit, so it holds start-up as a user waits for it;
/// output goes to a file (never a pipe that could fill up while nobody reads it) and is read afterwards.
struct TimedProcess {
    struct Outcome {
        /// Exit status, or the signal number when `signaled`.
        var status: Int32
        var signaled: Bool
        var seconds: Double
        var output: String
        /// Killed at the hard limit.
        var killed: Bool

        /// The last `lines` lines of the output.
        func tail(_ lines: Int = 20) -> String {
            output.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
        }
    }

    struct LaunchFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with `arguments`, the current environment plus `environment`, in `directory`; kills it
    /// `limit` seconds after the spawn.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        limit: Double
    ) throws(LaunchFailure) -> Outcome {
        let fm = FileManager.default
        let log = fm.temporaryDirectory.appendingPathComponent("stc-bugs-\(UUID().uuidString).log")
        guard fm.createFile(atPath: log.path, contents: nil), let handle = try? FileHandle(forWritingTo: log) else {
            throw LaunchFailure(description: "cannot create \(log.path)")
        }
        defer {
            try? handle.close()
            try? fm.removeItem(at: log)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let started = DispatchTime.now()
        do {
            try process.run()
        } catch {
            throw LaunchFailure(description: "cannot start \(executable): \(error)")
        }
        var killed = false
        if exited.wait(timeout: started + limit) == .timedOut {
            killed = true
            process.terminate()
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            seconds: seconds, output: output, killed: killed)
    }
}
