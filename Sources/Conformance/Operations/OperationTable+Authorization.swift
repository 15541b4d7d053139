import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `auth.tokens` and `auth.policy` (`SPEC.md` §3, §5).
    static var authorizationOperations: [Operation] {
        [
            Operation(
                name: "auth.tokens",
                summary: "Which picked names hold a valid token after grants and revocations (SPEC §3)"
            ) { input in
                let events = try input.array("events").enumerated().map { index, element in
                    try AuthorizationWire.event(element, at: "events[\(index)]")
                }
                let query = try input.stringArray("query")
                var ledger = TokenGrantLedger()
                ledger.apply(events)
                var valid: [String: JSONValue] = [:]
                for name in query { valid[name] = .bool(ledger.isValid(name)) }
                return ["valid": .object(valid)]
            },
            Operation(
                name: "auth.policy", summary: "The app lifecycle policy's actions for status observations (SPEC §3)"
            ) { input in
                let observations = try input.array("observations").enumerated().map { index, element in
                    try AuthorizationWire.observation(element, at: "observations[\(index)]")
                }
                var policy = LifecyclePolicy()
                let actions = policy.observe(observations)
                return [
                    "actions": .array(actions.map { .string($0.rawValue) }),
                    "shieldsActive": .bool(policy.shieldsActive),
                ]
            },
        ]
    }
}

/// The wire shapes of `auth.tokens` and `auth.policy` (`SPEC.md` §5).
///
/// Choices the spec leaves open:
/// - an event is an object with `kind` (`authorize`, `revoke`, `pick`); `pick` needs a string `name`, the other
///   kinds ignore `name`; anything else is `badInput`;
/// - a queried name never picked is `false`; a name queried twice appears once;
/// - an observation is one of the strings `notDetermined`, `denied`, `approved`, `approvedWithDataAccess`
///   (treated as approved), `pick`; anything else is `badInput`.
enum AuthorizationWire {
    static func event(_ value: JSONValue, at path: String) throws -> TokenGrantLedger.Event {
        guard value.objectValue != nil else { throw BadInput("\(path) is \(value.typeName), not an object") }
        guard let kind = value["kind"]?.stringValue else { throw BadInput("\(path).kind is missing or not a string") }
        switch kind {
        case "authorize": return .authorize
        case "revoke": return .revoke
        case "pick":
            guard let name = value["name"]?.stringValue else {
                throw BadInput("\(path) is a pick without a string name")
            }
            return .pick(name)
        default:
            throw BadInput("\(path).kind is \"\(kind)\", not authorize, revoke or pick")
        }
    }

    static func observation(_ value: JSONValue, at path: String) throws -> LifecyclePolicy.Observation {
        guard let text = value.stringValue else { throw BadInput("\(path) is \(value.typeName), not a string") }
        if text == "pick" { return .pick }
        guard let status = AuthorizationStatus(rawValue: text) else {
            throw BadInput("\(path) is \"\(text)\", not a status or pick")
        }
        return .status(status)
    }
}
