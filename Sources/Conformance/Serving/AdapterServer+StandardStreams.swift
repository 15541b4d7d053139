import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AdapterServer {
    /// When the answers are written to standard output.
    public enum Writes: Sendable {
        /// All the answers to what one read delivered, before the next blocking read: requests batch under load
        /// and none waits. For code that never traps (`stc adapter`).
        case beforeEachRead
        /// Each answer as soon as it is made: when a later request traps, every earlier answer has reached the
        /// runner, which then blames the right request. For code that may trap (`ScreenTimeAdapter.serve`).
        case afterEachAnswer
    }

    /// Serves `perform` over the adapter protocol on standard input and output until input ends (`SPEC.md` §5).
    ///
    /// Rule: what ``AdapterServer`` answers, written as `writes` says; `SIGPIPE` is ignored, and the loop ends when
    /// the reader of standard output goes away. `stc adapter` is this loop over the reference; the testing kit's
    /// `ScreenTimeAdapter.serve` over an implementation's closures.
    ///
    /// ```swift
    /// AdapterServer.serveStandardStreams()   // the reference, as `stc adapter`
    /// ```
    ///
    /// - Parameters:
    ///   - writes: When answers are flushed to standard output.
    ///   - perform: Answers one request: the operation's wire name and its input.
    public static func serveStandardStreams(
        writes: Writes = .beforeEachRead,
        perform: @escaping (String, JSONValue) -> OperationOutcome = OperationTable.perform
    ) {
        signal(SIGPIPE, SIG_IGN)
        var server = AdapterServer(perform: perform)
        var output: [UInt8] = []
        var readerGone = false
        /// Takes one answer line: kept for the next write, or written now.
        func emit(_ line: [UInt8]) {
            switch writes {
            case .beforeEachRead: output.append(contentsOf: line)
            case .afterEachAnswer: readerGone = readerGone || !FileDescriptor.writeAll(1, line)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = true
        while open && !readerGone {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                server.finish(emit: emit)
                open = false
            } else {
                buffer.withUnsafeBufferPointer { all in
                    server.feed(UnsafeBufferPointer(rebasing: all[0..<n]), emit: emit)
                }
            }
            if !output.isEmpty {
                guard FileDescriptor.writeAll(1, output) else { return }  // the reader went away
                output.removeAll(keepingCapacity: true)
            }
        }
    }
}
