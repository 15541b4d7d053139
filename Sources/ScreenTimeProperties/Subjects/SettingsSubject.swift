import ScreenTimeReference

/// The settings code a `settings.*` property checks: how a change reaches a store, and how the stores of an
/// environment answer a query. Defaults to the reference (the stores' own API, `ScreenTimeEnvironment.evaluate`);
/// a test swaps either half for a broken one to show the property catches it.
///
/// ```swift
/// let shieldOnly = SettingsSubject(apply: { change, store in
///     if change == .clearAllSettings { store.shield = ShieldSettings() } else { SettingsScenario.apply(change, to: store) }
/// })
/// ```
package struct SettingsSubject: Sendable {
    package var apply: @Sendable (SettingsScenario.Change, ManagedSettingsStore) -> Void
    package var evaluate:
        @Sendable (ScreenTimeEnvironment, SettingsQuery) -> Result<SettingsAnswer, ManagedSettingsError>

    package init(
        apply: @escaping @Sendable (SettingsScenario.Change, ManagedSettingsStore) -> Void = SettingsScenario.apply,
        evaluate:
            @escaping @Sendable (ScreenTimeEnvironment, SettingsQuery) -> Result<
                SettingsAnswer, ManagedSettingsError
            > = SettingsSubject.referenceEvaluate
    ) {
        self.apply = apply
        self.evaluate = evaluate
    }

    package static let reference = SettingsSubject()

    @Sendable package static func referenceEvaluate(
        _ environment: ScreenTimeEnvironment, _ query: SettingsQuery
    ) -> Result<SettingsAnswer, ManagedSettingsError> {
        Result { () throws(ManagedSettingsError) in try environment.evaluate(query) }
    }

    /// A fresh environment with `steps` applied, store by store, in order.
    package func environment(_ steps: [SettingsScenario.Step]) -> ScreenTimeEnvironment {
        let environment = ScreenTimeEnvironment()
        for step in steps { apply(step.change, SettingsScenario.store(step.store, in: environment)) }
        return environment
    }

    /// The answer to `scenario`: its steps on a fresh environment, then its query.
    package func answer(_ scenario: SettingsScenario) -> Result<SettingsAnswer, ManagedSettingsError> {
        evaluate(environment(scenario.steps), scenario.query)
    }
}
