import Foundation
import Testing
import _Subprocess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether `pid` is a live process. A killed grandchild is a zombie until whoever adopted it reaps it (a
/// container's first process may never do so), and a zombie still answers `kill(pid, 0)`.
func isRunning(_ pid: pid_t) -> Bool {
    #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    #else
        return kill(pid, 0) == 0
    #endif
}

/// `Subprocess.run`: what goes in and out, time limits, and how a run ends.
@Suite struct SubprocessRunTests {
    @Test func capturesStdoutAndStderrApartWithTheExitCode() throws {
        let result = try Subprocess.run(.shell("printf out; printf err >&2; exit 3"))
        #expect(result.stdoutText == "out")
        #expect(result.stderrText == "err")
        #expect(result.termination == .exited(3))
        #expect(!result.succeeded && !result.timedOut)
        #expect(result.termination.description == "exit status 3")
    }

    /// 1 MiB on each pipe at once: a runner that read one pipe to its end before the other would deadlock, the
    /// child blocked on a full stderr while the runner waits for stdout's end of file.
    @Test func aMebibyteOnBothPipesDoesNotDeadlock() throws {
        let script = "head -c 1048576 /dev/zero >&2 & head -c 1048576 /dev/zero; wait"
        let result = try Subprocess.run(.shell(script), timeLimit: 60)
        #expect(!result.timedOut)
        #expect(result.stdout.count == 1 << 20)
        #expect(result.stderr.count == 1 << 20)
    }

    /// Input larger than a pipe holds, echoed back: writing and reading go on together.
    @Test func stdinIsWrittenWhileOutputIsRead() throws {
        let input = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let result = try Subprocess.run(Command("cat"), input: .bytes(input), timeLimit: 60)
        #expect(result.succeeded)
        #expect(result.stdout == input)
        let text = try Subprocess.run(Command("tr", ["a-z", "A-Z"]), input: .text("hello\n"))
        #expect(text.stdoutText == "HELLO\n")
    }

    @Test func aChildThatIgnoresItsInputStillEnds() throws {
        let result = try Subprocess.run(
            .shell("exec 0<&-; echo done"), input: .bytes(Array(repeating: 65, count: 1 << 20)), timeLimit: 60)
        #expect(result.succeeded && result.stdoutText == "done\n")
    }

    /// The time limit kills the whole group: the grandchild the shell started dies too, so its copy of the pipe
    /// closes and the run returns at the limit, not when the grandchild would have ended.
    @Test func aTimeLimitKillsTheWholeProcessGroup() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let script = "(sleep 30; touch \(Command.shellQuoted(marker))) & echo $!; wait"
        let result = try Subprocess.run(.shell(script), timeLimit: 1)
        #expect(result.timedOut)
        #expect(result.termination == .signaled(SIGKILL))
        #expect(result.seconds >= 1 && result.seconds < 10, "\(result.seconds)")
        let grandchild = try #require(Int32(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(100_000)
        #expect(!isRunning(grandchild), "the grandchild \(grandchild) still runs")
    }

    /// In this process's group (a foreground job), a time limit kills the child alone.
    @Test func aTimeLimitWithoutAGroupKillsTheChild() throws {
        let result = try Subprocess.run(Command("sleep", ["30"], newProcessGroup: false), timeLimit: 0.5)
        #expect(result.timedOut && result.termination == .signaled(SIGKILL) && result.seconds < 10)
    }

    /// A time limit applies with output going to a file too (nothing to poll).
    @Test func aTimeLimitWorksWithOutputToAFile() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try Subprocess.run(
            .shell("echo started; echo oops >&2; sleep 30"), stdout: .file(log), stderr: .stdout, timeLimit: 0.5)
        #expect(result.timedOut && result.seconds < 10)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "started\noops\n")
    }

    @Test func aSignalIsNotAnExitCode() throws {
        let killed = try Subprocess.run(.shell("kill -SEGV $$"))
        #expect(killed.termination == .signaled(SIGSEGV))
        #expect(killed.termination.description == "killed by signal 11 (SIGSEGV)")
        #expect(killed.termination.shellStatus == 128 + SIGSEGV)
        #expect(!killed.timedOut)
        // A shell that reports its child's signal as a status is an exit, said as such.
        let reported = try Subprocess.run(.shell("sh -c 'kill -ABRT $$'; exit $?"))
        #expect(reported.termination == .exited(128 + SIGABRT))
        #expect(reported.termination.description.contains("a shell reports a child killed by signal 6 (SIGABRT)"))
    }

    @Test func aMissingExecutableIsATypedError() {
        #expect(throws: SpawnError.executableNotFound("no-such-program-anywhere")) {
            try Subprocess.run(Command("no-such-program-anywhere"))
        }
        #expect(throws: SpawnError.executableNotFound("/no/such/file")) {
            try Subprocess.run(Command("/no/such/file"))
        }
        #expect(throws: SpawnError.noSuchDirectory("/no/such/directory")) {
            try Subprocess.run(Command("true", directory: "/no/such/directory"))
        }
        #expect(throws: SpawnError.cannotOpen("/no/such/input", errno: ENOENT)) {
            try Subprocess.run(Command("cat"), input: .file("/no/such/input"))
        }
    }

    @Test func theDirectoryAndTheEnvironmentAreTheCommands() throws {
        let directory = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        let result = try Subprocess.run(
            Command("/bin/sh", ["-c", "pwd -P; echo \"$GREETING\"; echo \"${HOME-unset}\""], directory: directory)
                .setting(["GREETING": "hi", "HOME": nil]))
        #expect(result.stdoutText == "\(directory)\nhi\nunset\n")
    }

    @Test func mergedOutputKeepsTheOrderAndTheTailAndLinesArrive() throws {
        var lines: [String] = []
        let result = try Subprocess.run(
            .shell("echo one; echo two >&2; echo three; printf four"), stderr: .stdout,
            onStdoutLine: {
                lines.append($0)
            })
        #expect(result.stdoutText == "one\ntwo\nthree\nfour")
        #expect(result.stderr.isEmpty)
        #expect(lines == ["one", "two", "three", "four"])
        #expect(result.tail(2) == "three\nfour")
        let tail = try Subprocess.run(.shell("seq 1 10000"), stdout: .captureTail(10))
        #expect(tail.stdoutText == "\n9999\n10000\n".suffix(10).description)
    }

    /// A child gets descriptors 0, 1 and 2 and nothing else of this process's.
    @Test func theChildInheritsNoOtherDescriptor() throws {
        let fd = open("/dev/null", O_RDONLY)  // not close-on-exec
        defer { close(fd) }
        let result = try Subprocess.run(.shell("[ -e /dev/fd/\(fd) ] && echo leaked || echo clean"))
        #if os(Linux)
            #expect(result.stdoutText == "clean\n")
        #else
            #expect(!result.stdoutText.isEmpty)
        #endif
    }

    /// Leftovers of the group go when the child ends: the run does not wait for a background grandchild.
    @Test func whatTheChildLeftRunningInItsGroupIsKilled() throws {
        let result = try Subprocess.run(.shell("sleep 30 & echo $!"), timeLimit: 20)
        #expect(result.succeeded && result.seconds < 10, "\(result.seconds)")
        let grandchild = try #require(Int32(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(100_000)
        #expect(!isRunning(grandchild), "the grandchild \(grandchild) still runs")
    }
}

