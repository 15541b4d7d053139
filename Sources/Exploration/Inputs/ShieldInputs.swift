import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of `shield.evaluate`: the properties' scenarios (several stores over small token universes, so that
/// tokens are both listed and excepted, and activities shielded by category and by application at once), stores
/// around the 50-token limit, and members of the wrong shape.
enum ShieldInputs {
    static let operations = [evaluate]

    static let evaluate = ExploredOperation(
        name: "shield.evaluate",
        input: Gen<JSONValue>.frequency([
            (8, Gen<ShieldScenario>.shieldScenario().map(json)),
            (1, largeStore),
            (1, malformed),
        ]))

    /// The wire form of a scenario (`SPEC.md` §5): tokens as their readable labels (`app0`, `cat1`, `web2`).
    static func json(_ scenario: ShieldScenario) -> JSONValue {
        ["stores": .array(scenario.stores.map(json)), "activity": json(scenario.activity)]
    }

    static func json(_ settings: ShieldSettings) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let applications = settings.applications { members["applications"] = labels(applications) }
        if let policy = settings.applicationCategories { members["applicationCategories"] = json(policy) }
        if let webDomains = settings.webDomains { members["webDomains"] = labels(webDomains) }
        if let policy = settings.webDomainCategories { members["webDomainCategories"] = json(policy) }
        return .object(members)
    }

    static func json<Member: TokenKind>(_ policy: ShieldSettings.ActivityCategoryPolicy<Member>) -> JSONValue {
        switch policy {
        case .none: return ["policy": "none"]
        case .all(let except): return ["policy": "all", "except": labels(except)]
        case .specific(let categories, let except):
            return ["policy": "specific", "categories": labels(categories), "except": labels(except)]
        }
    }

    static func json(_ activity: ShieldActivity) -> JSONValue {
        switch activity {
        case .application(let token, let category):
            return [
                "kind": "application", "token": .string(TokenUniverse.label(token)),
                "category": .string(TokenUniverse.label(category)),
            ]
        case .webDomain(let token, let category):
            return [
                "kind": "webDomain", "token": .string(TokenUniverse.label(token)),
                "category": .string(TokenUniverse.label(category)),
            ]
        }
    }

    /// Labels in a fixed order (a set has none; the wire needs one).
    static func labels<Kind: TokenKind>(_ tokens: Set<Token<Kind>>) -> JSONValue {
        .array(tokens.map(TokenUniverse.label).sorted().map(JSONValue.string))
    }

    /// One store whose applications, web domains or a policy's set holds 48 to 52 tokens: the limit is 50
    /// (`limitExceeded` past it), and the activity's token is among them or not.
    static let largeStore: Gen<JSONValue> = Gen<(Int, Int, Int)>.zip(
        Gen<Int>.int(in: (ShieldSettings.maximumTokenCount - 2)...(ShieldSettings.maximumTokenCount + 2)),
        Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...60)
    ).map { count, member, activityIndex in
        let apps = JSONValue.array((0..<count).map { .string("app\($0)") })
        let categories = JSONValue.array((0..<count).map { .string("cat\($0)") })
        let store: JSONValue
        switch member {
        case 0: store = ["applications": apps]
        case 1: store = ["webDomains": .array((0..<count).map { .string("web\($0)") })]
        case 2: store = ["applicationCategories": ["policy": "specific", "categories": categories, "except": []]]
        default: store = ["applicationCategories": ["policy": "all", "except": apps]]
        }
        let activity: JSONValue =
            member == 1
            ? [
                "kind": "webDomain", "token": .string("web\(activityIndex)"),
                "category": .string("cat\(activityIndex)"),
            ]
            : [
                "kind": "application", "token": .string("app\(activityIndex)"),
                "category": .string("cat\(activityIndex)"),
            ]
        return ["stores": [store], "activity": activity]
    }

    /// A scenario with one member of the wrong shape (`badInput`), or with members absent or null (allowed).
    static let malformed: Gen<JSONValue> = Gen<ShieldScenario>.shieldScenario().zip(Gen<Int>.int(in: 0...7)).map {
        scenario, change in
        guard case .object(var members) = json(scenario) else { return json(scenario) }
        switch change {
        case 0: members["stores"] = ["app0"]
        case 1: members["stores"] = [["applications": "app0"]]
        case 2: members["stores"] = [["applicationCategories": ["policy": "some"]]]
        case 3: members["stores"] = [["applicationCategories": ["policy": "specific"]]]
        case 4: members["activity"] = ["kind": "widget", "token": "app0", "category": "cat0"]
        case 5: members["activity"] = ["kind": "application", "token": "app0"]
        case 6:
            members["stores"] = [["applications": .null, "webDomainCategories": ["policy": "all", "except": .null]]]
        default: members["stores"] = [["applications": [1]]]
        }
        return .object(members)
    }
}
