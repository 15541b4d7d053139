import Conformance
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal and file I/O for the commands.
public enum Console {
    public static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text` as it is, adding no newline: 1 for standard output, 2 for standard error.
    public static func write(_ text: String, to fd: Int32) { writeAll(Array(text.utf8), to: fd) }

    public static var stderrIsTerminal: Bool { isatty(2) != 0 }
    public static var stdoutIsTerminal: Bool { isatty(1) != 0 }

    /// All of standard input, as bytes.
    public static func readAllStandardInput() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n > 0 {
                result.append(contentsOf: buffer[0..<n])
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return result
            }
        }
    }

    /// Writes all of `bytes` to a file descriptor; returns false when the reader has gone away.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool { FileDescriptor.writeAll(fd, bytes) }
}
