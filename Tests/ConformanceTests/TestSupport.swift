import Foundation
import StrictJSON

@testable import Conformance

/// Paths of the test fixtures (copied as resources; the source tree is the fallback).
enum Fixtures {
    static let root: String = {
        if let path = Bundle.module.path(forResource: "Fixtures", ofType: nil) { return path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    static func suite(_ name: String) -> String { root + "/suites/" + name }

    /// A shell command running the fake adapter with `flags`.
    static func adapter(_ flags: String...) -> String {
        "python3 '\(root)/adapters/fake_adapter.py' " + flags.joined(separator: " ")
    }

    static func load(_ names: String...) throws -> [Suite] {
        try SuiteLoader.load(paths: names.map(suite))
    }

    /// A fresh temporary directory; the caller removes it (`defer`), so that test runs leave nothing in /tmp.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "stc-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

extension ConformanceRun {
    /// Status of the case `id` for implementation number `implementation`.
    func status(_ id: String, implementation: Int = 0) -> CaseStatus? {
        guard implementation < implementations.count,
            let index = cases.firstIndex(where: { $0.id == id })
        else { return nil }
        return implementations[implementation].results[index].status
    }
}

/// The fake adapter's ops, in process: the same answers as `fake_adapter.py` when it behaves.
func fakeTable(_ op: String, _ input: JSONValue) -> OperationOutcome {
    switch op {
    case "test.echo":
        guard let value = input["value"] else { return .error("badInput") }
        return .output(["value": value, "extra": "ignored"])
    case "test.error":
        guard let code = input["code"]?.stringValue else { return .error("badInput") }
        return .error(code)
    default:
        return .unsupported
    }
}
