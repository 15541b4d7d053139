import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
    public static func lifecycleMachine(
        _ make: @escaping @Sendable () -> any LifecycleSubject, notDeterminedWeight: Int = 1
    )
        -> StateMachine<LifecycleModel, any LifecycleSubject, LifecycleStep>
    {
        let observations = Gen<LifecyclePolicy.Observation>.frequency([
            (notDeterminedWeight, Gen.constant(.status(.notDetermined))),
            (1, Gen<LifecyclePolicy.Observation>.lifecycleObservation),
        ]).map(LifecycleStep.init)
        return StateMachine(
            initialModel: { LifecycleModel() },
            makeSystem: make,
            commands: { _ in observations },
            nextModel: { model, step in
                var next = model
                _ = next.step(step.observation)
                return next
            },
            execute: { step, system, model in
                let observation = step.observation
                var expectedModel = model
                let expected = expectedModel.step(observation)
                let wasActive = system.shieldsActive
                let actions = system.observe(observation)
                if observation == .status(.notDetermined) && (!actions.isEmpty || system.shieldsActive != wasActive) {
                    return
                        "notDetermined acted: \(actions.map(\.rawValue)), shields active \(wasActive) → \(system.shieldsActive)"
                }
                if actions != expected {
                    return "actions \(actions.map(\.rawValue)), expected \(expected.map(\.rawValue))"
                }
                return nil
            },
            invariant: { model, system in
                system.shieldsActive == model.shieldsActive
                    ? nil : "shields active \(system.shieldsActive), expected \(model.shieldsActive)"
            },
            maxCommands: 30)
    }

    public static func lifecycleMatchesModel(
        _ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }
    ) -> Property {
        lifecycleMachine(make).property(
            "lifecycle.matches-model",
            summary: "stateful: actions and shield state equal the §3 policy model after every observation")
    }

    public static func lifecycleNotDeterminedNeverClears(
        _ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }
    ) -> Property {
        lifecycleMachine(make, notDeterminedWeight: 3).property(
            "lifecycle.not-determined-never-clears",
            summary:
                "stateful, notDetermined-heavy: a notDetermined observation never acts or changes the shields (§3, field bug 6)"
        )
    }

    public static func lifecycleOneNoticePerEpisode(
        _ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }
    ) -> Property {
        Property(
            "lifecycle.one-notice-per-episode",
            summary:
                "each approved→denied episode posts at most one notice, right after clearShields, and only when shields were active (§3)",
            Gen<LifecyclePolicy.Observation>.lifecycleObservation.array(count: 0...30),
            describe: AuthorizationDescription.observations
        ) { observations in
            var subject = make()
            var approved = true
            var notices = 0
            for (step, observation) in observations.enumerated() {
                let startsEpisode = observation == .status(.denied) && approved
                if startsEpisode { notices = 0 }
                let wasActive = subject.shieldsActive
                let actions = subject.observe(observation)
                var count = 0
                for action in actions where action == .notifyRevoked { count += 1 }
                notices += count
                var here: String { "step \(step + 1) (\(observation.name)): actions \(actions.map(\.rawValue))" }
                if notices > 1 { return "\(here): \(notices) notices in one revocation episode" }
                if count > 0 {
                    guard let i = actions.firstIndex(of: .notifyRevoked), i > 0, actions[i - 1] == .clearShields else {
                        return "\(here): notice not right after clearShields"
                    }
                    if !startsEpisode { return "\(here): notice outside an approved→denied transition" }
                    if !wasActive { return "\(here): notice with no shield to lose" }
                } else if startsEpisode && wasActive {
                    return "\(here): revocation with active shields but no notice"
                }
                switch observation {
                case .status(.denied): approved = false
                case .status(.approved), .status(.approvedWithDataAccess): approved = true
                default: break
                }
            }
            return nil
        }
    }

    /// World events for the app harness.
    public enum AppEvent: Sendable, Hashable, CustomStringConvertible {
        /// The user turns the app off in Settings; the app then comes to the foreground and reads the status,
        /// seeing `transient` notDetermined reads first.
        case revokeInSettings(transient: Int)
        /// The user re-approves; the app then reads the status (after `transient` notDetermined reads).
        case reauthorize(transient: Int)
        /// The app comes to the foreground and reads the status (maybe a transient notDetermined).
        case foreground(transient: Bool)
        /// The user picks apps in the picker.
        case pick

        public var description: String {
            switch self {
            case .revokeInSettings(let n): return "revoke in Settings, app reads \(n)× notDetermined then the status"
            case .reauthorize(let n): return "re-authorize, app reads \(n)× notDetermined then the status"
            case .foreground(let transient):
                return transient ? "foreground, reads notDetermined" : "foreground, reads the status"
            case .pick: return "pick"
            }
        }
    }

    public static func lifecycleNoPreRevocationTokenReapplied(
        _ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }
    ) -> Property {
        let event = Gen<AppEvent>.element(of: [
            .pick, .revokeInSettings(transient: 0), .reauthorize(transient: 0), .foreground(transient: false),
            .foreground(transient: true), .revokeInSettings(transient: 1), .reauthorize(transient: 1),
            .revokeInSettings(transient: 2), .reauthorize(transient: 2),
        ])
        return Property(
            "lifecycle.no-pre-revocation-token-reapplied",
            summary:
                "an app following the policy (re-applying its selection on each approved read) never puts a pre-revocation token back in a store (§3, field bug 6)",
            event.array(count: 0...20), describe: { StateMachine<Int, Int, AppEvent>.describe($0) }
        ) { events in
            let system = EnvironmentGrantSystem()
            let environment = system.environment
            let store = ManagedSettingsStore(named: .init("app"), environment: environment)
            var policy = make()
            system.requestAuthorization(approve: true)
            var selection = environment.simulator.pick(applications: 2)?.applicationTokens ?? []
            store.shield.applications = selection

            func read(_ status: AuthorizationStatus) {
                for action in policy.observe(.status(status)) {
                    switch action {
                    case .clearShields: store.clearAllSettings()
                    case .requirePick: selection = []
                    case .notifyRevoked: break
                    }
                }
                // Re-apply at launch.
                if status.isApproved && policy.shieldsActive { store.shield.applications = selection }
            }
            for (step, event) in events.enumerated() {
                switch event {
                case .revokeInSettings(let n), .reauthorize(let n):
                    if case .revokeInSettings = event {
                        system.revoke(inSettings: true)
                    } else {
                        system.requestAuthorization(approve: true)
                    }
                    for _ in 0..<n { read(.notDetermined) }
                    read(system.status)
                case .foreground(let transient):
                    read(transient ? .notDetermined : system.status)
                case .pick:
                    if let picked = environment.simulator.pick(applications: 2) { selection = picked.applicationTokens }
                    _ = policy.observe(.pick)
                    if policy.shieldsActive { store.shield.applications = selection }
                }
                if let problem = system.problem { return problem }
                let applied = store.shield.applications ?? []
                if let stale = applied.first(where: { environment.simulator.isVoid($0) }) {
                    return "after step \(step + 1) (\(event)): the store holds \(stale), minted before a revocation"
                }
            }
            return nil
        }
    }

    package static var lifecycleProperties: [Property] {
        [
            lifecycleMatchesModel(), lifecycleNotDeterminedNeverClears(), lifecycleOneNoticePerEpisode(),
            lifecycleNoPreRevocationTokenReapplied(),
        ]
    }
}
