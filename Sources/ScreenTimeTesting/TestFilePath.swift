import Foundation

/// Where a path a test names is read: absolute as given, relative from the directory of the test file that runs
/// the check (so `.file("expected-failures.txt")` sits beside the test, whatever directory `swift test` ran in).
enum TestFilePath {
    static func resolve(_ path: String, from directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
            .standardizedFileURL.path
    }

    /// The directory of a source file path (`#filePath`).
    static func directory(of filePath: String) -> String {
        guard let slash = filePath.lastIndex(of: "/") else { return "" }
        return String(filePath[..<slash])
    }
}
