import Foundation
@_exported import _Subprocess

/// Where things are in this package's checkout, for tests that read files in place (the corpus, the scripts,
/// the fixtures) rather than as test resources.
///
/// Rule: the root is found from this file's own path (`#filePath`, Tests/TestSupport/PackagePaths.swift), so it
/// holds wherever the checkout is and whatever the working directory of `swift test`.
///
/// ```swift
/// let vectors = PackagePaths.root.appendingPathComponent("corpus/conformance")
/// let script = PackagePaths.path("scripts/make-vectors.py")
/// ```
public enum PackagePaths {
    /// The package's root directory (where Package.swift is).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `relative` under the root, as a path.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// `corpus/`: the fuzz targets' and properties' corpora, and `corpus/conformance/`.
    public static let corpus = root.appendingPathComponent("corpus")

    /// The shared directory beside the checkout (`../shared`), or `STC_SHARED_DIR`: third-party data such as
    /// device captures, never copied into the repository.
    public static let shared: URL = {
        if let override = ProcessInfo.processInfo.environment["STC_SHARED_DIR"] {
            return URL(fileURLWithPath: override)
        }
        return root.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    /// The device-made selections, `shared/fixtures/device-selections/`.
    public static let deviceCaptures = shared.appendingPathComponent("fixtures/device-selections")
}

/// The conformance fixtures of Tests/ConformanceTests/Fixtures (suites and the fake adapter), read in place: the
/// runner's own tests and the end-to-end tests of `stc conformance` share them.
///
/// ```swift
/// let suite = ConformanceFixtures.suite("echo.json")
/// let command = ConformanceFixtures.adapter("--crash-on", "c2")
/// ```
public enum ConformanceFixtures {
    public static let root = PackagePaths.path("Tests/ConformanceTests/Fixtures")

    /// The path of the fixture suite `name`.
    public static func suite(_ name: String) -> String { root + "/suites/" + name }

    /// A shell command running the fake adapter with `flags`.
    public static func adapter(_ flags: String...) -> String {
        "python3 '\(root)/adapters/fake_adapter.py' " + flags.joined(separator: " ")
    }

    /// A fresh temporary directory, as a path (``TemporaryDirectory/make(_:)``).
    public static func temporaryDirectory() -> String { TemporaryDirectory.make().path }
}
