import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A started child process and the parent's ends of its pipes: the low-level form, for a caller that runs its
/// own `poll` loop over the pipes (the conformance runner pipelines requests to an adapter). To run a program to
/// its end, use ``Subprocess/run(_:input:stdout:stderr:timeLimit:onStdoutLine:)``.
///
/// Rules, and why `posix_spawn` rather than Foundation's `Process`:
/// - the child may lead a process group of its own (``Command/newProcessGroup``), so that ``killGroup()``
///   reaches what it started;
/// - it starts with default signal dispositions and an empty signal mask (this process ignores `SIGPIPE`
///   while it writes to a pipe, and an ignored disposition would otherwise be inherited);
/// - it gets descriptors 0, 1 and 2 and no other descriptor of this process, even one another thread opens
///   meanwhile without close-on-exec;
/// - the parent reaps it itself, with its exit status, without a run loop or a monitoring thread; a handle
///   dropped before its child was reaped kills the child (and its group) and reaps it, so no zombie is left.
///
/// ```swift
/// let child = try SpawnedProcess.spawn(.shell("cat"), stdin: .pipe, stdout: .pipe, stderr: .null)
/// // write to child.stdin, poll and read child.stdout (both non-blocking), then:
/// child.closeStdin()
/// print(child.reap(grace: 1))   // "exit status 0"
/// ```
public final class SpawnedProcess {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable, Equatable {
        /// A pipe whose other end is the parent's (``stdin``, ``stdout``, ``stderr``; non-blocking).
        case pipe
        /// `/dev/null`.
        case null
        /// This process's own descriptor, shared.
        case inherit
        /// A file: read for standard input; created or truncated for output.
        case file(String)
        /// Standard error only: the same place as standard output.
        case stdout
    }

    /// How ``reap(grace:)`` found the child.
    public struct Reaped: Sendable, Equatable, CustomStringConvertible {
        public var termination: Termination
        /// The grace ran out and the child was killed.
        public var killed: Bool

        /// "killed by the runner" when ``killed``, else the termination ("exit status 0").
        public var description: String { killed ? "killed by the runner" : termination.description }
    }

    public let pid: pid_t
    /// Whether the child leads its own process group (its id is ``pid``).
    public let leadsGroup: Bool
    /// When the spawn was asked for.
    public let started: ContinuousClock.Instant
    /// Write end of the child's stdin pipe (non-blocking), or -1 (not a pipe, or closed).
    public private(set) var stdin: Int32
    /// Read end of the child's stdout pipe (non-blocking), or -1.
    public private(set) var stdout: Int32
    /// Read end of the child's stderr pipe (non-blocking), or -1.
    public private(set) var stderr: Int32
    /// How it ended, once reaped.
    public private(set) var termination: Termination?

    private init(pid: pid_t, leadsGroup: Bool, started: ContinuousClock.Instant, fds: (Int32, Int32, Int32)) {
        self.pid = pid
        self.leadsGroup = leadsGroup
        self.started = started
        (stdin, stdout, stderr) = fds
    }

    deinit {
        closeStdin()
        closeStdout()
        closeStderr()
        if termination == nil {
            killGroup()
            _ = wait()
        }
    }

