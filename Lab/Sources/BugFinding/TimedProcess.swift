import Foundation
import _Subprocess

/// A child process run to its end (or killed at a hard limit), with its wall time and output.
///
/// Rule: the wall time runs from just before the spawn to the exit, so it holds start-up as a user waits for it;
/// output goes to a file (never a pipe that could fill up while nobody reads it) and is read afterwards; a run
/// past its limit is killed with its whole process group (a fuzzer's children, a build's compilers).
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

    /// Runs `executable` with `arguments`, the current environment plus `environment`, in `directory`; kills its
    /// process group `limit` seconds after the spawn (the product's one runner, `_Subprocess`).
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - environment: variables set on top of this process's environment.
    ///   - directory: its working directory; nil: this process's.
    ///   - limit: seconds after which its group is killed.
    /// - Returns: how it ended, its wall time and its output.
    /// - Throws: ``LaunchFailure`` when it cannot start or its log cannot be made.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        limit: Double
    ) throws(LaunchFailure) -> Outcome {
        let fm = FileManager.default
        let log = fm.temporaryDirectory.appendingPathComponent("lab-bugs-\(UUID().uuidString).log").path
        defer { try? fm.removeItem(atPath: log) }
        let command = Command(executable, arguments, directory: directory).setting(environment)
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(command, stdout: .file(log), stderr: .stdout, timeLimit: limit)
        } catch {
            throw LaunchFailure(description: "cannot start \(executable): \(error)")
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let (status, signaled): (Int32, Bool) =
            switch result.termination {
            case .exited(let code): (code, false)
            case .signaled(let signal): (signal, true)
            case .unknown: (-1, false)
            }
        return Outcome(
            status: status, signaled: signaled, seconds: result.seconds, output: output, killed: result.timedOut)
    }
}
