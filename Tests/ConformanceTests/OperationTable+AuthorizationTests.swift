import StrictJSON
import Testing

@testable import Conformance

/// `auth.tokens` and `auth.policy` wire shapes (`SPEC.md` §5).
@Suite struct OperationTableAuthorizationTests {
    func tokens(_ events: [JSONValue], _ query: [JSONValue]) -> OperationOutcome {
        OperationTable.perform("auth.tokens", input: ["events": .array(events), "query": .array(query)])
    }

    func policy(_ observations: [JSONValue]) -> OperationOutcome {
        OperationTable.perform("auth.policy", input: ["observations": .array(observations)])
    }

    @Test func tokensAcrossARevocation() {
        let events: [JSONValue] = [
            ["kind": "authorize"], ["kind": "pick", "name": "mail"], ["kind": "pick", "name": "chat"],
            ["kind": "revoke"], ["kind": "authorize"], ["kind": "pick", "name": "chat"],
        ]
        #expect(
            tokens(events, ["mail", "chat", "never"])
                == .output(["valid": ["mail": false, "chat": true, "never": false]]))
        #expect(tokens([], []) == .output(["valid": [:]]))
        #expect(tokens([["kind": "pick", "name": "x"]], ["x"]) == .output(["valid": ["x": false]]))
        // name on authorize/revoke is ignored
        #expect(
            tokens([["kind": "authorize", "name": "x"], ["kind": "pick", "name": "x"]], ["x"])
                == .output(["valid": ["x": true]]))
    }

    @Test(
        arguments: [
            [:] as JSONValue,
            ["events": [], "query": "x"],
            ["events": "x", "query": []],
            ["events": [["kind": "pick"]], "query": []],
            ["events": [["kind": "pick", "name": 1]], "query": []],
            ["events": [["kind": "grant"]], "query": []],
            ["events": ["authorize"], "query": []],
            ["events": [], "query": [1]],
        ] as [JSONValue])
    func malformedTokensInputIsBadInput(_ input: JSONValue) {
        #expect(OperationTable.perform("auth.tokens", input: input) == .error("badInput"))
    }

    @Test func policyOutputs() {
        #expect(policy([]) == .output(["actions": [], "shieldsActive": true]))
        #expect(policy(["notDetermined", "notDetermined"]) == .output(["actions": [], "shieldsActive": true]))
        #expect(
            policy(["notDetermined", "denied", "denied"])
                == .output(["actions": ["clearShields", "notifyRevoked"], "shieldsActive": false]))
        #expect(
            policy(["denied", "pick", "approved"])
                == .output(["actions": ["clearShields", "notifyRevoked", "requirePick"], "shieldsActive": false]))
        #expect(
            policy(["denied", "approvedWithDataAccess", "pick"])
                == .output(["actions": ["clearShields", "notifyRevoked", "requirePick"], "shieldsActive": true]))
        #expect(
            policy(["denied", "approved", "pick", "denied", "approved"])
                == .output([
                    "actions": [
                        "clearShields", "notifyRevoked", "requirePick", "clearShields", "notifyRevoked", "requirePick",
                    ], "shieldsActive": false,
                ]))
    }

    @Test(
        arguments: [
            [:] as JSONValue, ["observations": "denied"], ["observations": ["revoked"]], ["observations": [1]],
            ["observations": [["kind": "pick"]]],
        ] as [JSONValue])
    func malformedPolicyInputIsBadInput(_ input: JSONValue) {
        #expect(OperationTable.perform("auth.policy", input: input) == .error("badInput"))
    }
}