/// `SpawnedProcess`: the low-level handle a caller polls itself.
@Suite struct SpawnedProcessTests {
    /// A full pipe stops the write without blocking and keeps it open; a child that is gone ends it.
    @Test func writeStdinStopsAtAFullPipeAndReportsAClosedOne() throws {
        let child = try SpawnedProcess.spawn(.shell("sleep 30"), stdin: .pipe, stdout: .null, stderr: .null)
        let bytes = [UInt8](repeating: 0x61, count: 4 << 20)  // larger than any pipe buffer
        var offset = 0
        #expect(child.writeStdin(bytes, from: &offset))
        #expect(offset > 0 && offset < bytes.count, "wrote \(offset) of \(bytes.count) bytes")
        child.closeStdin()
        _ = child.reap(grace: 0)

        let closing = try SpawnedProcess.spawn(.shell("exec 0<&-; exit 0"), stdin: .pipe, stdout: .null, stderr: .null)
        #expect(closing.wait(timeout: 10) == .exited(0))
        var start = 0
        #expect(!closing.writeStdin(Array("x".utf8), from: &start), "the reader is gone: EPIPE")
        #expect(start == 0)
        closing.closeStdin()
        _ = closing.reap(grace: 0)
    }

    @Test func pipesAreNonBlockingAndReapReportsTheExit() throws {
        let child = try SpawnedProcess.spawn(.shell("read line; echo \"got $line\""), stdin: .pipe, stdout: .pipe)
        #expect(fcntl(child.stdout, F_GETFL) & O_NONBLOCK != 0)
        let line = Array("hello\n".utf8)
        #expect(write(child.stdin, line, line.count) == line.count)
        child.closeStdin()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var entry = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 5000)
            let n = read(child.stdout, &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        #expect(String(decoding: output, as: UTF8.self) == "got hello\n")
        let reaped = child.reap(grace: 5)
        #expect(reaped.termination == .exited(0) && !reaped.killed)
        #expect(reaped.description == "exit status 0")
    }

    @Test func reapKillsAChildThatOutlivesItsGrace() throws {
        let child = try SpawnedProcess.spawn(.shell("sleep 30"), stdout: .null, stderr: .null)
        let reaped = child.reap(grace: 0.2)
        #expect(reaped.killed)
        #expect(reaped.termination == .signaled(SIGKILL))
        #expect(reaped.description == "killed by the runner")
    }

    @Test func aDroppedHandleKillsAndReapsItsChild() throws {
        var pid: pid_t = 0
        do {
            let child = try SpawnedProcess.spawn(.shell("sleep 30"), stdout: .null, stderr: .null)
            pid = child.pid
        }
        #expect(!isRunning(pid), "the child \(pid) outlived its handle")
    }
}
