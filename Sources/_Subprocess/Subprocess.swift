import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end: what it reads, where its output goes, an optional time limit.
///
/// Rules:
/// - every pipe is drained while the child runs (one thread, `poll`), and standard input is written as the
///   child reads it, so no amount of output on either stream, nor of input, can block the child or the caller;
/// - a time limit kills the child's process group (``Command/newProcessGroup``), then the run reports
///   ``Result/timedOut``;
/// - when the child ends, what is left of its group is killed too, and the pipes are read to their end, or for
///   ``drainAfterExit`` seconds at most when something outside the group still holds them;
/// - the elapsed time runs from just before the spawn to the reaping, as a user waits for it.
///
/// ```swift
/// let result = try Subprocess.run(Command("swift", ["--version"]))
/// print(result.termination, result.stdoutText)
/// let build = try Subprocess.run(
///     Command("swift", ["build"], directory: root), stdout: .file(log), stderr: .stdout, timeLimit: 600)
/// if build.timedOut { print("killed after \(build.seconds) s:\n" + (try String(contentsOfFile: log))) }
/// ```
public enum Subprocess {
    /// What the child reads on standard input.
    public enum Input: Sendable, Equatable {
        /// `/dev/null`.
        case null
        /// These bytes, then end of file.
        case bytes([UInt8])
        /// A file.
        case file(String)
        /// This process's standard input.
        case inherit

        /// These characters in UTF-8, then end of file.
        public static func text(_ text: String) -> Input { .bytes(Array(text.utf8)) }
    }

    /// Where the child's standard output or standard error goes.
    public enum Output: Sendable, Equatable {
        /// Into ``Result/stdout`` or ``Result/stderr``.
        case capture
        /// Into the result, keeping only the last `bytes` bytes (a long build log's end).
        case captureTail(Int)
        /// `/dev/null`.
        case discard
        /// A file, created or truncated.
        case file(String)
        /// This process's own descriptor.
        case inherit
        /// Standard error only: merged into standard output, in the order the child wrote them.
        case stdout
    }

    /// How a run ended, and what it wrote where captured.
    public struct Result: Sendable, Equatable {
        public var termination: Termination
        /// The time limit ran out and the run was killed.
        public var timedOut: Bool
        /// Wall time from just before the spawn to the reaping.
        public var seconds: Double
        /// Captured standard output (with standard error when it was merged), else empty.
        public var stdout: [UInt8]
        /// Captured standard error, else empty.
        public var stderr: [UInt8]

        /// Exited with status 0 within its time limit.
        public var succeeded: Bool { !timedOut && termination == .exited(0) }
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

        /// The last `lines` lines of the captured standard output.
        public func tail(_ lines: Int = 20) -> String {
            Self.tail(of: stdoutText, lines: lines)
        }

