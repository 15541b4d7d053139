import Foundation
import _Subprocess

/// A build or test run of the mutation copy: to its end or to a time limit, its output into a log file, in a
/// process group of its own (the product's one runner, `_Subprocess`).
///
/// Why a group of its own: a mutant's test run may start children of its own (the test bundle starts `stc` for
/// some suites), and a run past its time limit must be stopped whole, so the whole group is killed.
///
/// ```swift
/// let outcome = try ChildRun.run("/usr/bin/swift", ["build"], in: copy, log: "/tmp/build.log", timeout: nil)
/// ```
public enum ChildRun {
    public enum End: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
    }

    public struct Outcome: Sendable, Equatable {
        public var end: End
        public var seconds: Double

        public var succeeded: Bool { end == .exited(0) }
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` with `arguments` in `directory` with `environment` (nil: this process's), output and
    /// errors into `log`; kills its process group after `timeout` seconds.
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - directory: its working directory.
    ///   - environment: its whole environment; nil: this process's.
    ///   - log: the file its standard output and error go to (created or truncated).
    ///   - timeout: seconds after which its group is killed; nil: none.
    /// - Returns: how it ended and its wall time.
    /// - Throws: ``SpawnFailure`` when it cannot start.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil,
        log: String, timeout: Double?
    ) throws(SpawnFailure) -> Outcome {
        let command = Command(executable, arguments, environment: environment, directory: directory)
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(command, stdout: .file(log), stderr: .stdout, timeLimit: timeout)
        } catch {
            throw SpawnFailure(description: error.description)
        }
        if result.timedOut { return Outcome(end: .timedOut, seconds: result.seconds) }
        switch result.termination {
        case .exited(let code): return Outcome(end: .exited(code), seconds: result.seconds)
        case .signaled(let signal): return Outcome(end: .signaled(signal), seconds: result.seconds)
        case .unknown: return Outcome(end: .signaled(0), seconds: result.seconds)
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// The first `name` in `PATH` that can be run (``Command/which(_:path:)``).
    public static func which(_ name: String) -> String? { Command.which(name) }
}
