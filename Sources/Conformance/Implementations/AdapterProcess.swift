import StrictJSON
import _Subprocess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An implementation under test: a command (run with `/bin/sh -c`) speaking the adapter protocol of `SPEC.md` §5.
///
/// The adapter's output is hostile input; nothing it does can trap the runner or stop the run:
/// - **pipelining**: up to ``window`` requests are in flight; answers are matched by id, so an adapter may even
///   answer out of order. An adapter must flush stdout after each answer line (as any line protocol needs).
/// - **crash** (stdout reaches end of file): the first unanswered request is the one that crashed it (answers to
///   the earlier ones were flushed before the crash, and are still read from the pipe); it gets ``Answer/crash(_:)``
///   with the exit status, the adapter is restarted and the other unanswered requests are sent again.
/// - **a crash the adapter survived**: an answer `{"id": ID, "crash": HOW}` (a fork server whose worker died on
///   the request) gives ``Answer/crash(_:)`` to that request without a restart; ``ImplementationDiagnostics``
///   counts these apart from restarts.
/// - **hang**: the oldest unanswered request gets ``timeout`` seconds, counted from the later of its sending and
///   the previous answer; then the process group is killed, the request gets ``Answer/timeout(_:)``, and the
///   adapter is restarted.
/// - **garbage**: a line that is not a JSON object, has no string id, names an unknown id, or lacks exactly one
///   of `output` (an object), `error` (a string) and `unsupported` (`true`) gives ``Answer/protocolViolation(_:)``
///   to the request it names, or else to the oldest unanswered one. An answer for a request that is not in
///   flight (late, or a repeat) is ignored and noted. A line over ``maxLineBytes`` is a violation and is skipped.
/// - **exits at start**: after ``probeAfterFailures`` starts in a row that answered nothing, the runner sends a
///   liveness probe (an unknown op, which the protocol says gets `unsupported`) before any further case; when
///   even that gets no line back, the adapter is declared unusable and every remaining case gets `crash`
///   (or `timeout` when it hung) at once, with a note saying why.
/// - **stderr** is drained all along (an adapter can never block on a full pipe) and its last
///   ``stderrTailLimit`` bytes, across restarts, are kept for the report.
/// - **one process or one per call**: by default each ``answer(_:progress:)`` runs the adapter from its start to
///   the end of its input, as a conformance run needs it once. With ``keepsRunning`` the process that answered a
///   call's last case answers the next call too (the explorer sends thousands of one-case calls while
///   shrinking, and a start per call would cost more than the answers); ``close()`` ends it.
public final class AdapterProcess: Implementation {
    public let name: String
    public let command: String
    public let kind = ImplementationKind.adapter
    public var summary: String { command }
    /// Seconds the oldest unanswered request may wait for its answer.
    public var timeout: Double
    /// Requests in flight at most.
    public var window: Int
    public var probeAfterFailures = 3
    public var stderrTailLimit = 8192
    public var maxLineBytes = 16 << 20
    /// Diagnostics of every call so far (restarts, notes and stderr add up across calls).
    public private(set) var diagnostics = ImplementationDiagnostics()
    /// Keep the adapter running between calls of ``answer(_:progress:)`` (see the type's documentation).
    public var keepsRunning = false
    /// The process kept running after the last call, when ``keepsRunning``.
    private var running: SpawnedProcess?
    fileprivate var stderrTail: [UInt8] = []
    /// Whether any call has started the adapter.
    fileprivate var hasStarted = false

    /// An adapter run as `command` through `/bin/sh -c`, started on first use.
    ///
    /// - Parameters:
    ///   - name: The name reports show.
    ///   - command: The shell command that starts the adapter.
    ///   - timeout: Seconds the oldest unanswered request may wait (5 when not positive).
    ///   - window: Requests in flight at most (at least 1).
    public init(name: String, command: String, timeout: Double = 5, window: Int = 64) {
        self.name = name
        self.command = command
        self.timeout = timeout > 0 ? timeout : 5
        self.window = max(1, window)
    }

    deinit { close() }

    /// Sends every case to the adapter, pipelined, and collects the answers, restarting it after a crash.
    ///
    /// - Parameters:
    ///   - cases: The cases, in the order their answers come back.
    ///   - progress: Called now and then with the number of cases answered so far.
    /// - Returns: One answer per case, in the order of `cases`.
    public func answer(_ cases: [ConformanceCase], progress: (Int) -> Void) -> [Answer] {
        let engine = AdapterEngine(owner: self, cases: cases, running: running)
        running = nil
        let answers = engine.run(progress: progress)
        diagnostics = engine.diagnostics
        stderrTail = engine.stderrTail
        running = engine.keptRunning
        hasStarted = hasStarted || engine.startedBefore
        return answers
    }

