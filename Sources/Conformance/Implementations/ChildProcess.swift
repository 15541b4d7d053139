import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process with its stdin, stdout and stderr on non-blocking pipes, in a process group of its own.
///
/// Why not Foundation's `Process`: an adapter runs under `/bin/sh -c`, and the shell may fork the real program
/// as a grandchild. Killing a hung adapter must kill that grandchild too (or it keeps the pipes open and the
/// runner never sees end-of-file), so the child leads a new process group and the runner signals the group.
/// `posix_spawn` also lets the child start with default signal dispositions (the runner ignores `SIGPIPE`,
/// and an ignored disposition would otherwise be inherited), keeps every other descriptor of the runner out of
/// the child (all of ours are close-on-exec), and lets the runner reap the child itself with its exit status,
/// without a run loop or a monitoring thread.
struct ChildProcess {
    let pid: pid_t
    /// Write end of the child's stdin (non-blocking), or -1 once closed.
    var stdin: Int32
    /// Read end of the child's stdout (non-blocking), or -1 once closed.
    var stdout: Int32
    /// Read end of the child's stderr (non-blocking), or -1 once closed.
    var stderr: Int32

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Ignores `SIGPIPE` in this process once, so that writing to an adapter that died returns `EPIPE`
    /// instead of killing the runner.
    static let ignoreSIGPIPE: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Starts `/bin/sh -c command`.
    static func spawn(shellCommand command: String) throws(SpawnError) -> ChildProcess {
        _ = ignoreSIGPIPE
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard makePipe(&inPipe) == 0 else { throw SpawnError(description: "pipe: \(errnoText())") }
        guard makePipe(&outPipe) == 0 else {
            closeAll(inPipe)
            throw SpawnError(description: "pipe: \(errnoText())")
        }
        guard makePipe(&errPipe) == 0 else {
            closeAll(inPipe + outPipe)
            throw SpawnError(description: "pipe: \(errnoText())")
        }
        // Darwin's spawn types are opaque optional pointers; glibc's are structs.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the target, so the child gets exactly 0, 1 and 2.
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ["/bin/sh", "-c", command]
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        // The environment from ProcessInfo: `environ` is not visible from Swift on every platform.
        var cEnv: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map {
            strdup("\($0.key)=\($0.value)")
        }
        cEnv.append(nil)
        defer { for p in cEnv { free(p) } }
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attributes, cArgs, cEnv)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            closeAll([inPipe[1], outPipe[0], errPipe[0]])
            throw SpawnError(description: "posix_spawn /bin/sh: \(String(cString: strerror(rc)))")
        }
        for fd in [inPipe[1], outPipe[0], errPipe[0]] {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        }
        return ChildProcess(pid: pid, stdin: inPipe[1], stdout: outPipe[0], stderr: errPipe[0])
    }

    mutating func closeStdin() {
        if stdin >= 0 { close(stdin) }
        stdin = -1
    }

    mutating func closeStdout() {
        if stdout >= 0 { close(stdout) }
        stdout = -1
    }

    mutating func closeStderr() {
        if stderr >= 0 { close(stderr) }
        stderr = -1
    }

    /// Kills the whole process group.
    func killGroup() {
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
    }

    /// Reaps the child: waits up to `grace` seconds for it to exit by itself, then kills its group.
    /// Returns a description of how it ended ("exit status 1", "killed by signal 11 (SIGSEGV)").
    func reap(grace: Double) -> String {
        var status: Int32 = 0
        let start = ContinuousClock.now
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return "could not be reaped (\(errnoText()))" }
            if r == 0 {
                if (ContinuousClock.now - start) / .seconds(1) >= grace {
                    killGroup()
                    var r2: Int32
                    repeat { r2 = waitpid(pid, &status, 0) } while r2 < 0 && errno == EINTR
                    // Kill the rest of the group too (a grandchild the shell left behind).
                    _ = kill(-pid, SIGKILL)
                    return "killed by the runner" + (r2 == pid ? "" : " (not reaped)")
                }
                usleep(2_000)
            }
        }
        _ = kill(-pid, SIGKILL)
        return Self.describe(status: status)
    }

    static func describe(status: Int32) -> String {
        let low = status & 0x7F
        if low == 0 {
            let code = (status >> 8) & 0xFF
            if code > 128 {
                return
                    "exit status \(code) (a shell reports a child killed by signal \(code - 128)\(signalName(code - 128)))"
            }
            return "exit status \(code)"
        }
        return "killed by signal \(low)\(signalName(low))"
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return " (SIGSEGV)"
        case SIGABRT: return " (SIGABRT)"
        case SIGILL: return " (SIGILL)"
        case SIGTRAP: return " (SIGTRAP, a Swift trap)"
        case SIGBUS: return " (SIGBUS)"
        case SIGFPE: return " (SIGFPE)"
        case SIGKILL: return " (SIGKILL)"
        case SIGTERM: return " (SIGTERM)"
        case SIGPIPE: return " (SIGPIPE)"
        default: return ""
        }
    }

    /// A pipe whose both ends are close-on-exec (`pipe2` is not visible from Swift's Glibc module; the runner
    /// starts processes from one thread, so the gap between `pipe` and `fcntl` is harmless).
    private static func makePipe(_ fds: inout [Int32]) -> Int32 {
        let rc = fds.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return pipe(base)
        }
        guard rc == 0 else { return rc }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return 0
    }

    private static func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { close(fd) }
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
