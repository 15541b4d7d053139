import Testing
import XCTest

// The kit's earlier spellings, kept so that existing tests compile, with a warning and a fix-it to the new name.
// Each forwards to the new declaration and behaves as it did.

extension ImplementationCheck {
    /// Runs the check and records each issue in the running Swift Testing test.
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - sourceLocation: Where the issues are shown; leave the default.
    /// - Returns: What the check found.
    @available(*, deprecated, renamed: "verify", message: "verify records into Swift Testing and XCTest alike")
    @discardableResult
    public func expect(_ implementation: ScreenTimeImplementation, sourceLocation: SourceLocation = #_sourceLocation)
        -> Outcome
    {
        let result = run(implementation, relativeTo: TestFilePath.directory(of: sourceLocation.filePath))
        IssueRecording.swiftTesting(result.issues, at: sourceLocation)
        return result
    }

    /// Runs the check and fails the running XCTest test once per issue that is not a listed deviation.
    ///
    /// - Parameters:
    ///   - implementation: The code under test.
    ///   - file: The caller's `#filePath`; leave the default.
    ///   - line: The caller's line; leave the default.
    /// - Returns: What the check found.
    @available(*, deprecated, renamed: "verify", message: "verify records into Swift Testing and XCTest alike")
    @discardableResult
    public func assert(_ implementation: ScreenTimeImplementation, file: StaticString = #filePath, line: UInt = #line)
        -> Outcome
    {
        let result = run(implementation, relativeTo: TestFilePath.directory(of: "\(file)"))
        IssueRecording.xcTest(result.issues, file: file, line: line)
        return result
    }
}

extension ExplorationCheckResult {
    /// The run as `stc explore` reports it.
    @available(*, deprecated, renamed: "exploration", message: "or read findings, cases and operations directly")
    public var result: ExploreResult? { exploration }
}

extension ScreenTimeImplementation {
    /// `auth.policy`'s closure type, by its earlier name.
    @available(*, deprecated, renamed: "AuthorizationPolicy")
    public typealias LifecycleHandling = AuthorizationPolicy
    /// `url.encode`'s and `url.decode`'s closure type, by its earlier name.
    @available(*, deprecated, message: "use EncodeURLComponent or DecodeURLComponent")
    public typealias URLComponentCoding = @Sendable (_ text: String) throws -> String

    /// `auth.policy`'s closure, by its earlier name.
    @available(*, deprecated, renamed: "authorizationPolicy")
    public var lifecyclePolicy: AuthorizationPolicy? {
        get { authorizationPolicy }
        set { authorizationPolicy = newValue }
    }

    /// An implementation with `auth.policy`'s closure under its earlier label.
    ///
    /// - Parameters:
    ///   - name: Shown in every issue and summary.
    ///   - decodeSelection: Answers `selection.decode`.
    ///   - selectionsEqual: Answers `selection.equal`.
    ///   - displayOrder: Answers `selection.order`.
    ///   - combineSelections: Answers `selection.combine`.
    ///   - evaluateShield: Answers `shield.evaluate`.
    ///   - lifecyclePolicy: Answers `auth.policy` (required here, so that a call without it is never ambiguous).
    ///   - tokenValidity: Answers `auth.tokens`.
    ///   - encodeURLComponent: Answers `url.encode`.
    ///   - decodeURLComponent: Answers `url.decode`.
    ///   - renderTemplate: Answers `template.render`.
    ///   - errorCode: The spec's code for one of your errors, or `nil` to leave it to the kit.
    ///   - mayTrap: Operations checked only through ``ScreenTimeAdapter``, never in process.
    @available(
        *, deprecated,
        renamed:
            "init(name:decodeSelection:decodeSelectionFormat:decodeSelectionDocument:selectionsEqual:displayOrder:encodeSelection:combineSelections:evaluateShield:authorizationPolicy:tokenValidity:encodeURLComponent:decodeURLComponent:renderTemplate:nextActivityInterval:monitorActivity:evaluateSettings:errorCode:mayTrap:)"
    )
    public init(
        name: String, decodeSelection: DecodeSelection? = nil, selectionsEqual: SelectionsEqual? = nil,
        displayOrder: DisplayOrder? = nil, combineSelections: CombineSelections? = nil,
        evaluateShield: EvaluateShield? = nil, lifecyclePolicy: AuthorizationPolicy?,
        tokenValidity: TokenValidity? = nil, encodeURLComponent: EncodeURLComponent? = nil,
        decodeURLComponent: DecodeURLComponent? = nil, renderTemplate: RenderTemplate? = nil,
        errorCode: @escaping ErrorCodeMapping = { _ in nil }, mayTrap: Set<ScreenTimeOperation> = []
    ) {
        self.init(
            name: name, decodeSelection: decodeSelection, selectionsEqual: selectionsEqual,
            displayOrder: displayOrder, combineSelections: combineSelections, evaluateShield: evaluateShield,
            authorizationPolicy: lifecyclePolicy, tokenValidity: tokenValidity,
            encodeURLComponent: encodeURLComponent, decodeURLComponent: decodeURLComponent,
            renderTemplate: renderTemplate, errorCode: errorCode, mayTrap: mayTrap)
    }
}
