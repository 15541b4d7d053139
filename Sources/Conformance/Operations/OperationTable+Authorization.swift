import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `auth.tokens` and `auth.policy` (`SPEC.md` §3, §5), read and written through ``AuthorizationWire``.
    static var authorizationOperations: [Operation] {
        [
            Operation(
                name: "auth.tokens",
                summary: "Which picked names hold a valid token after grants and revocations (SPEC §3)"
            ) { input in
                let events = try AuthorizationWire.events(input)
                let query = try input.stringArray("query")
                var ledger = TokenGrantLedger()
                ledger.apply(events)
                return AuthorizationWire.tokensOutput(query: query, isValid: ledger.isValid)
            },
            Operation(
                name: "auth.policy", summary: "The app lifecycle policy's actions for status observations (SPEC §3)"
            ) { input in
                var policy = LifecyclePolicy()
                let actions = policy.observe(try AuthorizationWire.observations(input))
                return AuthorizationWire.policyOutput(actions: actions, shieldsActive: policy.shieldsActive)
            },
        ]
    }
}

/// The wire shapes of `auth.tokens` and `auth.policy` (`SPEC.md` §5): the members read from an input, and the
/// outputs written from reference values. The reference's operations and the testing kit's typed closures read
/// and write through these functions.
///
/// Choices the spec leaves open:
/// - an event is an object with `kind` (`authorize`, `revoke`, `pick`); `pick` needs a string `name`, the other
///   kinds ignore `name`; anything else is `badInput`;
/// - a queried name never picked is `false`; a name queried twice appears once;
/// - an observation is one of the strings `notDetermined`, `denied`, `approved`, `approvedWithDataAccess`
///   (treated as approved), `pick`; anything else is `badInput`.
///
/// ```swift
/// let events = try AuthorizationWire.events(input)    // [.authorize, .pick("mail"), .revoke]
/// AuthorizationWire.tokensOutput(query: ["mail"], isValid: ledger.isValid)   // {"valid": {"mail": false}}
/// ```
public enum AuthorizationWire {
    /// The input member `events` of `auth.tokens`, in order; a malformed event is ``BadInput`` naming its index.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The events, in order.
    /// - Throws: ``BadInput`` for a missing member or a malformed event.
    public static func events(_ input: InputReader) throws -> [TokenGrantLedger.Event] {
        try input.array("events").enumerated().map { index, element in
            try event(element, at: "events[\(index)]")
        }
    }

    /// The input member `observations` of `auth.policy`, in order; a malformed one is ``BadInput`` naming its
    /// index.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The observations, in order.
    /// - Throws: ``BadInput`` for a missing member or a malformed observation.
    public static func observations(_ input: InputReader) throws -> [LifecyclePolicy.Observation] {
        try input.array("observations").enumerated().map { index, element in
            try observation(element, at: "observations[\(index)]")
        }
    }

    /// The output of `auth.tokens`: `{"valid": {name: isValid(name)}}` for each name of `query` (a name queried
    /// twice appears once).
    ///
    /// - Parameters:
    ///   - query: The names asked about.
    ///   - isValid: Whether a name's token is valid.
    /// - Returns: The output object.
    public static func tokensOutput(query: [String], isValid: (String) -> Bool) -> JSONValue {
        var valid: [String: JSONValue] = [:]
        for name in query { valid[name] = .bool(isValid(name)) }
        return ["valid": .object(valid)]
    }

    /// The output of `auth.policy`: `{"actions": […], "shieldsActive": …}`, the actions by their wire names.
    ///
    /// - Parameters:
    ///   - actions: The policy's actions, in order.
    ///   - shieldsActive: Whether shields are active at the end.
    /// - Returns: The output object.
    public static func policyOutput(actions: [LifecyclePolicy.Action], shieldsActive: Bool) -> JSONValue {
        ["actions": .array(actions.map { .string($0.rawValue) }), "shieldsActive": .bool(shieldsActive)]
    }

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
