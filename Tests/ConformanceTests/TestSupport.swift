import Foundation
import StrictJSON
import _TestSupport

@testable import Conformance

/// The fixtures of this target (Fixtures/, read in place), shared with StcTests through `_TestSupport`.
typealias Fixtures = ConformanceFixtures

extension ConformanceFixtures {
    static func load(_ names: String...) throws -> [Suite] {
        try SuiteLoader.load(paths: names.map(suite))
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
