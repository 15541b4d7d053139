import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end or to a time limit, its output into a log file, in a process group of its own.
///
/// Why not Foundation's `Process`: a mutant's test run may start children of its own (the test bundle starts
/// `stc` for some suites), and a run past its time limit must be stopped whole, so the child leads a new process
/// group and the whole group is killed. `posix_spawn` can make the group; the working directory and the
/// redirection are the shell's (`cd DIR && exec PROGRAM … >LOG 2>&1`), so no descriptor of ours is touched and
/// several runs may go on at once from different threads.
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
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil,
        log: String, timeout: Double?
    ) throws(SpawnFailure) -> Outcome {
        let words = ([executable] + arguments).map(shellQuoted).joined(separator: " ")
        let command = "cd \(shellQuoted(directory)) && exec \(words) >\(shellQuoted(log)) 2>&1 </dev/null"
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv = ["/bin/sh", "-c", command]
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        let env = environment ?? ProcessInfo.processInfo.environment
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.keys.sorted().map { strdup("\($0)=\(env[$0]!)") }
        cEnv.append(nil)
        defer { for p in cEnv { free(p) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let rc = posix_spawn(&pid, "/bin/sh", nil, &attributes, cArgs, cEnv)
        guard rc == 0 else { throw SpawnFailure(description: "posix_spawn: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var pause: useconds_t = 1_000
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR {
                throw SpawnFailure(description: "waitpid: \(String(cString: strerror(errno)))")
            }
            let elapsed = seconds(since: start)
            if let timeout, elapsed > timeout {
                _ = kill(-pid, SIGKILL)
                var r2: Int32
                repeat { r2 = waitpid(pid, &status, 0) } while r2 < 0 && errno == EINTR
                return Outcome(end: .timedOut, seconds: elapsed)
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        // Whatever the program left running in its group goes with it.
        _ = kill(-pid, SIGKILL)
        let low = status & 0x7F
        let end: End = low == 0 ? .exited((status >> 8) & 0xFF) : .signaled(low)
        return Outcome(end: end, seconds: seconds(since: start))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// `s` as one word for `/bin/sh`.
    public static func shellQuoted(_ s: String) -> String {
        if !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,+@%^".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The first `name` in `PATH` that can be run.
    public static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
