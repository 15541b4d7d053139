import Conformance
import Foundation
import ScreenTimeTesting
import StrictJSON
import Testing
import _TestSupport

/// `ScreenTimeAdapter.serve` in a subprocess (`testing-kit-fixture`, the reference's closures) answers as
/// `stc adapter` does, and a trap in a closure is a `crash` the run survives.
@Suite(.serialized) struct AdapterSubprocessTests {
    /// Every shipped request, and lines that break the protocol.
    static let requests: [String] =
        shippedCases.map { c in
            JSONWriter.string(.object(["id": .string(c.id), "op": .string(c.op), "input": c.input]))
        } + ["not json", "[1,2]", #"{"id":7}"#, #"{"id":8,"op":"no.such.op","input":{}}"#, ""]

    /// What `executable` writes for `requests` on its standard input.
    static func serve(_ executable: String, arguments: [String] = []) throws -> String {
        let result = try Subprocess.run(
            Command(executable, arguments), input: .text(requests.joined(separator: "\n") + "\n"), stderr: .discard,
            timeLimit: 300)
        #expect(result.succeeded, "\(result.termination)")
        return result.stdoutText
    }

    @Test func theKitsAdapterAnswersByteForByteAsStcAdapter() throws {
        let fixture = try #require(BuiltProducts.path("testing-kit-fixture"))
        let stc = try #require(BuiltProducts.path("stc"))
        let kit = try Self.serve(fixture)
        #expect(kit.split(separator: "\n").count == Self.requests.count)
        #expect(kit == (try Self.serve(stc, arguments: ["adapter"])))
    }

    @Test func aTrapIsACrashAndTheRunCompletes() throws {
        let fixture = try #require(BuiltProducts.path("testing-kit-fixture"))
        let adapter = AdapterProcess(
            name: "force-unwrap", command: "SWIFT_BACKTRACE=enable=no '\(fixture)' --force-unwrap", timeout: 10)
        defer { adapter.close() }
        let run = ConformanceRunner(suites: try ShippedSuites.load()).run([(adapter, nil)])
        let results = run.implementations[0].results
        #expect(results.count == shippedCases.count)
        // Exactly the cases whose stored string Foundation cannot read crash: each answer before a trap reached
        // the runner, so no other case is blamed.
        let crashed = Set(results.filter { $0.status == .crash }.map { run.cases[$0.caseIndex].id })
        // The fixture gives only `decodeSelection`, so it reads the base64-json inputs (with or without a
        // `format`); the other formats are unsupported, not crashes.
        let unreadable = shippedIDs("selection.decode") { c in
            let format = c.input["format"]?.stringValue ?? "base64-json"
            return format == "base64-json"
                && (c.input["base64"]?.stringValue.map { Data(base64Encoded: $0) == nil } ?? false)
        }
        #expect(!crashed.isEmpty && crashed == unreadable, "\(crashed.symmetricDifference(unreadable))")
        #expect(run.implementations[0].diagnostics.restarts >= crashed.count - 1)
        // Everything but decoding passes, as the reference does.
        #expect(results.allSatisfy { $0.status == .pass || run.cases[$0.caseIndex].op == "selection.decode" })
    }
}
