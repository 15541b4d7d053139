import Conformance
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import StrictJSON

/// Inputs of `auth.tokens` and `auth.policy`: grant histories with revocations and re-authorizations, and status
/// observations with `notDetermined` flicker (the properties' generators), sometimes with an unknown word.
enum AuthorizationInputs {
    static let operations = [tokens, policy]

    static let names = ["mail", "maps", "news"]

    static let tokens = ExploredOperation(
        name: "auth.tokens",
        input: Gen<TokenGrantLedger.Event>.grantEvent(names: names).array(count: 0...10).zip(
            Gen<String>.element(of: names + ["never-picked"]).array(count: 1...4)
        ).map { events, query in
            ["events": .array(events.map(json)), "query": .array(query.map(JSONValue.string))]
        })

    static func json(_ event: TokenGrantLedger.Event) -> JSONValue {
        switch event {
        case .authorize: return ["kind": "authorize"]
        case .revoke: return ["kind": "revoke"]
        case .pick(let name): return ["kind": "pick", "name": .string(name)]
        }
    }

    static let observation: Gen<JSONValue> = Gen<JSONValue>.frequency([
        (20, Gen<LifecyclePolicy.Observation>.lifecycleObservation.map { .string($0.name) }),
        (1, Gen<JSONValue>.element(of: ["restricted", "Approved", 1, .null])),
    ])

    static let policy = ExploredOperation(
        name: "auth.policy", input: observation.array(count: 0...12).map { ["observations": .array($0)] })
}
