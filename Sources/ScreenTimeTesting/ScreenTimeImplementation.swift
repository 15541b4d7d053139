import Foundation

/// Your code under test, described operation by operation in the reference's own types: one optional closure per
/// operation of `SPEC.md` §5, a missing closure meaning the operation is unsupported.
///
/// Rules:
/// - The kit does all the JSON. It reads each case's input through the operation table's own wire parsing (a
///   malformed input is `badInput` before any closure runs), calls the closure, and writes the answer as the
///   reference's is written: `selection.decode` and `selection.combine` report the returned selection's set sizes
///   and its canonical string (`SPEC.md` §1), `shield.evaluate` the verdict, and so on.
/// - `selection.order` and `selection.combine` hand their closures selections that the reference decoded: those
///   vectors judge ordering and set algebra; decoding is judged through ``decodeSelection``.
/// - A thrown error becomes the answer's error code: ``errorCode`` first, then the codes of the reference's own
///   errors (`SelectionDecodingError`, `PercentDecodingError`, `ShieldLimitExceeded`, any `CodedError`). Any
///   other error is answered as the code `unknown error: TYPE.CASE`, which matches no expectation and shows what
///   was thrown (an assumption of the kit: the spec's codes are all an adapter may answer).
/// - Operations in ``mayTrap`` are left out of in-process checks (a trap would end the test process) and served
///   by ``ScreenTimeAdapter``, where `stc conformance` reports a trap as `crash` and goes on.
///
/// ```swift
/// let app = ScreenTimeImplementation(
///     name: "MyBlocker",
///     decodeSelection: { try StoredSelection.decode($0) },
///     encodeURLComponent: { AppLink.encode($0) },
///     errorCode: { ($0 as? StoredSelection.Failure)?.specCode })
/// ```
public struct ScreenTimeImplementation: Sendable {
    /// `selection.decode`: the selection a stored string holds. Source: `SPEC.md` §1 (decoding is total).
    public typealias DecodeSelection = @Sendable (_ stored: String) throws -> FamilyActivitySelection
    /// `selection.decode` with a `format`: the selection a stored value of one of the single-selection formats
    /// holds.
    ///
    /// Rule: `empty`, then `tooLarge` (over 1 MiB), then the format's own layers (base64, JSON or a property list),
    /// then `schema` and `token`; never a trap, and an empty stored value is `empty` in every format, never an
    /// empty selection (field bug 11). `format` is never `json-document` (that is ``DecodeSelectionDocument``).
    /// Source: `SPEC.md` §1.1, §1.2, §5.2.
    ///
    /// ```swift
    /// decodeSelectionFormat: { stored, format in try SelectionStore.read(Data(stored), as: format) }
    /// ```
    ///
    /// - Parameters:
    ///   - stored: The stored bytes; for `base64-json` and `base64-plist`, the text's UTF-8.
    ///   - format: What the bytes are.
    /// - Returns: The selection.
    /// - Throws: An error whose code (``errorCode`` or the kit's mapping) is the spec's: `empty`, `tooLarge`,
    ///   `base64`, `json`, `plist`, `schema` or `token`.
    public typealias DecodeSelectionFormat =
        @Sendable (_ stored: [UInt8], _ format: SelectionFormat) throws -> FamilyActivitySelection
    /// `selection.decode` with the format `json-document`: every selection a JSON document holds, each read on its
    /// own.
    ///
    /// Rule: the whole document's `empty`, `tooLarge`, `json` or `schema` (a key repeated outside the selections)
    /// is thrown; otherwise every object with a token-array member is a selection, found depth first and named by
    /// its JSON Pointer, and answers its selection or its own error. One bad selection never hides another (field
    /// bug 9: `try? decode(...) ?? [:]`). Source: `SPEC.md` §1.3, §7.9.
    ///
    /// ```swift
    /// decodeSelectionDocument: { document in
    ///     try ProfileStore.selections(in: Data(document)).map { SelectionDocumentEntry(path: $0.pointer, selection: $0.result) }
    /// }
    /// ```
    ///
    /// - Parameter document: The document's bytes.
    /// - Returns: The selections in document order, each with its path and its selection or error.
    /// - Throws: An error for the whole document, whose code is `empty`, `tooLarge`, `json` or `schema`.
    public typealias DecodeSelectionDocument = @Sendable (_ document: [UInt8]) throws -> [SelectionDocumentEntry]
    /// `selection.encode`: a selection written in a storage format, judged by reading the bytes back with the
    /// reference in the same format.
    ///
    /// Rule: the answer must read back, in `format`, as `selection`: every member kept (`includeEntireCategory`
    /// too), and never a placeholder such as `[]` (field bug 10) or `""` (field bug 12); the bytes themselves are
    /// free. `format` is never `json-document`. Source: `SPEC.md` §1.1, §5.2, §5.3.
    ///
    /// ```swift
    /// encodeSelection: { selection, format in Array(try SelectionStore.write(selection, as: format)) }
    /// ```
    ///
    /// - Parameters:
    ///   - selection: The selection to write (decoded by the reference from the case's stored string).
    ///   - format: The format to write it in.
    /// - Returns: The stored bytes; for `base64-json` and `base64-plist`, the text's UTF-8.
    /// - Throws: An error, answered with its code: `unencodable` when the format cannot hold the selection
    ///   (`xml-plist` and a character XML forbids; a thrown `SelectionEncodingError` maps to it), and nothing else.
    public typealias EncodeSelection =
        @Sendable (_ selection: FamilyActivitySelection, _ format: SelectionFormat) throws -> [UInt8]
    /// `selection.equal`: whether two stored strings hold the same selection (field bug 3 compares the strings).
    public typealias SelectionsEqual = @Sendable (_ a: String, _ b: String) throws -> Bool
    /// `selection.order`: one kind's tokens in the order your list shows them (`SPEC.md` §1, stable order).
    public typealias DisplayOrder =
        @Sendable (_ selection: FamilyActivitySelection, _ kind: SelectionTokenKind) throws -> [TokenIdentity]
    /// `selection.combine`: one of the four set operations (`SPEC.md` §1, set algebra).
    public typealias CombineSelections =
        @Sendable (
            _ a: FamilyActivitySelection, _ b: FamilyActivitySelection,
            _ operation: FamilyActivitySelection.SetOperation
        ) throws -> FamilyActivitySelection
    /// `shield.evaluate`: the verdict for an activity over several stores' settings (`SPEC.md` §2).
    public typealias EvaluateShield =
        @Sendable (_ stores: [ShieldSettings], _ activity: ShieldActivity) throws ->
        ShieldVerdict
    /// `auth.policy`: what your app does with status observations, starting approved with shields active
    /// (`SPEC.md` §3): the actions in order, and whether shields are active at the end.
    public typealias AuthorizationPolicy =
        @Sendable (_ observations: [LifecyclePolicy.Observation]) throws -> (
            actions: [LifecyclePolicy.Action], shieldsActive: Bool
        )
    /// `auth.tokens`: after the grant events, which picked names hold a valid token (`SPEC.md` §3, grants). The
    /// kit asks the returned function about each queried name.
    public typealias TokenValidity = @Sendable (_ events: [TokenGrantLedger.Event]) throws -> (String) -> Bool
    /// `url.encode`: one URL component percent-encoded (`SPEC.md` §4).
    public typealias EncodeURLComponent = @Sendable (_ text: String) throws -> String
    /// `url.decode`: one percent-encoded URL component decoded (`SPEC.md` §4).
    public typealias DecodeURLComponent = @Sendable (_ encoded: String) throws -> String
    /// `template.render`: a shield-text template rendered with the values, and the keys without one (`SPEC.md` §4).
    public typealias RenderTemplate =
        @Sendable (_ template: String, _ values: [String: String?]) throws -> ShieldTextTemplate.Rendering
    /// `activity.schedule`: the interval a schedule's `nextInterval` answers at a moment, or what `startMonitoring`
    /// would reject it for (your app's own model of its schedules, used to validate them or to show "unblocks at").
    ///
    /// Rule: the interval under way at `moment` (the latest start at most a week back whose end is still ahead) or
    /// else the next one, matching the components on the wall clock in their `timeZone` or in `timeZone`; an end
    /// earlier in the day than the start is on the next day (field bug 14), an end of 00:00 is the midnight after
    /// the start (field bug 13), an end equal to the start a whole day later, and across a daylight-saving change
    /// the interval is an hour shorter or longer in seconds. Throw what `startMonitoring` would:
    /// `invalidDateComponents` (components that match nothing, `hour: 24`, a negative `warningTime`),
    /// `intervalTooShort` (under 15 minutes, field bug 15), `intervalTooLong` (over a week); returning `nil` is
    /// answered `invalidDateComponents`. The kit writes the interval as returned, so an interval your code
    /// accepts but iOS rejects is a finding. Source: `SPEC.md` §8.1, §5.2.
    ///
    /// ```swift
    /// nextActivityInterval: { schedule, moment, zone in try BlockPlanner(schedule, zone).interval(at: moment) }
    /// // {hour: 21} → {hour: 7} at 2026-03-07T20:00-05:00 → 21:00 EST to 07:00 EDT, 9 hours in seconds
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: The schedule (components as the case gives them).
    ///   - moment: The moment to look from (whole seconds).
    ///   - timeZone: The device's time zone.
    /// - Returns: The interval, or `nil` when the components match no date.
    /// - Throws: A `DeviceActivityCenter.MonitoringError` (or an error mapped to one of its codes by
    ///   ``errorCode``): `invalidDateComponents`, `intervalTooShort` or `intervalTooLong`.
    public typealias NextActivityInterval =
        @Sendable (_ schedule: DeviceActivitySchedule, _ moment: Date, _ timeZone: TimeZone) throws -> DateInterval?
    /// `activity.monitor`: the callbacks a monitor extension receives, and the errors `startMonitoring` throws,
    /// for a timeline of calls, uses of the device and clock events (your app's monitoring logic, or a model of
    /// it, run off device).
    ///
    /// Rule: `startMonitoring` checks authorization, components and durations, the interval's length and the 20
    /// activities in that order (an error is reported, never swallowed: field bug 18), and replaces an activity by
    /// stopping it first; `stopMonitoring([])` stops every activity (field bug 19); callbacks come only while the
    /// device is in use, at the first in-use moment they are due, in the order of `SPEC.md` §8.5; thresholds count
    /// from `max(s, m)` (field bug 16) or, with `includesPastActivity`, from the round hour before the start; a
    /// schedule of mixed kinds gets no callback (field bug 17). Source: `SPEC.md` §8.2–§8.5, §5.2.
    ///
    /// ```swift
    /// monitorActivity: { timeline in try MonitorHarness(timeline).run() }
    /// // start "bedtime" 21:00–07:00 at 20:00, use at 21:10 → [21:10 intervalDidStart(bedtime)]
    /// ```
    ///
    /// - Parameter timeline: The device's zone, the moments, the authorization and the steps, read and checked
    ///   by the wire (in order, uses not overlapping).
    /// - Returns: The callbacks in delivery order, the steps that threw (by index) and the names monitored at
    ///   the timeline's `until`, in code point order.
    /// - Throws: Nothing the spec expects (a step's error belongs in the result's `errors`); a thrown error is
    ///   answered with its code.
    public typealias MonitorActivity =
        @Sendable (_ timeline: ActivityWire.Timeline) throws -> ActivityWire.MonitorResult
    /// `settings.evaluate`: what a launch, a removal, an install, a visit, private browsing or a restriction meets
    /// once a sequence of steps has set (or cleared) the settings of several `ManagedSettingsStore`s: your app's
    /// blocking code, or your own model of what the system enforces (a web filter of your own, a wrapper library
    /// that maps another language's calls onto the stores).
    ///
    /// Rule: each setting is the most restrictive value over the stores, and `stores` names every store that
    /// decides it (unnamed first); `clearAllSettings()` clears every group of its store, not only the shield
    /// (field bug 20); `blockedApplications` and the policy sets hold at most 50 items, past that every query is
    /// `limitExceeded` (field bug 21); a policy domain covers itself and its subdomains, compared as lower-case
    /// domain names (field bug 22); a hidden app is never shielded; the checks come in the order of `SPEC.md` §9.5.
    /// Source: `SPEC.md` §9, §5.2.
    ///
    /// ```swift
    /// evaluateSettings: { request in try FilterModel(request.steps).answer(request.query) }
    /// // webContent.blockedByFilter = .specific(["example.com"]) → visit https://www.example.com/ → blocked
    /// ```
    ///
    /// - Parameter request: The steps (a store and an assignment of members or `clearAllSettings`), in order, and
    ///   the query, read and checked by the wire.
    /// - Returns: The verdict (or the setting's value) and the stores responsible.
    /// - Throws: A `ManagedSettingsError` (or an error mapped to one of its codes by ``errorCode``):
    ///   `limitExceeded`, `invalidWebDomain` or `invalidURL`.
    public typealias EvaluateSettings = @Sendable (_ request: SettingsWire.Request) throws -> SettingsAnswer
    /// The spec's error code for one of your errors, or `nil` to leave it to the kit (see the rules above).
    public typealias ErrorCodeMapping = @Sendable (any Error) -> String?

