import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AdapterServer {
    /// Serves `perform` over the adapter protocol on standard input and output until input ends (`SPEC.md` §5).
    ///
    /// Rule: what ``AdapterServer`` answers, each response written before the next blocking read (so requests
    /// batch under load and none waits); `SIGPIPE` is ignored, and the loop ends when the reader of standard
    /// output goes away. `stc adapter` is this loop over the reference; `ScreenTimeAdapter.serve` over an
    /// implementation's closures.
    ///
    /// ```swift
    /// AdapterServer.serveStandardStreams()   // the reference, as `stc adapter`
    /// ```
    public static func serveStandardStreams(
        perform: @escaping (String, JSONValue) -> OperationOutcome = OperationTable.perform
    ) {
        signal(SIGPIPE, SIG_IGN)
        var server = AdapterServer(perform: perform)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = true
        while open {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                server.finish { output.append(contentsOf: $0) }
                open = false
            } else {
                buffer.withUnsafeBufferPointer { all in
                    server.feed(UnsafeBufferPointer(rebasing: all[0..<n])) { output.append(contentsOf: $0) }
                }
            }
            if !output.isEmpty {
                guard FileDescriptor.writeAll(1, output) else { return }  // the reader went away
                output.removeAll(keepingCapacity: true)
            }
        }
    }
}