    /// Ends a process kept running (``keepsRunning``): end of input, then its exit status is noted as at the end
    /// of a run. Nothing to do otherwise.
    public func close() {
        guard let child = running else { return }
        running = nil
        let engine = AdapterEngine(owner: self, cases: [], running: nil)
        engine.finish(child)
        diagnostics = engine.diagnostics
        stderrTail = engine.stderrTail
    }
}

/// The state of one run of an adapter over a list of cases (possibly through several processes).
private final class AdapterEngine {
    enum SessionEnd {
        case finished
        case exited
        case timedOut
    }

    static let probeId = "#stc-probe"
    static let probeLine: [UInt8] = Array("{\"id\":\"#stc-probe\",\"input\":{},\"op\":\"stc.probe\"}\n".utf8)
    static let maxNotes = 40

    let command: String
    let timeout: Double
    let window: Int
    let probeAfterFailures: Int
    let stderrTailLimit: Int
    let maxLineBytes: Int
    let count: Int

    var requestBytes: [UInt8] = []
    var requestRanges: [Range<Int>] = []
    var idIndex: [String: Int] = [:]

    var answers: [Answer?]
    var answeredCount = 0
    var head = 0
    var nextToSend = 0
    var inFlight = 0
    var lastActivity = ContinuousClock.now

    var outBuffer: [UInt8] = []
    var outPosition = 0
    var lineBuffer: [UInt8] = []
    var skippingLongLine = false
    var chunk = [UInt8](repeating: 0, count: 1 << 16)

    var stderrTail: [UInt8] = []
    var consecutiveFailures = 0
    var sessionAnswered = 0
    var needProbe = false
    var probePending = false
    var lastFailure = ""
    var lastFailureWasTimeout = false
    var strayAnswers = 0
    /// When the process in use ended or hung, until a new one answers (``ImplementationDiagnostics/restartSeconds``).
    var restartBegan: ContinuousClock.Instant?
    var diagnostics = ImplementationDiagnostics()

    /// The process to hand back to the owner after the last case, when it keeps running.
    var keptRunning: SpawnedProcess?
    /// A process left running by the owner's previous call, used before any new one is started.
    var reusable: SpawnedProcess?
    let keepsRunning: Bool
    /// An adapter was started before this run began (a kept process's successor is a restart).
    var startedBefore: Bool

    init(owner: AdapterProcess, cases: [ConformanceCase], running: SpawnedProcess?) {
        reusable = running
        keepsRunning = owner.keepsRunning
        startedBefore = owner.keepsRunning && owner.hasStarted
        diagnostics = owner.diagnostics
        stderrTail = owner.stderrTail
        command = owner.command
        timeout = owner.timeout
        window = owner.window
        probeAfterFailures = max(1, owner.probeAfterFailures)
        stderrTailLimit = max(256, owner.stderrTailLimit)
        maxLineBytes = max(1024, owner.maxLineBytes)
        count = cases.count
        answers = Array(repeating: nil, count: cases.count)
        requestRanges.reserveCapacity(cases.count)
        idIndex.reserveCapacity(cases.count)
        for (i, c) in cases.enumerated() {
            let start = requestBytes.count
            requestBytes.append(contentsOf: "{\"id\":".utf8)
            JSONWriter.writeString(c.id, into: &requestBytes)
            requestBytes.append(contentsOf: ",\"input\":".utf8)
            JSONWriter.write(c.input, into: &requestBytes)
            requestBytes.append(contentsOf: ",\"op\":".utf8)
            JSONWriter.writeString(c.op, into: &requestBytes)
            requestBytes.append(contentsOf: "}\n".utf8)
            requestRanges.append(start..<requestBytes.count)
            idIndex[c.id] = i
        }
    }