    /// Shown in every issue and summary.
    public var name: String
    /// Answers `selection.decode` (``ScreenTimeOperation/selectionDecode``).
    public var decodeSelection: DecodeSelection?
    /// Answers `selection.decode` with a single-selection `format` (and without one, when ``decodeSelection`` is
    /// `nil`).
    public var decodeSelectionFormat: DecodeSelectionFormat?
    /// Answers `selection.decode` with the format `json-document`.
    public var decodeSelectionDocument: DecodeSelectionDocument?
    /// Answers `selection.encode` (``ScreenTimeOperation/selectionEncode``).
    public var encodeSelection: EncodeSelection?
    /// Answers `selection.equal` (``ScreenTimeOperation/selectionEqual``).
    public var selectionsEqual: SelectionsEqual?
    /// Answers `selection.order` (``ScreenTimeOperation/selectionOrder``).
    public var displayOrder: DisplayOrder?
    /// Answers `selection.combine` (``ScreenTimeOperation/selectionCombine``).
    public var combineSelections: CombineSelections?
    /// Answers `shield.evaluate` (``ScreenTimeOperation/shieldEvaluate``).
    public var evaluateShield: EvaluateShield?
    /// Answers `auth.policy` (``ScreenTimeOperation/authPolicy``).
    public var authorizationPolicy: AuthorizationPolicy?
    /// Answers `auth.tokens` (``ScreenTimeOperation/authTokens``).
    public var tokenValidity: TokenValidity?
    /// Answers `url.encode` (``ScreenTimeOperation/urlEncode``).
    public var encodeURLComponent: EncodeURLComponent?
    /// Answers `url.decode` (``ScreenTimeOperation/urlDecode``).
    public var decodeURLComponent: DecodeURLComponent?
    /// Answers `template.render` (``ScreenTimeOperation/templateRender``).
    public var renderTemplate: RenderTemplate?
    /// Answers `activity.schedule` (``ScreenTimeOperation/activitySchedule``).
    public var nextActivityInterval: NextActivityInterval?
    /// Answers `activity.monitor` (``ScreenTimeOperation/activityMonitor``).
    public var monitorActivity: MonitorActivity?
    /// Answers `settings.evaluate` (``ScreenTimeOperation/settingsEvaluate``).
    public var evaluateSettings: EvaluateSettings?
    /// Maps your error types to the spec's codes (`SPEC.md` §5 lists them).
    public var errorCode: ErrorCodeMapping
    /// Operations whose closures may trap (a force unwrap, a `fatalError`): checked only through the adapter.
    public var mayTrap: Set<ScreenTimeOperation>

