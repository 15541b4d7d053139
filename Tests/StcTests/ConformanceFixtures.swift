import Foundation

/// The conformance fixtures (suites and the fake adapter) of Tests/ConformanceTests, read in place: the runner's
/// own tests and these end-to-end tests of `stc conformance` share them.
enum ConformanceFixtures {
    static let root = StcBinary.packageRoot.appendingPathComponent("Tests/ConformanceTests/Fixtures").path

    static func suite(_ name: String) -> String { root + "/suites/" + name }

    /// A shell command running the fake adapter with `flags`.
    static func adapter(_ flags: String...) -> String {
        "python3 '\(root)/adapters/fake_adapter.py' " + flags.joined(separator: " ")
    }

    /// A fresh temporary directory; the caller removes it (`defer`), so that test runs leave nothing in /tmp.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "stc-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
