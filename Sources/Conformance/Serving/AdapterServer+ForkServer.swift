import StrictJSON
import _Subprocess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AdapterServer {
    /// Whether ``serveSurvivingTraps(perform:)`` forks here: on Linux, unless `STC_FORK_SERVER=0` is set. Darwin's
    /// Swift module makes `fork` unavailable, so there the adapter serves in one process, as before.
    public static var forkServerIsAvailable: Bool {
        #if os(Linux)
            return getenv("STC_FORK_SERVER").map { String(cString: $0) } != "0"
        #else
            return false
        #endif
    }

    /// Serves `perform` over the adapter protocol so that a trap in it costs one request, not the process.
    ///
    /// Rule (`SPEC.md` §5.4, adapters that survive a trap): this process forks a worker, which reads the requests
    /// and writes each answer as soon as it is made, as ``serveStandardStreams(writes:perform:)`` does with
    /// `.afterEachAnswer`. When the worker dies, the request it was answering gets `{"id": ID, "crash": HOW}` (how
    /// it ended, for example `killed by signal 4 (SIGILL)`), and a new worker is forked from this process (no new
    /// process image, nothing read again), which answers the requests after it. The worker traps without
    /// the Swift runtime's backtrace (its fatal-error message still goes to standard error): a backtrace takes
    /// longer than a thousand answers. Where a fork is not possible (Darwin, `STC_FORK_SERVER=0`, a failed
    /// `fork`), it serves in this process as ``serveStandardStreams(writes:perform:)`` does, and a trap ends it.
    ///
    /// ```swift
    /// AdapterServer.serveSurvivingTraps(perform: WireOperations(app).perform)   // ScreenTimeAdapter.serve(app)
    /// ```
    ///
    /// - Parameter perform: Answers one request: the operation's wire name and its input.
    public static func serveSurvivingTraps(perform: @escaping (String, JSONValue) -> OperationOutcome) {
        #if os(Linux)
            if forkServerIsAvailable, let supervisor = ForkSupervisor(perform: perform), supervisor.run() { return }
        #endif
        serveStandardStreams(writes: .afterEachAnswer, perform: perform)
    }
}

