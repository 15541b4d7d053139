import ScreenTimeReference
import StrictJSON
import Testing

@testable import Conformance

/// `selection.equal`'s fast path for identical texts (one decode) against the two-decode answer.
@Suite struct OperationTableSelectionTests {
    static func stored(_ ids: [String], entire: Bool = false) -> String {
        FamilyActivitySelection(
            applicationTokens: Set(ids.map { ApplicationToken(bytes: Array("app:\($0)".utf8)) }),
            categoryTokens: [ActivityCategoryToken(bytes: Array("cat:x".utf8))],
            includeEntireCategory: entire
        ).canonicalBase64
    }

    func equal(_ a: JSONValue?, _ b: JSONValue?) -> OperationOutcome {
        var input: [String: JSONValue] = [:]
        if let a { input["a"] = a }
        if let b { input["b"] = b }
        return OperationTable.perform("selection.equal", input: .object(input))
    }

    /// What the operation answered before the fast path: decode `a`, then decode `b`, then compare.
    func twoDecodes(_ a: String, _ b: String) -> OperationOutcome {
        do {
            let x = try FamilyActivitySelection(storedBase64: a)
            let y = try FamilyActivitySelection(storedBase64: b)
            return .output(["equal": .bool(x == y)])
        } catch {
            return .error(error.code.rawValue)
        }
    }

    @Test func identicalTextsAnswerAsTwoDecodesWould() {
        let one = Self.stored(["mail", "maps"])
        let reordered = Self.stored(["maps", "mail"])
        let other = Self.stored(["mail"], entire: true)
        let texts = [one, reordered, other, "", "!!!!", "e30=", "AAAA", String(one.dropLast())]
        for a in texts {
            for b in texts {
                #expect(equal(.string(a), .string(b)) == twoDecodes(a, b), "\(a.prefix(12)) vs \(b.prefix(12))")
            }
        }
        #expect(equal(.string(one), .string(one)) == .output(["equal": true]))
        // A copy built separately (different storage, same bytes) takes the same path.
        let copy = String(decoding: Array(one.utf8), as: UTF8.self)
        #expect(equal(.string(one), .string(copy)) == .output(["equal": true]))
    }

    @Test func errorOrderIsUnchanged() {
        // `a` is read and decoded before `b` is even read: a bad `a` wins over a missing or mistyped `b`.
        #expect(equal("!!!!", nil) == twoDecodes("!!!!", ""))
        #expect(equal("", 3) == .error("empty"))
        #expect(equal(.string(Self.stored(["mail"])), nil) == .error("badInput"))
        #expect(equal(nil, "!!!!") == .error("badInput"))
    }
}