    /// An implementation with the given closures; every one left out is unsupported.
    ///
    /// - Parameters:
    ///   - name: Shown in every issue and summary.
    ///   - decodeSelection: Answers `selection.decode` without a `format` (and with `base64-json`, when
    ///     `decodeSelectionFormat` is `nil`).
    ///   - decodeSelectionFormat: Answers `selection.decode` with a single-selection `format`.
    ///   - decodeSelectionDocument: Answers `selection.decode` with the format `json-document`.
    ///   - selectionsEqual: Answers `selection.equal`.
    ///   - displayOrder: Answers `selection.order`.
    ///   - encodeSelection: Answers `selection.encode`.
    ///   - combineSelections: Answers `selection.combine`.
    ///   - evaluateShield: Answers `shield.evaluate`.
    ///   - authorizationPolicy: Answers `auth.policy`.
    ///   - tokenValidity: Answers `auth.tokens`.
    ///   - encodeURLComponent: Answers `url.encode`.
    ///   - decodeURLComponent: Answers `url.decode`.
    ///   - renderTemplate: Answers `template.render`.
    ///   - nextActivityInterval: Answers `activity.schedule`.
    ///   - monitorActivity: Answers `activity.monitor`.
    ///   - evaluateSettings: Answers `settings.evaluate`.
    ///   - errorCode: The spec's code for one of your errors, or `nil` to leave it to the kit.
    ///   - mayTrap: Operations checked only through ``ScreenTimeAdapter``, never in process.
    public init(
        name: String, decodeSelection: DecodeSelection? = nil,
        decodeSelectionFormat: DecodeSelectionFormat? = nil, decodeSelectionDocument: DecodeSelectionDocument? = nil,
        selectionsEqual: SelectionsEqual? = nil, displayOrder: DisplayOrder? = nil,
        encodeSelection: EncodeSelection? = nil, combineSelections: CombineSelections? = nil,
        evaluateShield: EvaluateShield? = nil, authorizationPolicy: AuthorizationPolicy? = nil,
        tokenValidity: TokenValidity? = nil, encodeURLComponent: EncodeURLComponent? = nil,
        decodeURLComponent: DecodeURLComponent? = nil, renderTemplate: RenderTemplate? = nil,
        nextActivityInterval: NextActivityInterval? = nil, monitorActivity: MonitorActivity? = nil,
        evaluateSettings: EvaluateSettings? = nil, errorCode: @escaping ErrorCodeMapping = { _ in nil },
        mayTrap: Set<ScreenTimeOperation> = []
    ) {
        self.name = name
        self.decodeSelection = decodeSelection
        self.decodeSelectionFormat = decodeSelectionFormat
        self.decodeSelectionDocument = decodeSelectionDocument
        self.encodeSelection = encodeSelection
        self.selectionsEqual = selectionsEqual
        self.displayOrder = displayOrder
        self.combineSelections = combineSelections
        self.evaluateShield = evaluateShield
        self.authorizationPolicy = authorizationPolicy
        self.tokenValidity = tokenValidity
        self.encodeURLComponent = encodeURLComponent
        self.decodeURLComponent = decodeURLComponent
        self.renderTemplate = renderTemplate
        self.nextActivityInterval = nextActivityInterval
        self.monitorActivity = monitorActivity
        self.evaluateSettings = evaluateSettings
        self.errorCode = errorCode
        self.mayTrap = mayTrap
    }

