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

    /// With the fork server (Linux) a trap costs the worker only: every crash is answered by the adapter and
    /// nothing is restarted. Without it (`STC_FORK_SERVER=0`, as on Darwin) the runner restarts the adapter after
    /// each trap. The answers are the same either way.
    @Test(arguments: [true, false]) func aTrapIsACrashAndTheRunCompletes(forkServer: Bool) throws {
        #if !os(Linux)
            if forkServer { return }
        #endif
        let fixture = try #require(BuiltProducts.path("testing-kit-fixture"))
        let adapter = AdapterProcess(
            name: "force-unwrap",
            command: "SWIFT_BACKTRACE=enable=no STC_FORK_SERVER=\(forkServer ? 1 : 0) '\(fixture)' --force-unwrap",
            timeout: 10)
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
        let diagnostics = run.implementations[0].diagnostics
        if forkServer {
            #expect(diagnostics.restarts == 0 && diagnostics.survivedCrashes == crashed.count, "\(diagnostics)")
        } else {
            #expect(diagnostics.restarts >= crashed.count - 1 && diagnostics.survivedCrashes == 0, "\(diagnostics)")
        }
        // Everything but decoding passes, as the reference does.
        #expect(results.allSatisfy { $0.status == .pass || run.cases[$0.caseIndex].op == "selection.decode" })
    }

    /// The canonical stored form of the empty selection.
    static let emptySelection =
        "eyJhcHBsaWNhdGlvblRva2VucyI6W10sImNhdGVnb3J5VG9rZW5zIjpbXSwiaW5jbHVkZUVudGlyZUNhdGVnb3J5IjpmYWxzZSwidW50b2tlbml6ZWRBcHBsaWNhdGlvbklkZW50aWZpZXJzIjpbXSwidW50b2tlbml6ZWRDYXRlZ29yeUlkZW50aWZpZXJzIjpbXSwidW50b2tlbml6ZWRXZWJEb21haW5JZGVudGlmaWVycyI6W10sIndlYkRvbWFpblRva2VucyI6W119"

    /// The fork server by itself, line by line: a trap answers `crash` with the request's id and how the worker
    /// ended; the requests after it (already read by the dead worker) are answered by the next one; bad lines and
    /// unknown operations get what the protocol says; the adapter exits 0 at the end of its input.
    @Test func theForkServerAnswersCrashForTheTrappingRequestAndGoesOn() throws {
        #if os(Linux)
            let fixture = try #require(BuiltProducts.path("testing-kit-fixture"))
            let lines = [
                #"{"id":"t1","op":"selection.decode","input":{"base64":"%%"}}"#,
                #"{"id":"ok","op":"selection.decode","input":{"base64":"\#(Self.emptySelection)"}}"#,
                "not json",
                #"{"id":"t2","op":"selection.decode","input":{"base64":"!"}}"#,
                #"{"id":9,"op":"no.such.op","input":{}}"#,
                #"{"id":"t3","op":"selection.decode","input":{"base64":"%"}}"#,
            ]
            let result = try Subprocess.run(
                Command("/bin/sh", ["-c", "SWIFT_BACKTRACE=enable=no '\(fixture)' --force-unwrap"]),
                input: .text(lines.joined(separator: "\n")), stderr: .discard, timeLimit: 60)
            #expect(result.succeeded, "\(result.termination)")
            let answers = result.stdoutText.split(separator: "\n").map(String.init)
            #expect(answers.count == lines.count, "\(answers)")
            guard answers.count == lines.count else { return }
            for (index, id) in [(0, "t1"), (3, "t2"), (5, "t3")] {
                #expect(answers[index].hasPrefix(#"{"crash":"killed by signal"#), "\(answers[index])")
                #expect(answers[index].hasSuffix(#""id":"\#(id)"}"#), "\(answers[index])")
            }
            #expect(answers[1].hasPrefix(#"{"id":"ok","output":"#))
            #expect(answers[2] == #"{"error":"protocol","id":null}"#)
            #expect(answers[4] == #"{"id":9,"unsupported":true}"#)
        #endif
    }
}
