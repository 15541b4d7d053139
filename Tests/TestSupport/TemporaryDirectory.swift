import Foundation

/// Fresh temporary directories for tests.
///
/// Rule: each is new and empty, under the system's temporary directory with a name that says it is a test's;
/// the caller removes it (`defer`), or uses ``with(_:_:)``, so that test runs leave nothing behind.
///
/// ```swift
/// let directory = TemporaryDirectory.make("stc-check")
/// defer { TemporaryDirectory.remove(directory) }
/// try TemporaryDirectory.with { directory in try data.write(to: directory.appendingPathComponent("x")) }
/// ```
public enum TemporaryDirectory {
    /// Creates a new empty directory named `prefix-UUID`.
    public static func make(_ prefix: String = "stc-tests") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes `directory` and everything in it.
    public static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with a new directory, then removes it.
    public static func with<T>(_ prefix: String = "stc-tests", _ body: (URL) throws -> T) rethrows -> T {
        let directory = make(prefix)
        defer { remove(directory) }
        return try body(directory)
    }
}
