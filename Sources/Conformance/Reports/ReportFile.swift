#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A report could not be written.
public struct ReportWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// Writing to file descriptors without stdio buffering.
public enum FileDescriptor {
    /// Writes all of `bytes` to `fd`, retrying after interrupted writes; `false` when a write fails (for
    /// example, the reader of a pipe went away).
    ///
    /// - Parameters:
    ///   - fd: An open file descriptor.
    ///   - bytes: What to write.
    /// - Returns: `true` when every byte was written.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let baseAddress = raw.baseAddress else { return true }
            var written = 0
            while written < raw.count {
                let n = write(fd, baseAddress + written, raw.count - written)
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}

/// Writes report files atomically: a temporary file in the same directory, then `rename`, so that a reader
/// never sees half a report and an old report survives a failed write.
public enum ReportFile {
    /// Writes `bytes` to `path`, atomically.
    ///
    /// - Parameters:
    ///   - bytes: The file's new content.
    ///   - path: The file to write; its directory must exist.
    /// - Throws: ``ReportWriteError`` when the file could not be written; an old file is then unchanged.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReportWriteError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !base.isEmpty else { throw ReportWriteError(path: path, message: "not a file name") }
        let temporary =
            (directory.isEmpty ? "" : directory + "/") + ".\(base).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ReportWriteError(path: path, message: "cannot create a file in \(directory): \(errnoText())")
        }
        var failure: String?
        if !FileDescriptor.writeAll(fd, bytes) { failure = "write failed: \(errnoText())" }
        if failure == nil && fsync(fd) != 0 && errno != EINVAL { failure = "fsync failed: \(errnoText())" }
        if close(fd) != 0 && failure == nil { failure = "close failed: \(errnoText())" }
        if failure == nil && rename(temporary, path) != 0 { failure = "rename failed: \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw ReportWriteError(path: path, message: failure)
        }
    }

    /// Writes `text`, as UTF-8, to `path`, atomically.
    ///
    /// - Parameters:
    ///   - text: The file's new content.
    ///   - path: The file to write; its directory must exist.
    /// - Throws: ``ReportWriteError`` when the file could not be written; an old file is then unchanged.
    public static func writeAtomically(_ text: String, to path: String) throws(ReportWriteError) {
        try writeAtomically(Array(text.utf8), to: path)
    }
}