    func run(progress: (Int) -> Void) -> [Answer] {
        var sessions = 0
        while answeredCount < count {
            sessions += 1
            if sessions > count + 2 * probeAfterFailures + 10 {
                giveUp("the adapter was restarted \(sessions - 1) times; giving up") { _ in
                    .crash("not run: too many restarts")
                }
                break
            }
            let child: SpawnedProcess
            if let kept = reusable {
                child = kept
                reusable = nil
            } else {
                do {
                    child = try SpawnedProcess.spawn(.shell(command), stdin: .pipe, stdout: .pipe, stderr: .pipe)
                } catch {
                    let message = "cannot start the adapter: \(error.description)"
                    giveUp(message) { _ in .crash(message) }
                    break
                }
                // A start after the first of this call, or, for a process kept running, after an earlier call's.
                if sessions > 1 || startedBefore { diagnostics.restarts += 1 }
                startedBefore = true
            }
            let end = session(child, progress: progress)
            switch end {
            case .finished:
                if keepsRunning {
                    keptRunning = child
                } else {
                    finish(child)
                }
                progress(answeredCount)
                continue
            case .exited:
                restartBegan = ContinuousClock.now
                drainStderr(child, for: 0.3)
                let status = child.reap(grace: 0.3).description
                markStderr("adapter ended: \(status)")
                failed(.crash("the adapter ended (\(status)) before answering"), how: status, timedOut: false)
            case .timedOut:
                restartBegan = ContinuousClock.now
                child.killGroup()
                drainStderr(child, for: 0.2)
                _ = child.reap(grace: 0)
                markStderr("adapter killed after \(formatSeconds(timeout)) s without an answer")
                failed(.timeout(timeout), how: "no answer in \(formatSeconds(timeout)) s", timedOut: true)
            }
            child.closeStdin()
            child.closeStdout()
            child.closeStderr()
            progress(answeredCount)
        }
        if let kept = reusable { keptRunning = kept }
        endRestart()
        progress(answeredCount)
        if strayAnswers > 0 {
            diagnostics.notes.append("\(strayAnswers) answer line(s) named a request that was not in flight; ignored")
        }
        diagnostics.stderrTail = String(decoding: stderrTail, as: UTF8.self)
        return answers.map { $0 ?? .crash("no answer") }
    }

    /// Ends a process after its last answer: end of input, stderr drained, its exit status noted unless 0.
    func finish(_ child: SpawnedProcess) {
        child.closeStdin()
        drainStderr(child, for: 0.5)
        let status = child.reap(grace: 0.5).description
        if status != "exit status 0" {
            note("after its last answer the adapter ended with \(status)")
        }
        child.closeStdout()
        child.closeStderr()
        diagnostics.stderrTail = String(decoding: stderrTail, as: UTF8.self)
    }

    /// A process ended or hung: blame the oldest unanswered request, or, during a probe, give up.
    private func failed(_ answer: Answer, how: String, timedOut: Bool) {
        lastFailure = how
        lastFailureWasTimeout = timedOut
        if probePending {
            probePending = false
            let reason =
                "the adapter \(timedOut ? "hung" : "ended (\(how))") \(consecutiveFailures + 1) times in a row without answering anything, including a liveness probe; the remaining cases were not run"
            giveUp(reason) { _ in timedOut ? .timeout(self.timeout) : .crash("not run: \(reason)") }
            return
        }
        if let index = firstInFlight() {
            record(index, answer)
        }
        if sessionAnswered == 0 {
            consecutiveFailures += 1
        } else {
            consecutiveFailures = 1
        }
        if consecutiveFailures >= probeAfterFailures { needProbe = true }
    }

    private func giveUp(_ reason: String, _ answerFor: (Int) -> Answer) {
        for i in 0..<count where answers[i] == nil {
            answers[i] = answerFor(i)
        }
        answeredCount = count
        head = count
        diagnostics.notes.append(reason)
    }

    private func session(_ child: SpawnedProcess, progress: (Int) -> Void) -> SessionEnd {
        nextToSend = head
        inFlight = 0
        outBuffer.removeAll(keepingCapacity: true)
        outPosition = 0
        lineBuffer.removeAll(keepingCapacity: true)
        skippingLongLine = false
        sessionAnswered = 0
        lastActivity = ContinuousClock.now
        if needProbe {
            needProbe = false
            probePending = true
            outBuffer.append(contentsOf: Self.probeLine)
        }
        var reported = answeredCount
        while true {
            if answeredCount >= count { return .finished }
            if !probePending { fill() }
            var fds: [pollfd] = []
            fds.reserveCapacity(3)
            fds.append(pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0))
            if child.stderr >= 0 { fds.append(pollfd(fd: child.stderr, events: Int16(POLLIN), revents: 0)) }
            let wantWrite = child.stdin >= 0 && outPosition < outBuffer.count
            if wantWrite { fds.append(pollfd(fd: child.stdin, events: Int16(POLLOUT), revents: 0)) }
            var waitMs: Int32 = 1000
            if inFlight > 0 || probePending {
                let remaining = timeout - (ContinuousClock.now - lastActivity) / .seconds(1)
                if remaining <= 0 { return .timedOut }
                waitMs = Int32(min(remaining * 1000 + 1, 60_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), waitMs)
            if ready < 0 {
                if errno == EINTR { continue }
                note("poll failed: \(errnoText())")
                return .exited
            }
            if ready == 0 { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == child.stderr {
                    readStderr(child)
                } else if entry.fd == child.stdin {
                    writeOut(child)
                }
            }
            if let out = fds.first, out.revents != 0 {
                let ended = readStdout(child.stdout)
                if answeredCount - reported >= 256 {
                    reported = answeredCount
                    progress(answeredCount)
                }
                if ended {
                    // An unterminated last line still counts as a line.
                    if !lineBuffer.isEmpty && !skippingLongLine {
                        let line = lineBuffer
                        lineBuffer.removeAll()
                        handleLine(line)
                    }
                    return answeredCount >= count ? .finished : .exited
                }
            }
        }
    }

