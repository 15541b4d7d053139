import Foundation
import StrictJSON
import Testing
import _TestSupport

@testable import Conformance

/// The shipped vectors, `corpus/conformance/*.json`: they load strictly, cover what the README promises, and the
/// reference passes every one of them (the vectors come from an independent Python oracle, so this is a
/// cross-check of two implementations, not a tautology).
@Suite struct VectorSuiteTests {
    /// `<repo>/corpus/conformance`, read in place (the corpus is not a test resource).
    static let corpus = PackagePaths.path("corpus/conformance")

    static func loadSuites() throws -> [Suite] {
        try SuiteLoader.load(paths: [corpus])
    }

    static let errorCodes = [
        "empty", "tooLarge", "base64", "json", "plist", "schema", "token", "limitExceeded", "invalidPercentEncoding",
        "invalidUTF8", "unencodable", "badInput", "invalidDateComponents", "intervalTooShort", "intervalTooLong",
        "invalidWebDomain", "invalidURL",
    ]

    /// The codes only `activity.monitor`'s `errors` carry (SPEC §5.2): looked for there.
    static let monitorErrorCodes = ["invalidDateComponents", "intervalTooShort", "excessiveActivities", "unauthorized"]

    @Test func loadsAtLeast400CasesWithUniqueWellFormedIds() throws {
        let suites = try Self.loadSuites()
        let cases = suites.flatMap(\.cases)
        #expect(cases.count >= 400, "only \(cases.count) cases")
        #expect(Set(cases.map(\.id)).count == cases.count, "case ids repeat")
        #expect(Set(suites.map(\.name)).count == suites.count, "suite names repeat")
        for c in cases {
            #expect(c.id.hasPrefix(c.suite + "/"), "\(c.id) is not <suite>/<name>")
            let name = c.id.dropFirst(c.suite.count + 1)
            #expect(
                !name.isEmpty && name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" },
                "\(c.id): the name is not kebab-case")
            #expect(!c.source.isEmpty, "\(c.id) has no source")
        }
        for suite in suites {
            #expect(suite.file.hasSuffix("/\(suite.name).json"), "suite \(suite.name) is in \(suite.file)")
            #expect(
                suite.description.contains("make-vectors.py"), "\(suite.name): description must say it is generated")
        }
    }

    @Test func coversEveryOperationErrorCodeAndFieldBug() throws {
        let cases = try Self.loadSuites().flatMap(\.cases)
        let ops = Set(cases.map(\.op))
        for op in OperationTable.all.map(\.name) {
            #expect(ops.contains(op), "no case for \(op)")
        }
        #expect(ops.isSubset(of: Set(OperationTable.all.map(\.name))), "cases name unknown ops: \(ops)")
        var codes = Set<String>()
        for c in cases { if case .error(let code) = c.expect { codes.insert(code) } }
        for code in Self.errorCodes {
            #expect(codes.contains(code), "no case expects error \(code)")
        }
        var monitorCodes = Set<String>()
        for c in cases where c.op == "activity.monitor" {
            guard case .output(let output) = c.expect, case .array(let errors)? = output["errors"] else { continue }
            for case .object(let error) in errors {
                if case .string(let code)? = error["error"] { monitorCodes.insert(code) }
            }
        }
        for code in Self.monitorErrorCodes {
            #expect(monitorCodes.contains(code), "no activity.monitor case expects a step to throw \(code)")
        }
        #expect(codes.isSubset(of: Set(Self.errorCodes)), "unknown error codes: \(codes.subtracting(Self.errorCodes))")
        let tags = Set(cases.flatMap(\.tags))
        for n in 1...22 {
            let count = cases.filter { $0.tags.contains("field-bug-\(n)") }.count
            #expect(count >= 3, "field-bug-\(n) has \(count) cases, wants several")
        }
        for tag in ["malformed", "hostile", "device-shaped", "unicode", "assumption"] {
            #expect(tags.contains(tag), "no case tagged \(tag)")
        }
    }

    /// Cases where the reference disagrees with SPEC.md (the vectors keep the SPEC-correct expectation; the
    /// reference is not changed here). Each one: Swift `String` equality is canonical equivalence, so `Set<String>`
    /// and `[String: …]` in the reference collapse NFC "Café" and NFD "Cafe\u{301}", while SPEC §1 defines the
    /// canonical form (and so equality) by code points, and JSON compares strings by code units (RFC 8259 §8.3).
    /// Strict both ways: a listed case that starts passing fails this test, so fix the list with the reference.
    static let knownReferenceDisagreements: Set<String> = []

    @Test func referencePassesEveryCaseExceptKnownDisagreements() throws {
        let suites = try Self.loadSuites()
        let runner = ConformanceRunner(suites: suites)
        let result = runner.run(InProcessImplementation())
        #expect(result.results.count == runner.cases.count)
        var failing: Set<String> = []
        for r in result.results where r.status != .pass {
            let c = runner.cases[r.caseIndex]
            failing.insert(c.id)
            if !Self.knownReferenceDisagreements.contains(c.id) {
                Issue.record("\(c.id): \(r.status.rawValue) \(r.mismatch ?? "")")
            }
        }
        let nowPassing = Self.knownReferenceDisagreements.subtracting(failing).sorted()
        #expect(nowPassing.isEmpty, "listed as disagreements but passing now (update the list): \(nowPassing)")
    }

    /// The suite files are generated: regenerating them in memory must give the same bytes.
    @Test func generatorIsDeterministicAndFilesAreCurrent() throws {
        let command = Command("python3", [PackagePaths.path("scripts/make-vectors.py"), "--check"]).setting([
            "PYTHONHASHSEED": "random",  // set iteration must never leak into the output
            "PYTHONDONTWRITEBYTECODE": "1",
        ])
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(command, stdout: .discard, timeLimit: 600)
        } catch .executableNotFound {
            // No python3 on this machine: nothing to compare with (CI images have it).
            return
        }
        #expect(result.succeeded, "make-vectors.py --check (\(result.termination)): \(result.stderrText)")
    }
}
