import Foundation

extension ScreenTimeImplementation {
    /// The reference itself, closure by closure: every shipped vector passes and no generated case differs.
    ///
    /// Rule: each closure calls the reference's own type for its operation (`FamilyActivitySelection`,
    /// `ShieldEvaluation`, `LifecyclePolicy`, `TokenGrantLedger`, `PercentEncoding`, `ShieldTextTemplate`,
    /// `DeviceActivitySchedule`, and the monitoring engine through `ActivityWire.run`). Start
    /// from it to see what the kit reports, or to test one function of yours while the reference answers the rest.
    ///
    /// ```swift
    /// var mine = ScreenTimeImplementation.reference
    /// mine.name = "my URL encoding"
    /// mine.encodeURLComponent = { DeepLink.encode($0) }
    /// ```
    public static let reference = ScreenTimeImplementation(
        name: "reference",
        decodeSelection: { try FamilyActivitySelection(storedBase64: $0) },
        decodeSelectionFormat: { stored, format in try FamilyActivitySelection(stored: stored, format: format) },
        decodeSelectionDocument: { document in
            try SelectionDecoder.decodeDocument(document).map { entry in
                SelectionDocumentEntry(path: entry.path, selection: entry.result.map(\.selection).mapError { $0 })
            }
        },
        selectionsEqual: { try FamilyActivitySelection(storedBase64: $0) == FamilyActivitySelection(storedBase64: $1) },
        displayOrder: { selection, kind in
            switch kind {
            case .application: return selection.orderedApplicationTokens.map(TokenIdentity.init)
            case .category: return selection.orderedCategoryTokens.map(TokenIdentity.init)
            case .webDomain: return selection.orderedWebDomainTokens.map(TokenIdentity.init)
            }
        },
        encodeSelection: { selection, format in try selection.encoded(as: format) },
        combineSelections: { a, b, operation in a.combined(with: b, operation) },
        evaluateShield: { stores, activity in try ShieldEvaluation.evaluate(activity, stores: stores) },
        authorizationPolicy: { observations in
            var policy = LifecyclePolicy()
            let actions = policy.observe(observations)
            return (actions, policy.shieldsActive)
        },
        tokenValidity: { events in
            var ledger = TokenGrantLedger()
            ledger.apply(events)
            return ledger.isValid
        },
        encodeURLComponent: { PercentEncoding.encodeComponent($0) },
        decodeURLComponent: { try PercentEncoding.decodeComponent($0) },
        renderTemplate: { template, values in ShieldTextTemplate(template).render(values) },
        nextActivityInterval: { schedule, moment, zone in
            guard let interval = schedule.nextInterval(at: moment, in: zone) else { return nil }
            if interval.duration < 900 { throw DeviceActivityCenter.MonitoringError.intervalTooShort }
            if interval.duration > 604_800 { throw DeviceActivityCenter.MonitoringError.intervalTooLong }
            return interval
        },
        monitorActivity: { timeline in ActivityWire.run(timeline) },
        evaluateSettings: { request in try SettingsWire.run(request) })
}