    /// Starts `command` with its standard descriptors as given.
    public static func spawn(
        _ command: Command, stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe
    ) throws(SpawnError) -> SpawnedProcess {
        precondition(stdin != .stdout && stdout != .stdout, "only standard error can go to standard output")
        var executable = try command.resolvedExecutable()
        var arguments = command.arguments
        if let directory = command.directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw .noSuchDirectory(directory) }
            if !Platform.canChangeDirectoryInSpawn {
                // Without `addchdir`, a shell changes directory and then becomes the program.
                arguments = ["-c", "cd -- \"$0\" && exec \"$@\"", directory, executable] + arguments
                executable = "/bin/sh"
            }
        }
        if stdin == .pipe { Platform.ignoreSIGPIPE() }

        // Descriptors the parent keeps (pipe ends) and those it closes after the spawn (child ends, files).
        var parentEnds: [Int32] = [-1, -1, -1]
        var childEnds: [Int32] = []
        func cleanUp() {
            for fd in childEnds + parentEnds where fd >= 0 { close(fd) }
        }
        var targets: [Int32] = [-1, -1, -1]
        for (index, stream) in [stdin, stdout, stderr].enumerated() {
            let reads = index == 0
            switch stream {
            case .pipe:
                guard let (readEnd, writeEnd) = Platform.makePipe() else {
                    let number = errno
                    cleanUp()
                    throw .system("pipe", errno: number)
                }
                parentEnds[index] = reads ? writeEnd : readEnd
                childEnds.append(reads ? readEnd : writeEnd)
                targets[index] = reads ? readEnd : writeEnd
            case .null, .file:
                let path: String
                if case .file(let file) = stream { path = file } else { path = "/dev/null" }
                let flags = reads ? O_RDONLY : (O_WRONLY | O_CREAT | O_TRUNC)
                let fd = open(path, flags | O_CLOEXEC, 0o644)
                guard fd >= 0 else {
                    let number = errno
                    cleanUp()
                    throw .cannotOpen(path, errno: number)
                }
                childEnds.append(fd)
                targets[index] = fd
            case .inherit, .stdout:
                break
            }
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
        for (index, fd) in targets.enumerated() where fd >= 0 {
            posix_spawn_file_actions_adddup2(&actions, fd, Int32(index))
        }
        if stderr == .stdout { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        Platform.closeOthers(&actions)
        if let directory = command.directory, Platform.canChangeDirectoryInSpawn {
            Platform.changeDirectory(&actions, directory)
        }

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | Platform.closeOthersFlag
        if command.newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var cArguments: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        cArguments.append(nil)
        defer { for p in cArguments { free(p) } }
        let environment = command.environment
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.keys.sorted().map {
            strdup("\($0)=\(environment[$0] ?? "")")
        }
        cEnvironment.append(nil)
        defer { for p in cEnvironment { free(p) } }

        var pid: pid_t = 0
        let started = ContinuousClock.now
        let rc = Platform.locked { posix_spawn(&pid, executable, &actions, &attributes, cArguments, cEnvironment) }
        for fd in childEnds { close(fd) }
        childEnds = []
        guard rc == 0 else {
            cleanUp()
            if rc == ENOENT { throw .executableNotFound(command.executable) }
            throw .cannotExecute(executable, errno: rc)
        }
        for fd in parentEnds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return SpawnedProcess(
            pid: pid, leadsGroup: command.newProcessGroup, started: started,
            fds: (parentEnds[0], parentEnds[1], parentEnds[2]))
    }

    /// Writes `bytes[offset...]` to the child's standard input as far as the pipe takes them without blocking,
    /// moving `offset` past what was written.
    ///
    /// Rule: an interrupted write is retried; a full pipe stops the write and leaves the pipe open for a later
    /// call; any other failure (`EPIPE`: the child closed its end) means the rest will never be read.
    /// - Parameters:
    ///   - bytes: what to write.
    ///   - offset: where to start; on return, the first byte not written.
    /// - Returns: false when the child's standard input can take nothing more (close it then), true otherwise.
    public func writeStdin(_ bytes: [UInt8], from offset: inout Int) -> Bool {
        while offset < bytes.count {
            let start = offset
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(stdin, base + start, raw.count - start)
            }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            return false
        }
        return true
    }

    public func closeStdin() {
        if stdin >= 0 { close(stdin) }
        stdin = -1
    }

    public func closeStdout() {
        if stdout >= 0 { close(stdout) }
        stdout = -1
    }

    public func closeStderr() {
        if stderr >= 0 { close(stderr) }
        stderr = -1
    }

    /// Sends `signal` to the child's process group when it leads one (whatever it started goes too), and to
    /// the child. Nothing once the child is reaped: its id may belong to another process by then.
    public func killGroup(_ signal: Int32 = SIGKILL) {
        guard termination == nil else { return }
        if leadsGroup { _ = kill(-pid, signal) }
        _ = kill(pid, signal)
    }

    /// Sends `signal` to what is left of the child's group after the child was reaped (a grandchild that kept
    /// running). The group's id is not reused while any member lives, so this reaches only that group.
    public func killRemainingGroup(_ signal: Int32 = SIGKILL) {
        if leadsGroup { _ = kill(-pid, signal) }
    }

    /// How the child ended, without waiting: nil while it runs.
    public func exitStatus() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                termination = Termination(waitStatus: status)
                return termination
            }
            if r == 0 { return nil }
            if errno == EINTR { continue }
            termination = .unknown(errno: errno)
            return termination
        }
    }

    /// Waits for the child to end, up to `timeout` seconds (nil: as long as it takes). Returns nil when the time
    /// ran out first.
    public func wait(timeout: Double? = nil) -> Termination? {
        if let termination { return termination }
        guard let timeout else {
            var status: Int32 = 0
            while true {
                let r = waitpid(pid, &status, 0)
                if r == pid {
                    termination = Termination(waitStatus: status)
                    return termination
                }
                if errno == EINTR { continue }
                termination = .unknown(errno: errno)
                return termination
            }
        }
        let start = ContinuousClock.now
        var pause: useconds_t = 1_000
        while true {
            if let ended = exitStatus() { return ended }
            if (ContinuousClock.now - start).inSeconds >= timeout { return nil }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Waits up to `grace` seconds for the child to end by itself, then kills its group and reaps it. Then, when
    /// it leads a group, kills whatever is left of the group (a grandchild the shell left behind).
    public func reap(grace: Double) -> Reaped {
        var killed = false
        if wait(timeout: grace) == nil {
            killGroup()
            killed = true
        }
        let ended = wait() ?? .unknown(errno: ECHILD)
        killRemainingGroup()
        return Reaped(termination: ended, killed: killed)
    }
}

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