        /// The last `lines` lines of `text`.
        public static func tail(of text: String, lines: Int) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
        }
    }

    /// Seconds the pipes are still read after the child ended, when something outside its group holds them open.
    public static let drainAfterExit = 1.0

    /// Runs `command` to its end (or its time limit) as the type's rules say.
    ///
    /// - Parameters:
    ///   - input: what the child reads.
    ///   - stdout, stderr: where its output goes; ``Output/stdout`` is for `stderr` only.
    ///   - timeLimit: seconds from the spawn after which its group is killed; nil: none.
    ///   - onStdoutLine: each line of captured standard output as it arrives (without its newline; an
    ///     unterminated last line too).
    /// - Returns: how it ended, its wall time and its captured output.
    /// - Throws: ``SpawnError`` when it cannot start.
    public static func run(
        _ command: Command, input: Input = .null, stdout: Output = .capture, stderr: Output = .capture,
        timeLimit: Double? = nil, onStdoutLine: ((String) -> Void)? = nil
    ) throws(SpawnError) -> Result {
        precondition(stdout != .stdout, "standard output cannot go to itself")
        let child = try SpawnedProcess.spawn(
            command, stdin: input.stream, stdout: stdout.stream, stderr: stderr.stream)
        var session = Session(child: child, input: input, stdout: stdout, stderr: stderr, onStdoutLine: onStdoutLine)
        let deadline = timeLimit.map { child.started + .nanoseconds(Int64(max(0, $0) * 1e9)) }
        session.pump(until: deadline)
        var timedOut = session.timedOut
        var ended = child.termination
        if ended == nil {
            let remaining = deadline.map { max(0, ($0 - ContinuousClock.now).inSeconds) }
            ended = child.wait(timeout: remaining)
            if ended == nil {
                child.killGroup()
                timedOut = true
                ended = child.wait()
            }
        }
        child.killRemainingGroup()
        session.finishLines()
        return Result(
            termination: ended ?? .unknown(errno: ECHILD), timedOut: timedOut,
            seconds: (ContinuousClock.now - child.started).inSeconds, stdout: session.out.bytes,
            stderr: session.err.bytes)
    }

    /// The bytes of a captured stream, the whole or the end.
    struct Capture {
        var bytes: [UInt8] = []
        let limit: Int?

        mutating func append(_ chunk: ArraySlice<UInt8>) {
            bytes.append(contentsOf: chunk)
            if let limit, bytes.count > 2 * limit { bytes.removeFirst(bytes.count - limit) }
        }

        mutating func finish() {
            if let limit, bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
        }
    }

    /// The `poll` loop of one run.
    struct Session {
        let child: SpawnedProcess
        var input: [UInt8]
        var written = 0
        var out: Capture
        var err: Capture
        let onStdoutLine: ((String) -> Void)?
        var line: [UInt8] = []
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)

        init(
            child: SpawnedProcess, input: Input, stdout: Output, stderr: Output, onStdoutLine: ((String) -> Void)?
        ) {
            self.child = child
            if case .bytes(let bytes) = input { self.input = bytes } else { self.input = [] }
            out = Capture(limit: stdout.tailLimit)
            err = Capture(limit: stderr.tailLimit)
            self.onStdoutLine = onStdoutLine
            if self.input.isEmpty { child.closeStdin() }
        }

        /// Moves bytes until every pipe is closed, the deadline passes (the group is then killed, and the pipes
        /// drained), or the child ended ``drainAfterExit`` seconds ago.
        mutating func pump(until deadline: ContinuousClock.Instant?) {
            var exitedAt: ContinuousClock.Instant?
            while child.stdin >= 0 || child.stdout >= 0 || child.stderr >= 0 {
                let now = ContinuousClock.now
                if exitedAt == nil, child.exitStatus() != nil {
                    exitedAt = now
                    child.killRemainingGroup()
                    child.closeStdin()
                }
                if let exitedAt, (now - exitedAt).inSeconds >= drainAfterExit { break }
                if let deadline, !timedOut, child.termination == nil, now >= deadline {
                    timedOut = true
                    child.killGroup()
                    child.closeStdin()
                }
                var fds: [pollfd] = []
                if child.stdout >= 0 { fds.append(pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)) }
                if child.stderr >= 0 { fds.append(pollfd(fd: child.stderr, events: Int16(POLLIN), revents: 0)) }
                if child.stdin >= 0 { fds.append(pollfd(fd: child.stdin, events: Int16(POLLOUT), revents: 0)) }
                // Wake now and then to see whether the child ended while something else holds its pipes.
                var waitMs: Int32 = 100
                if let deadline, !timedOut, child.termination == nil {
                    waitMs = min(waitMs, Int32(max(0, (deadline - now).inSeconds) * 1000) + 1)
                }
                let ready = poll(&fds, nfds_t(fds.count), waitMs)
                if ready < 0 && errno != EINTR { break }
                if ready <= 0 { continue }
                for entry in fds where entry.revents != 0 {
                    if entry.fd == child.stdout {
                        drain(child.stdout, stdout: true)
                    } else if entry.fd == child.stderr {
                        drain(child.stderr, stdout: false)
                    } else if entry.fd == child.stdin {
                        writeInput()
                    }
                }
            }
        }

        /// Reads what `fd` holds; closes it at end of file.
        mutating func drain(_ fd: Int32, stdout: Bool) {
            while true {
                let n = chunk.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress, raw.count) }
                if n > 0 {
                    let bytes = chunk[0..<n]
                    if stdout {
                        out.append(bytes)
                        if onStdoutLine != nil { lines(bytes) }
                    } else {
                        err.append(bytes)
                    }
                    continue
                }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                if stdout { child.closeStdout() } else { child.closeStderr() }
                return
            }
        }

        mutating func writeInput() {
            // A full pipe: wait for the next round. All written, or the child closed its end: close ours.
            if child.writeStdin(input, from: &written), written < input.count { return }
            child.closeStdin()
        }

        mutating func lines(_ bytes: ArraySlice<UInt8>) {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                line.append(contentsOf: bytes[start..<newline])
                onStdoutLine?(String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            line.append(contentsOf: bytes[start...])
        }

        mutating func finishLines() {
            if !line.isEmpty { onStdoutLine?(String(decoding: line, as: UTF8.self)) }
            line = []
            out.finish()
            err.finish()
        }
    }
}

extension Subprocess.Input {
    var stream: SpawnedProcess.Stream {
        switch self {
        case .null: return .null
        case .bytes: return .pipe
        case .file(let path): return .file(path)
        case .inherit: return .inherit
        }
    }
}

extension Subprocess.Output {
    var stream: SpawnedProcess.Stream {
        switch self {
        case .capture, .captureTail: return .pipe
        case .discard: return .null
        case .file(let path): return .file(path)
        case .inherit: return .inherit
        case .stdout: return .stdout
        }
    }

    var tailLimit: Int? {
        if case .captureTail(let bytes) = self { return max(0, bytes) }
        return nil
    }
}