    private func fill() {
        while inFlight < window && nextToSend < count {
            if answers[nextToSend] == nil {
                if inFlight == 0 { lastActivity = ContinuousClock.now }
                outBuffer.append(contentsOf: requestBytes[requestRanges[nextToSend]])
                inFlight += 1
            }
            nextToSend += 1
        }
    }

    private func writeOut(_ child: SpawnedProcess) {
        // EPIPE or worse: the adapter closed its stdin. Its answers, end of file or timeout will tell the rest.
        if !child.writeStdin(outBuffer, from: &outPosition) { child.closeStdin() }
        if outPosition >= outBuffer.count {
            outBuffer.removeAll(keepingCapacity: true)
            outPosition = 0
        }
    }

    /// Reads what stdout holds; returns `true` at end of file.
    private func readStdout(_ fd: Int32) -> Bool {
        var total = 0
        while total < (4 << 20) {
            let n = chunk.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base, raw.count)
            }
            if n > 0 {
                total += n
                consume(n)
                continue
            }
            if n == 0 { return true }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            return true
        }
        return false
    }

    private func consume(_ n: Int) {
        var start = 0
        while start < n {
            var newline = -1
            var k = start
            while k < n {
                if chunk[k] == 0x0A {
                    newline = k
                    break
                }
                k += 1
            }
            if newline < 0 {
                if !skippingLongLine {
                    lineBuffer.append(contentsOf: chunk[start..<n])
                    if lineBuffer.count > maxLineBytes {
                        lineBuffer.removeAll()
                        skippingLongLine = true
                        responded()
                        blameOldest(.protocolViolation("an answer line is longer than \(maxLineBytes) bytes"))
                    }
                }
                return
            }
            if skippingLongLine {
                skippingLongLine = false
            } else if lineBuffer.isEmpty {
                handleLine(Array(chunk[start..<newline]))
            } else {
                lineBuffer.append(contentsOf: chunk[start..<newline])
                let line = lineBuffer
                lineBuffer.removeAll(keepingCapacity: true)
                handleLine(line)
            }
            start = newline + 1
        }
    }

    /// A restart's cost ends at the new process's first answer line (or at the end of the run, when none came).
    private func endRestart() {
        guard let began = restartBegan else { return }
        diagnostics.restartSeconds += (ContinuousClock.now - began) / .seconds(1)
        restartBegan = nil
    }

    private func responded() {
        endRestart()
        lastActivity = ContinuousClock.now
        sessionAnswered += 1
        consecutiveFailures = 0
    }

    private func handleLine(_ line: [UInt8]) {
        responded()
        let parsed: JSONParser.Parsed
        do {
            parsed = try JSONParser.parse(line)
        } catch {
            violation("the answer line is not JSON (\(error)): \(excerpt(line))")
            return
        }
        guard case .object(let members) = parsed.value else {
            violation("the answer is a JSON \(parsed.value.typeName), not an object: \(excerpt(line))")
            return
        }
        guard case .string(let id)? = members["id"] else {
            violation("the answer has no string \"id\": \(excerpt(line))")
            return
        }
        if id == Self.probeId {
            if probePending {
                probePending = false
                note("the adapter answered a liveness probe after \(consecutiveFailures) failed starts; going on")
            } else {
                strayAnswers += 1
            }
            return
        }
        if probePending {
            // Any line proves that the adapter runs; the probe's job is done.
            probePending = false
        }
        guard let index = idIndex[id] else {
            blameOldest(.protocolViolation("answer for an unknown id \"\(id.prefix(100))\": \(excerpt(line))"))
            return
        }
        guard index < nextToSend, answers[index] == nil else {
            strayAnswers += 1
            return
        }
        if parsed.firstDuplicateKeyOffset != nil {
            record(index, .protocolViolation("the answer repeats a key: \(excerpt(line))"))
            return
        }
        let output = members["output"]
        let error = members["error"]
        let unsupported = members["unsupported"]
        let crash = members["crash"]
        let present =
            (output == nil ? 0 : 1) + (error == nil ? 0 : 1) + (unsupported == nil ? 0 : 1) + (crash == nil ? 0 : 1)
        guard present == 1 else {
            record(
                index,
                .protocolViolation(
                    present == 0
                        ? "the answer has none of output, error, unsupported, crash: \(excerpt(line))"
                        : "the answer has more than one of output, error, unsupported, crash: \(excerpt(line))"))
            return
        }
        if let crash {
            // A fork server's worker died on this request (§5.4); the adapter itself goes on.
            if case .string(let how) = crash, !how.isEmpty {
                diagnostics.survivedCrashes += 1
                record(index, .crash("the adapter's worker ended (\(how)); the adapter went on"))
            } else {
                record(index, .protocolViolation("\"crash\" is not a non-empty string: \(excerpt(line))"))
            }
        } else if let output {
            if case .object = output {
                record(index, .output(output))
            } else {
                record(index, .protocolViolation("\"output\" is a \(output.typeName), not an object: \(excerpt(line))"))
            }
        } else if let error {
            if case .string(let code) = error, !code.isEmpty {
                record(index, .error(code))
            } else {
                record(index, .protocolViolation("\"error\" is not a non-empty string: \(excerpt(line))"))
            }
        } else if unsupported == .bool(true) {
            record(index, .unsupported)
        } else {
            record(index, .protocolViolation("\"unsupported\" is not true: \(excerpt(line))"))
        }
    }

    private func violation(_ message: String) {
        if probePending {
            probePending = false
            note("a line answered the liveness probe: \(message)")
            return
        }
        blameOldest(.protocolViolation(message))
    }

    private func firstInFlight() -> Int? {
        while head < count, answers[head] != nil { head += 1 }
        return head < nextToSend && head < count ? head : nil
    }

    private func blameOldest(_ answer: Answer) {
        if let index = firstInFlight() {
            record(index, answer)
        } else {
            strayAnswers += 1
        }
    }

    private func record(_ index: Int, _ answer: Answer) {
        guard answers[index] == nil else { return }
        answers[index] = answer
        answeredCount += 1
        if index < nextToSend { inFlight -= 1 }
        if index == head { _ = firstInFlight() }
    }

    private func readStderr(_ child: SpawnedProcess) {
        while child.stderr >= 0 {
            let n = chunk.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(child.stderr, base, raw.count)
            }
            if n > 0 {
                stderrTail.append(contentsOf: chunk[0..<n])
                if stderrTail.count > 2 * stderrTailLimit {
                    stderrTail.removeFirst(stderrTail.count - stderrTailLimit)
                }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            child.closeStderr()
        }
    }

    /// Reads stderr until end of file or `seconds` have passed (a grandchild may keep it open).
    private func drainStderr(_ child: SpawnedProcess, for seconds: Double) {
        let start = ContinuousClock.now
        while child.stderr >= 0 {
            let remaining = seconds - (ContinuousClock.now - start) / .seconds(1)
            if remaining <= 0 { break }
            var fd = pollfd(fd: child.stderr, events: Int16(POLLIN), revents: 0)
            let r = poll(&fd, 1, Int32(remaining * 1000 + 1))
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { break }
            readStderr(child)
        }
        if stderrTail.count > stderrTailLimit {
            stderrTail.removeFirst(stderrTail.count - stderrTailLimit)
        }
    }

    private func markStderr(_ text: String) {
        if !stderrTail.isEmpty, stderrTail.last != 0x0A { stderrTail.append(0x0A) }
        stderrTail.append(contentsOf: "--- stc: \(text) ---\n".utf8)
    }

    private func note(_ text: String) {
        if diagnostics.notes.count < Self.maxNotes { diagnostics.notes.append(text) }
    }

    private func excerpt(_ line: [UInt8]) -> String {
        let limit = 200
        if line.count <= limit { return String(decoding: line, as: UTF8.self) }
        return String(decoding: line[0..<limit], as: UTF8.self) + "… (\(line.count) bytes)"
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }

func formatSeconds(_ s: Double) -> String {
    if s == s.rounded() && abs(s) < 1e9 { return String(Int(s)) }
    return String(s)
}