#if os(Linux)
    /// A fork server: the parent only forks workers and waits; each worker reads the requests from standard input
    /// into a buffer shared with the parent and writes its answers to standard output itself, so that a request
    /// costs what it costs without a fork server. When a worker dies, the buffer says which request it was
    /// answering (that one gets `crash`) and holds the requests it had read but not answered, which the next worker
    /// answers first.
    struct ForkSupervisor {
        /// The buffer's bookkeeping, written by the worker only, read by the parent after the worker is gone.
        enum Field: Int, CaseIterable {
            /// Where the first unanswered line starts, and where the line being answered ends (its newline).
            case lineStart, lineEnd
            /// The end of the bytes read; how far a newline was looked for.
            case end, scanned
            /// 1 while a line is being answered; 1 while skipping the rest of a line over the limit.
            case answering, discarding
        }

        static let fieldCount = Field.allCases.count
        /// Answers the lines; each worker uses the copy it was forked with.
        let server: AdapterServer
        /// Lines up to the adapter protocol's limit, and a read's worth beyond it.
        let capacity = AdapterServer.maximumLineLength + (1 << 16)
        /// Deaths in a row while no request was being answered (killed from outside, or dead at start).
        let maximumBareDeaths = 3
        var fields: UnsafeMutablePointer<Int>
        var buffer: UnsafeMutablePointer<UInt8>

        init?(perform: @escaping (String, JSONValue) -> OperationOutcome) {
            self.server = AdapterServer(perform: perform)
            let size = Self.fieldCount * MemoryLayout<Int>.stride + capacity
            // Shared, so that what a worker read and how far it got survive it; pages are committed as touched.
            guard
                let region = mmap(
                    nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
                region != MAP_FAILED
            else { return nil }
            fields = region.bindMemory(to: Int.self, capacity: Self.fieldCount)
            fields.initialize(repeating: 0, count: Self.fieldCount)
            buffer = (region + Self.fieldCount * MemoryLayout<Int>.stride).bindMemory(
                to: UInt8.self, capacity: capacity)
        }

        subscript(_ field: Field) -> Int {
            get { fields[field.rawValue] }
            nonmutating set { fields[field.rawValue] = newValue }
        }

        /// Forks workers until one ends at end of input; `false` when not even the first could be forked.
        func run() -> Bool {
            signal(SIGPIPE, SIG_IGN)
            var bareDeaths = 0
            var forked = false
            while true {
                let pid = fork()
                if pid == 0 {
                    Self.trapWithoutBacktrace()
                    serve()
                }
                if pid < 0 {
                    if !forked { return false }
                    Self.log("cannot fork a new worker: \(String(cString: strerror(errno)))")
                    exit(1)
                }
                forked = true
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 {
                    if errno != EINTR { exit(1) }
                }
                let how = Termination(waitStatus: status)
                if how == .exited(0) { return true }  // end of input, or the reader went away
                if self[.answering] == 1 {
                    blame(how)
                    bareDeaths = 0
                } else {
                    bareDeaths += 1
                    if bareDeaths >= maximumBareDeaths {
                        Self.log(
                            "the worker ended (\(how)) \(bareDeaths) times in a row while answering nothing; giving up")
                        exit(1)
                    }
                }
            }
        }

        /// The worker died answering the line at `lineStart`: that request gets `crash`, and the next worker starts
        /// after it.
        func blame(_ how: Termination) {
            let line = UnsafeBufferPointer(start: buffer + self[.lineStart], count: self[.lineEnd] - self[.lineStart])
            var id = JSONValue.null
            if case .object(let members)? = try? JSONParser.value(line) { id = members["id"] ?? .null }
            var answer = JSONWriter.bytes(.object(["id": id, "crash": .string(how.description)]))
            answer.append(0x0A)
            guard FileDescriptor.writeAll(1, answer) else { exit(0) }  // the reader went away
            self[.lineStart] = min(self[.lineEnd] + 1, self[.end])
            self[.scanned] = self[.lineStart]
            self[.answering] = 0
        }

        /// A worker: answers the lines in the buffer, reading more as needed, until end of input.
        func serve() -> Never {
            while true {
                if let newline = nextNewline() {
                    answer(lineEndingAt: newline)
                    continue
                }
                // No whole line left: keep the partial one at the start, then read.
                let start = self[.lineStart]
                if start > 0 {
                    let partial = self[.end] - start
                    if partial > 0 { memmove(buffer, buffer + start, partial) }
                    self[.end] = partial
                    self[.scanned] -= start
                    self[.lineStart] = 0
                }
                if self[.end] > AdapterServer.maximumLineLength {
                    // Over the limit: drop what is held, and skip up to the next newline.
                    self[.discarding] = 1
                    self[.end] = 0
                    self[.scanned] = 0
                }
                let n = read(0, buffer + self[.end], capacity - self[.end])
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if self[.discarding] == 1 || self[.end] > 0 {
                        answer(lineEndingAt: self[.end])  // a last line without its newline is a line
                    }
                    _exit(0)
                }
                self[.end] += n
            }
        }

        /// The first newline at or after `lineStart`, looking only at bytes not looked at before.
        func nextNewline() -> Int? {
            let end = self[.end]
            var i = self[.scanned]
            while i < end {
                if buffer[i] == 0x0A { return i }
                i += 1
            }
            self[.scanned] = end
            return nil
        }

        /// Answers the line from `lineStart` to `newline` (exclusive) and moves past it.
        func answer(lineEndingAt newline: Int) {
            var response: [UInt8]
            if self[.discarding] == 1 {
                response = AdapterServer.response(id: .null, ["error": "protocol"])
                self[.discarding] = 0
            } else {
                self[.lineEnd] = newline
                self[.answering] = 1
                response = server.respond(
                    toBytes: UnsafeBufferPointer(start: buffer + self[.lineStart], count: newline - self[.lineStart]))
            }
            response.append(0x0A)
            guard FileDescriptor.writeAll(1, response) else { _exit(0) }  // the reader went away
            self[.lineStart] = min(newline + 1, self[.end])
            self[.scanned] = self[.lineStart]
            self[.answering] = 0
        }

        /// In a worker: a trap kills it at once with its signal, without the runtime's backtrace or a core file.
        static func trapWithoutBacktrace() {
            for crash in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] { signal(crash, SIG_DFL) }
            var none = rlimit(rlim_cur: 0, rlim_max: 0)
            _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        }

        static func log(_ text: String) {
            FileDescriptor.writeAll(2, Array("adapter fork server: \(text)\n".utf8))
        }
    }
#endif
