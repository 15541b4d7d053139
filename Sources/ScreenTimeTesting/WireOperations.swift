import Conformance
import StrictJSON

import struct Foundation.Date
import struct Foundation.DateInterval
import struct Foundation.TimeInterval

/// An implementation's closures as wire operations: each input read, and each answer written, by the operation
/// table's own wire helpers (`SelectionWire`, `ShieldWire`, `AuthorizationWire`, `EncodingWire`, `ActivityWire`), so the closures
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
        if implementation.hasClosure(.selectionDecode) {
            let decode = implementation.decodeSelection
            let decodeFormat = implementation.decodeSelectionFormat
            let decodeDocument = implementation.decodeSelectionDocument
            let body = Operation(name: "selection.decode", summary: "") { input in
                guard input.has("format") else {
                    let stored = try input.string("base64")
                    if let decode { return SelectionWire.output(try call { try decode(stored) }) }
                    guard let decodeFormat else { throw BadInput("no closure answers selection.decode") }
                    return SelectionWire.output(try call { try decodeFormat(Array(stored.utf8), .base64JSON) })
                }
                let format = try SelectionWire.format(input)
                let stored = try SelectionWire.storedValue(input, format)
                if format == .jsonDocument {
                    guard let decodeDocument else { throw BadInput("no closure answers json-document") }
                    return Self.documentOutput(try call { try decodeDocument(stored) }, call)
                }
                if let decodeFormat { return SelectionWire.output(try call { try decodeFormat(stored, format) }) }
                guard let decode else { throw BadInput("no closure answers \(format.rawValue)") }
                return SelectionWire.output(try call { try decode(String(decoding: stored, as: UTF8.self)) })
            }
            let routes = DecodeRoutes(
                plain: decode != nil, formats: decodeFormat != nil, documents: decodeDocument != nil)
            table[ScreenTimeOperation.selectionDecode.rawValue] = Operation(
                name: "selection.decode", summary: OperationTable.byName["selection.decode"]?.summary ?? ""
            ) { input in
                routes.answers(input) ? body.perform(input) : .unsupported
            }
        }
        if let encode = implementation.encodeSelection {
            add(.selectionEncode) { input in
                let selection = try SelectionWire.selection(try input.string("selection"))
                let format = try SelectionWire.format(input)
                guard input.has("format"), format != .jsonDocument else {
                    throw BadInput("format must name a format of one selection, not \"json-document\"")
                }
                let bytes = try call { try encode(selection, format) }
                if format.isBase64Text { return ["base64": .string(String(decoding: bytes, as: UTF8.self))] }
                return ["data": .string(Base64.encode(bytes))]
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
        if let next = implementation.nextActivityInterval {
            add(.activitySchedule) { input in
                let (schedule, at, zone) = try ActivityWire.scheduleQuery(input)
                let moment = Date(timeIntervalSince1970: TimeInterval(at))
                guard let interval = try call({ try next(schedule, moment, zone) }) else {
                    throw WireErrorCode("invalidDateComponents")
                }
                return Self.intervalOutput(interval, at: at)
            }
        }
        if let monitor = implementation.monitorActivity {
            add(.activityMonitor) { input in
                let timeline = try ActivityWire.timeline(input)
                return ActivityWire.monitorOutput(try call { try monitor(timeline) })
            }
        }
        if let evaluate = implementation.evaluateSettings {
            add(.settingsEvaluate) { input in
                let request = try SettingsWire.request(input)
                return SettingsWire.json(try call { try evaluate(request) })
            }
        }
        byName = table
    }

    /// The output of `activity.schedule` for an interval a closure returned (`SPEC.md` §5.2): its moments in whole
    /// seconds (rounded down), its length, and whether it is ongoing at `at`; written as the reference's answer is,
    /// without the limits (the closure throws those).
    static func intervalOutput(_ interval: DateInterval, at: Int64) -> JSONValue {
        let start = Int64(interval.start.timeIntervalSince1970.rounded(.down))
        let end = Int64(interval.end.timeIntervalSince1970.rounded(.down))
        return [
            "start": .string(ActivityMoment.format(start)), "end": .string(ActivityMoment.format(end)),
            "seconds": .number(Double(end - start)), "ongoing": .bool(start <= at),
        ]
    }

    /// The output of `selection.decode` for a `json-document` from the entries a closure returned: each entry's
    /// path with the selection's five members, or with its error's code (`SPEC.md` §1.3, §5.2).
    static func documentOutput(_ entries: [SelectionDocumentEntry], _ call: ThrownErrorCode) -> JSONValue {
        .object([
            "selections": .array(
                entries.map { entry in
                    switch entry.selection {
                    case .success(let selection):
                        guard case .object(var members) = SelectionWire.output(selection) else { return .null }
                        members["path"] = .string(entry.path)
                        return .object(members)
                    case .failure(let error):
                        let code = ThrownErrorCode.code(of: error, mapping: call.mapping)
                        return ["path": .string(entry.path), "error": .string(code)]
                    }
                })
        ])
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

/// Which `selection.decode` inputs an implementation's closures answer: without a `format` (or with `base64-json`)
/// ``ScreenTimeImplementation/decodeSelection`` or ``ScreenTimeImplementation/decodeSelectionFormat``; another
/// single-selection format the latter; `json-document` ``ScreenTimeImplementation/decodeSelectionDocument``. An
/// input no closure answers is `unsupported`, and one whose `format` is not a format name is the wire's
/// `badInput`, whatever the closures.
struct DecodeRoutes: Sendable {
    var plain: Bool
    var formats: Bool
    var documents: Bool

    /// Whether every decode input has a closure (the plain one may be missing: the format closure answers it).
    var answersEverything: Bool { formats && documents }

    func answers(_ input: JSONValue) -> Bool {
        guard let member = input["format"], member != .null else { return plain || formats }
        guard let name = member.stringValue, let format = SelectionFormat(rawValue: name) else { return true }
        switch format {
        case .jsonDocument: return documents
        case .base64JSON: return plain || formats
        default: return formats
        }
    }
}
