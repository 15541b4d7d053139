import Conformance
import StrictJSON

/// An implementation's closures as wire operations: each input read, and each answer written, by the operation
/// table's own wire helpers (`SelectionWire`, `ShieldWire`, `AuthorizationWire`, `EncodingWire`), so the closures
/// are judged on exactly the inputs and outputs the reference is.
///
/// A malformed input is `badInput` before the closure runs, as in the reference; an error the closure throws is
/// answered with its ``ThrownErrorCode``. An operation without a closure is `unsupported`.
struct WireOperations {
    private let byName: [String: Operation]

    init(_ implementation: ScreenTimeImplementation) {
        let call = ThrownErrorCode(mapping: implementation.errorCode)
        var table: [String: Operation] = [:]
        func add(_ operation: ScreenTimeOperation, _ body: @escaping @Sendable (InputReader) throws -> JSONValue) {
            let summary = OperationTable.byName[operation.rawValue]?.summary ?? ""
            table[operation.rawValue] = Operation(name: operation.rawValue, summary: summary, body: body)
        }
        if let decode = implementation.decodeSelection {
            add(.selectionDecode) { input in
                let stored = try input.string("base64")
                return SelectionWire.output(try call { try decode(stored) })
            }
        }
        if let equal = implementation.selectionsEqual {
            add(.selectionEqual) { input in
                let a = try input.string("a")
                let b = try input.string("b")
                return SelectionWire.equalOutput(try call { try equal(a, b) })
            }
        }
        if let order = implementation.displayOrder {
            add(.selectionOrder) { input in
                let stored = try input.string("base64")
                let kind = try SelectionWire.kind(input)
                let selection = try SelectionWire.selection(stored)
                return SelectionWire.orderOutput(try call { try order(selection, kind) }.map(\.data))
            }
        }
        if let combine = implementation.combineSelections {
            add(.selectionCombine) { input in
                let operation = try SelectionWire.setOperation(input)
                let a = try SelectionWire.selection(try input.string("a"))
                let b = try SelectionWire.selection(try input.string("b"))
                return SelectionWire.output(try call { try combine(a, b, operation) })
            }
        }
        if let evaluate = implementation.evaluateShield {
            add(.shieldEvaluate) { input in
                let stores = try ShieldWire.stores(input)
                let activity = try ShieldWire.activity(try input.reader("activity")).activity
                return ShieldWire.json(try call { try evaluate(stores, activity) })
            }
        }
        if let validity = implementation.tokenValidity {
            add(.authTokens) { input in
                let events = try AuthorizationWire.events(input)
                let query = try input.stringArray("query")
                return AuthorizationWire.tokensOutput(query: query, isValid: try call { try validity(events) })
            }
        }
        if let policy = implementation.authorizationPolicy {
            add(.authPolicy) { input in
                let observations = try AuthorizationWire.observations(input)
                let outcome = try call { try policy(observations) }
                return AuthorizationWire.policyOutput(actions: outcome.actions, shieldsActive: outcome.shieldsActive)
            }
        }
        if let encode = implementation.encodeURLComponent {
            add(.urlEncode) { input in
                let text = try input.string("text")
                return EncodingWire.encodedOutput(try call { try encode(text) })
            }
        }
        if let decode = implementation.decodeURLComponent {
            add(.urlDecode) { input in
                let encoded = try input.string("encoded")
                return EncodingWire.textOutput(try call { try decode(encoded) })
            }
        }
        if let render = implementation.renderTemplate {
            add(.templateRender) { input in
                let template = try input.string("template")
                let values = try EncodingWire.templateValues(input)
                return EncodingWire.renderingOutput(try call { try render(template, values) })
            }
        }
        byName = table
    }

    /// The operations as an implementation the runner and the explorer call in this process.
    func inProcess(named name: String) -> InProcessImplementation {
        InProcessImplementation(name: name, summary: "in process (ScreenTimeTesting)", perform: perform)
    }

    /// Answers one request: the closure's answer, or `unsupported` for an operation without one.
    func perform(_ op: String, _ input: JSONValue) -> OperationOutcome {
        byName[op]?.perform(input) ?? .unsupported
    }
}
