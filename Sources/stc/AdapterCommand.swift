import Conformance
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stc adapter`: the reference served over the adapter protocol, for the runner or any other tool.
enum AdapterCommand {
    static let help = """
        Usage: stc adapter

        Serves the reference implementation over the adapter protocol (SPEC.md §5): reads one JSON request
        per line on stdin, {"id", "op", "input"}, and writes one JSON response per line on stdout:
        {"id", "output"}, {"id", "error"} or {"id", "unsupported": true}. A line that is not a JSON object
        gets {"id": null, "error": "protocol"}. It never stops on bad input; it exits 0 at end of input.

        Operations: \(OperationTable.all.map(\.name).joined(separator: ", "))

        Example:
          echo '{"id":"1","op":"url.encode","input":{"text":"Café"}}' | stc adapter
        """

    static let command = Command(
        "adapter", summary: "serve the reference over the adapter protocol on stdin/stdout", syntax: CommandSyntax(),
        help: help, run: main)

    static func main(_: ScannedArguments) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var server = AdapterServer()
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
            // Answer everything read so far before blocking on the next read: batches under load,
            // and a request is never left waiting.
            if !output.isEmpty {
                guard Console.writeAll(output, to: 1) else { return 0 }  // the reader went away
                output.removeAll(keepingCapacity: true)
            }
        }
        return 0
    }
}
