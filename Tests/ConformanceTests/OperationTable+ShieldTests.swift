import ScreenTimeReference
import StrictJSON
import Testing

@testable import Conformance

/// `shield.evaluate` wire shapes (`SPEC.md` §5).
@Suite struct OperationTableShieldTests {
    func evaluate(_ stores: [JSONValue], _ activity: JSONValue) -> OperationOutcome {
        OperationTable.perform("shield.evaluate", input: ["stores": .array(stores), "activity": activity])
    }

    let feed: JSONValue = ["kind": "application", "token": "app:feed", "category": "cat:social"]

    @Test func allowedHasOnlyAVerdict() {
        #expect(evaluate([], feed) == .output(["verdict": "allowed"]))
        #expect(evaluate([[:]], feed) == .output(["verdict": "allowed"]))
    }

    @Test func applicationReasonHasNoCategory() {
        #expect(
            evaluate([["applications": ["app:feed"]]], feed)
                == .output(["verdict": "shielded", "reason": "application"]))
    }

    @Test func categoryReasonNamesTheCategory() {
        let store: JSONValue = [
            "applications": ["app:feed"],
            "applicationCategories": ["policy": "specific", "categories": ["cat:social"], "except": ["app:feed"]],
        ]
        // except does not exempt the listed app; the category policy exempts it, so the reason is application.
        #expect(evaluate([store], feed) == .output(["verdict": "shielded", "reason": "application"]))
        let category: JSONValue = ["applicationCategories": ["policy": "specific", "categories": ["cat:social"]]]
        #expect(
            evaluate([store, category], feed)
                == .output(["verdict": "shielded", "reason": "applicationCategory", "category": "cat:social"]))
    }

    @Test func webDomainsAndAllPolicy() {
        let visit: JSONValue = ["kind": "webDomain", "token": "web:news", "category": "cat:news"]
        #expect(
            evaluate([["webDomainCategories": ["policy": "all"]]], visit)
                == .output(["verdict": "shielded", "reason": "webDomainCategory", "category": "cat:news"]))
        #expect(
            evaluate([["webDomainCategories": ["policy": "all", "except": ["web:news"]]]], visit)
                == .output(["verdict": "allowed"]))
        #expect(
            evaluate([["webDomains": ["web:news"]]], visit) == .output(["verdict": "shielded", "reason": "webDomain"]))
        // App settings never shield a web domain.
        #expect(
            evaluate([["applications": ["web:news"], "applicationCategories": ["policy": "all"]]], visit)
                == .output(["verdict": "allowed"]))
    }

    @Test func absentAndNullMembersAreNil() {
        let nulls: JSONValue = [
            "applications": nil, "applicationCategories": nil, "webDomains": nil, "webDomainCategories": nil,
        ]
        #expect(evaluate([nulls], feed) == .output(["verdict": "allowed"]))
        #expect(
            evaluate(
                [["applicationCategories": ["policy": "specific", "categories": ["cat:social"], "except": nil]]], feed)
                == .output(["verdict": "shielded", "reason": "applicationCategory", "category": "cat:social"]))
        #expect(evaluate([["applicationCategories": ["policy": "none"]]], feed) == .output(["verdict": "allowed"]))
    }

    @Test func limits() {
        let fifty = JSONValue.array((0..<50).map { .string("app:\($0)") })
        let fiftyOne = JSONValue.array((0..<51).map { .string("app:\($0)") })
        #expect(evaluate([["applications": fifty]], feed) == .output(["verdict": "allowed"]))
        #expect(evaluate([["applications": fiftyOne]], feed) == .error("limitExceeded"))
        #expect(
            evaluate([["applicationCategories": ["policy": "all", "except": fiftyOne]]], feed)
                == .error("limitExceeded"))
        let cats = JSONValue.array((0..<51).map { .string("cat:\($0)") })
        #expect(
            evaluate([["webDomainCategories": ["policy": "specific", "categories": cats]]], feed)
                == .error("limitExceeded"))
        let webs = JSONValue.array((0..<51).map { .string("web:\($0)") })
        #expect(evaluate([["webDomains": webs]], feed) == .error("limitExceeded"))
        // Duplicates collapse before counting.
        let dup = JSONValue.array((0..<60).map { .string("app:\($0 % 50)") })
        #expect(evaluate([["applications": dup]], feed) == .output(["verdict": "allowed"]))
    }

    @Test(
        arguments: [
            [:] as JSONValue,
            ["stores": [], "activity": "x"],
            ["stores": "x", "activity": ["kind": "application", "token": "a", "category": "c"]],
            ["stores": [1], "activity": ["kind": "application", "token": "a", "category": "c"]],
            [
                "stores": [["applications": "app:a"]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            ["stores": [["applications": [1]]], "activity": ["kind": "application", "token": "a", "category": "c"]],
            [
                "stores": [["applicationCategories": ["policy": "some"]]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            [
                "stores": [["applicationCategories": ["policy": "specific"]]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            [
                "stores": [["applicationCategories": ["categories": []]]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            [
                "stores": [["applicationCategories": ["policy": "all", "except": "x"]]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            [
                "stores": [["webDomainCategories": "all"]],
                "activity": ["kind": "application", "token": "a", "category": "c"],
            ],
            ["stores": [], "activity": ["kind": "category", "token": "a", "category": "c"]],
            ["stores": [], "activity": ["kind": "application", "token": "a"]],
            ["stores": [], "activity": ["kind": "application", "token": "a", "category": nil]],
            ["stores": [], "activity": ["kind": "application", "token": 3, "category": "c"]],
        ] as [JSONValue])
    func malformedInputIsBadInput(_ input: JSONValue) {
        #expect(OperationTable.perform("shield.evaluate", input: input) == .error("badInput"))
    }

    /// The message of the BadInput that `body` throws, or nil.
    func badInputMessage(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as BadInput { return error.message } catch { return "other error: \(error)" }
        return nil
    }

    @Test func errorPathsAreBuiltOnlyOnErrorAndNameTheMember() {
        // Paths are autoclosures now; these are the texts the eager version built.
        let cases: [(JSONValue, String)] = [
            (1, "stores[3] is number, not an object"),
            (["applications": "x"], "stores[3].applications is string, not an array"),
            (["webDomains": ["w", 2]], "stores[3].webDomains[1] is number, not a string"),
            (["applicationCategories": 1], "stores[3].applicationCategories is number, not an object"),
            (["applicationCategories": [:]], "stores[3].applicationCategories.policy is missing or not a string"),
            (
                ["webDomainCategories": ["policy": "some"]],
                "stores[3].webDomainCategories.policy is \"some\", not none, all or specific"
            ),
            (["webDomainCategories": ["policy": "specific"]], "stores[3].webDomainCategories lacks \"categories\""),
            (
                ["webDomainCategories": ["policy": "specific", "categories": [nil]]],
                "stores[3].webDomainCategories.categories[0] is null, not a string"
            ),
            (
                ["applicationCategories": ["policy": "all", "except": "x"]],
                "stores[3].applicationCategories.except is string, not an array"
            ),
        ]
        for (store, message) in cases {
            #expect(badInputMessage { _ = try ShieldWire.settings(store, at: "stores[\(3)]") } == message)
        }
        // A well-formed store never evaluates its path.
        var evaluated = false
        let path = { () -> String in
            evaluated = true
            return "p"
        }
        let store: JSONValue = [
            "applications": ["a"], "webDomains": [],
            "applicationCategories": ["policy": "specific", "categories": ["c"], "except": ["a"]],
            "webDomainCategories": ["policy": "all", "except": nil], "unknown": 1,
        ]
        #expect(badInputMessage { _ = try ShieldWire.settings(store, at: path()) } == nil)
        #expect(!evaluated)
        #expect(
            badInputMessage { _ = try ShieldWire.settings(["applications": 1], at: path()) }
                == "p.applications is number, not an array")
        #expect(evaluated)
    }

    @Test func membersAreReadInOnePassButCheckedInAFixedOrder() {
        // Several bad members: the first in the order applications, applicationCategories, webDomains,
        // webDomainCategories is named (then policy before except before categories), whatever the object's order.
        let cases: [(JSONValue, String)] = [
            (
                ["webDomainCategories": 1, "webDomains": 2, "applicationCategories": 3, "applications": 4],
                "s.applications is number, not an array"
            ),
            (
                ["webDomainCategories": 1, "webDomains": 2, "applicationCategories": 3],
                "s.applicationCategories is number, not an object"
            ),
            (["webDomainCategories": 1, "webDomains": 2], "s.webDomains is number, not an array"),
            (
                ["applicationCategories": ["categories": 1, "except": 2, "policy": 3]],
                "s.applicationCategories.policy is missing or not a string"
            ),
            (
                ["applicationCategories": ["categories": 1, "except": 2, "policy": "specific"]],
                "s.applicationCategories.except is number, not an array"
            ),
            (
                ["applicationCategories": ["categories": 1, "policy": "specific"]],
                "s.applicationCategories.categories is number, not an array"
            ),
        ]
        for (store, message) in cases {
            #expect(badInputMessage { _ = try ShieldWire.settings(store, at: "s") } == message)
        }
        // A large object (more members than a small-object lookup handles) with unknown members and nulls.
        var members: [String: JSONValue] = ["applications": ["app:a"], "webDomainCategories": nil]
        for index in 0..<20 { members["unknown\(index)"] = .number(Double(index)) }
        let settings = try? ShieldWire.settings(.object(members), at: "s")
        #expect(settings?.applications == [ShieldWire.token("app:a")])
        #expect(settings?.webDomains == nil)
        #expect(settings?.webDomainCategories == nil)
    }

    @Test func idsRoundTripThroughTokens() {
        for id in ["app:mail", "", "cat:soziale Netzwerke ✓", "web:a/b"] {
            let token: ActivityCategoryToken = ShieldWire.token(id)
            #expect(ShieldWire.id(token) == id)
        }
    }
}

/// `ShieldWire.json(_:activity:categoryID:)` (prebuilt answers, the category named by the activity's id) against
/// the general `json(_:)`.
@Suite struct ShieldWireJSONTests {
    static let ids = ["cat:games", "", "cat:soziale Netzwerke ✓", "web:a/b", "caf\u{E9}", "cafe\u{301}"]

    @Test(arguments: ids)
    func everyVerdictMatchesTheGeneralPath(categoryID: String) {
        let category: ActivityCategoryToken = ShieldWire.token(categoryID)
        let other: ActivityCategoryToken = ShieldWire.token("cat:other")
        let activities: [ShieldActivity] = [
            .application(ShieldWire.token("app:mail"), category: category),
            .webDomain(ShieldWire.token("web:news"), category: category),
        ]
        let verdicts: [ShieldVerdict] = [
            .allowed, .shielded(.application), .shielded(.webDomain),
            .shielded(.applicationCategory(category)), .shielded(.webDomainCategory(category)),
            // Not produced by ShieldEvaluation (a category reason names the activity's own category), but
            // answered like the general path all the same.
            .shielded(.applicationCategory(other)), .shielded(.webDomainCategory(other)),
        ]
        for activity in activities {
            for verdict in verdicts {
                let fast = ShieldWire.json(verdict, activity: activity, categoryID: categoryID)
                let general = ShieldWire.json(verdict)
                #expect(fast == general, "\(verdict)")
                #expect(JSONWriter.string(fast) == JSONWriter.string(general), "\(verdict)")
            }
        }
    }

    @Test func theCategoryIsTheActivitysIdAsGiven() {
        let input: JSONValue = [
            "stores": [["applicationCategories": ["policy": "all"]]],
            "activity": ["kind": "application", "token": "app:x", "category": "cafe\u{301}"],
        ]
        guard case .output(let output) = OperationTable.perform("shield.evaluate", input: input) else {
            Issue.record("no output")
            return
        }
        #expect(output["category"]?.stringValue.map { Array($0.unicodeScalars) } == Array("cafe\u{301}".unicodeScalars))
    }
}