    /// The operations that have a closure, in `SPEC.md` §5 order.
    public var supported: [ScreenTimeOperation] { ScreenTimeOperation.allCases.filter(hasClosure) }

    /// Whether `operation` has a closure.
    func hasClosure(_ operation: ScreenTimeOperation) -> Bool {
        switch operation {
        case .selectionDecode:
            return decodeSelection != nil || decodeSelectionFormat != nil || decodeSelectionDocument != nil
        case .selectionEncode: return encodeSelection != nil
        case .selectionEqual: return selectionsEqual != nil
        case .selectionOrder: return displayOrder != nil
        case .selectionCombine: return combineSelections != nil
        case .shieldEvaluate: return evaluateShield != nil
        case .authTokens: return tokenValidity != nil
        case .authPolicy: return authorizationPolicy != nil
        case .urlEncode: return encodeURLComponent != nil
        case .urlDecode: return decodeURLComponent != nil
        case .templateRender: return renderTemplate != nil
        case .activitySchedule: return nextActivityInterval != nil
        case .activityMonitor: return monitorActivity != nil
        case .settingsEvaluate: return evaluateSettings != nil
        }
    }
}

/// One selection of a JSON document as your code read it (`SPEC.md` §1.3): where it is, and its selection or its
/// own error.
///
/// Rule: `path` is the selection's JSON Pointer from the document's root (RFC 6901: `~` written `~0`, `/` written
/// `~1`, array elements by index, `""` for the top level); a failure's code comes from the implementation's
/// ``ScreenTimeImplementation/errorCode`` or the kit's mapping, as a thrown error's does. Source: `SPEC.md` §1.3.
///
/// ```swift
/// SelectionDocumentEntry(path: "/profiles/3F2A/selectedActivity", selection: .success(selection))
/// SelectionDocumentEntry(path: "/profiles/9B1C/selectedActivity", selection: .failure(StoreError.badToken))
/// ```
public struct SelectionDocumentEntry: Sendable {
    /// The selection's JSON Pointer from the document's root.
    public var path: String
    /// The selection, or why it could not be read.
    public var selection: Result<FamilyActivitySelection, any Error>

    /// An entry for the selection at `path`.
    ///
    /// - Parameters:
    ///   - path: Its JSON Pointer (`""` for the top-level value).
    ///   - selection: The selection, or its error.
    public init(path: String, selection: Result<FamilyActivitySelection, any Error>) {
        self.path = path
        self.selection = selection
    }
}
