import Foundation
import _CommandSupport
import _FuzzCorpus
import _Subprocess

/// Child processes: the Fuzz build and the fuzzer binaries, run by `_Subprocess`.
enum FuzzProcess {
    struct Output {
        var termination: Termination
        /// Merged standard output and standard error (the end of it, see ``run(_:_:environment:currentDirectory:keep:onLine:)``).
        var text: String

        /// The exit code, or the signal number when ``crashedBySignal``.
        var status: Int32 {
            switch termination {
            case .exited(let code), .signaled(let code): return code
            case .unknown: return -1
            }
        }
        var crashedBySignal: Bool {
            if case .signaled = termination { return true }
            return false
        }
    }

    /// The environment for fuzzer binaries: Swift's backtracer off, or traps look like ASan reports and
    /// libFuzzer never writes the crashing input.
    ///
    /// `throughput`: the ASan options for fuzzing (not for replaying a crash), ``throughputASanDefaults``.
    static func fuzzerEnvironment(throughput: Bool = false) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        if throughput { env["ASAN_OPTIONS"] = FuzzDefaults.throughputASanOptions(env["ASAN_OPTIONS"]) }
        return env
    }

    /// Runs `executable` with `arguments`; stdout and stderr are merged and passed line by line to `onLine`
    /// (and collected, up to `keep` bytes from the end).
    ///
    /// The child stays in stc's process group: these are foreground jobs for the user (a build, a fuzzer), and
    /// a terminal's Ctrl-C must reach them as it reaches stc.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, keep: Int = 1 << 20, onLine: (String) -> Void = { _ in }
    ) throws -> Output {
        let command = _Subprocess.Command(
            executable, arguments, environment: environment, directory: currentDirectory, newProcessGroup: false)
        let result = try withoutActuallyEscaping(onLine) { onLine in
            try Subprocess.run(command, stdout: .captureTail(keep), stderr: .stdout, onStdoutLine: onLine)
        }
        return Output(termination: result.termination, text: result.stdoutText)
    }

    /// Runs `executable` to the end with its standard output and standard error kept apart (for a command whose
    /// output is read, such as `swift package dump-package`).
    static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        let command = _Subprocess.Command(executable, arguments, environment: environment, newProcessGroup: false)
        let result = try Subprocess.run(command)
        return (result.termination.shellStatus, result.stdout, result.stderrText)
    }

    /// Whether the libFuzzer in `binary` knows `flag` (its `-help=1` lists it). An older libFuzzer warns about a
    /// flag it does not know and carries on without it: a merge flag it ignores would start a fuzzing run.
    static func accepts(_ binary: String, flag: String) throws -> Bool {
        let help = try run(binary, ["-help=1"], environment: fuzzerEnvironment())
        return help.text.split(separator: "\n").contains { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) == flag
        }
    }

    /// `name` on the PATH (`swift`: SwiftPM itself).
    static func which(_ name: String) -> String? { _Subprocess.Command.which(name) }
}
