import PropertyTesting
import ScreenTimeReference

// MARK: - Grants and voiding

/// An authorization system as the grant properties drive it: tokens are numbered in minting order.
/// ``EnvironmentGrantSystem`` is the reference; tests plug in broken ones.
public protocol GrantSystem {
    mutating func requestAuthorization(approve: Bool)
    mutating func revoke(inSettings: Bool)
    /// A pick of one application: the new token's number, or nil when nothing was minted.
    mutating func pick() -> Int?
    /// Adds token `token` to the app's store's `applications`.
    mutating func shield(_ token: Int)
    /// Whether launching the app of token `token` is shielded.
    func isShielded(_ token: Int) -> Bool
    func isVoid(_ token: Int) -> Bool
    var status: AuthorizationStatus { get }
    /// Problems the system itself reports (an async call that did not complete, …).
    var problem: String? { get }
}

/// The reference: a fresh `ScreenTimeEnvironment`, its `AuthorizationCenter`, simulator and one named store.
public final class EnvironmentGrantSystem: GrantSystem {
    public let environment = ScreenTimeEnvironment()
    let center: AuthorizationCenter
    let store: ManagedSettingsStore
    // Unchecked: one state machine runs on one thread, and Swift's run-time exclusivity check on a class's stored
    // `var` (a runtime call at every read) cost more than the void check it guarded.
    @exclusivity(unchecked) private var minted: [ApplicationToken] = []
    @exclusivity(unchecked) public private(set) var problem: String?
    static let category = TokenUniverse.token(0, ActivityCategory.self)

    public init() {
        center = AuthorizationCenter(environment: environment)
        store = ManagedSettingsStore(named: .init("app"), environment: environment)
    }

    /// `AuthorizationCenter.requestAuthorization(for: .individual)`, through the synchronous core that the async
    /// call runs (the simulated user answers at once), so that a request needs no task.
    public func requestAuthorization(approve: Bool) {
        environment.simulator.respond(with: approve ? .approve : .deny)
        try? center.requestAuthorizationNow(for: .individual)
    }

    public func revoke(inSettings: Bool) {
        if inSettings { environment.simulator.revokeInSettings() } else { center.revokeAuthorization { _ in } }
    }

    public func pick() -> Int? {
        guard let token = environment.simulator.mint(Application.self) else { return nil }
        minted.append(token)
        return minted.count - 1
    }

    public func shield(_ token: Int) {
        guard minted.indices.contains(token) else { return }
        let t = minted[token]
        store.modifyShield { $0.applications = ($0.applications ?? []).union([t]) }
    }

    public func isShielded(_ token: Int) -> Bool {
        guard minted.indices.contains(token) else { return false }
        return (try? environment.evaluateShield(.application(minted[token], category: Self.category)))?.isShielded ?? false
    }

    public func isVoid(_ token: Int) -> Bool {
        minted.indices.contains(token) ? environment.simulator.isVoid(minted[token]) : false
    }

    public var status: AuthorizationStatus { environment.simulator.status }
}

/// One step of an authorization history.
public enum GrantCommand: Sendable, Hashable, CustomStringConvertible {
    case request(approve: Bool)
    case revoke(inSettings: Bool)
    case pick
    case shield(Int)
    case launch(Int)

    public var description: String {
        switch self {
        case .request(let approve): return approve ? "request (user approves)" : "request (user declines)"
        case .revoke(let inSettings): return inSettings ? "revoke in Settings" : "revokeAuthorization()"
        case .pick: return "pick an app"
        case .shield(let i): return "shield token #\(i)"
        case .launch(let i): return "launch app of token #\(i)"
        }
    }
}

/// The spec's model of grants (`SPEC.md` §3): status, running grant, the grant of every minted token, and the
/// tokens the store shields.
public struct GrantModel: Sendable, Hashable {
    public var status: AuthorizationStatus = .notDetermined
    public var running: Int?
    public var grantsStarted = 0
    public var tokenGrant: [Int] = []
    public var shielded: Set<Int> = []

    public init() {}

    public func isVoid(_ token: Int) -> Bool { tokenGrant.indices.contains(token) && tokenGrant[token] != running }

    public mutating func apply(_ command: GrantCommand) {
        switch command {
        case .request(let approve):
            guard status != .approved else { return }
            if approve {
                grantsStarted += 1
                running = grantsStarted
                status = .approved
            } else {
                status = .denied
            }
        case .revoke:
            guard status == .approved else { return }
            running = nil
            status = .denied
            shielded = []
        case .pick:
            if let running { tokenGrant.append(running) }
        case .shield(let i):
            if tokenGrant.indices.contains(i) { shielded.insert(i) }
        case .launch:
            break
        }
    }
}

extension ReferenceProperties {
    /// One command as a single choice (so the shrinker deletes a command by deleting two choices), the
    /// commonest first.
    static func grantCommands(tokens: Int) -> Gen<GrantCommand> {
        var commands: [GrantCommand] = [.request(approve: true), .pick, .revoke(inSettings: true), .request(approve: false), .revoke(inSettings: false)]
        for i in 0..<tokens { commands += [.shield(i), .launch(i)] }
        return Gen.element(of: commands)
    }

    /// `grantCommands(tokens: n)` for every `n` a program of `maxCommands` commands can reach, made once (the
    /// program generator asks for them at every step).
    static func grantCommandTable(maxCommands: Int) -> [Gen<GrantCommand>] {
        (0...maxCommands).map { grantCommands(tokens: $0) }
    }

    public static func grantMachine(_ makeSystem: @escaping @Sendable () -> any GrantSystem) -> StateMachine<GrantModel, any GrantSystem, GrantCommand> {
        let maxCommands = 30
        let table = grantCommandTable(maxCommands: maxCommands)
        return StateMachine(
            initialModel: { GrantModel() },
            makeSystem: makeSystem,
            commands: { model in
                let tokens = model.tokenGrant.count
                return tokens < table.count ? table[tokens] : grantCommands(tokens: tokens)
            },
            applying: { model, command in model.apply(command) },
            execute: { command, system, model in
                switch command {
                case .request(let approve): system.requestAuthorization(approve: approve)
                case .revoke(let inSettings): system.revoke(inSettings: inSettings)
                case .pick:
                    let minted = system.pick()
                    let expected = model.running == nil ? nil : model.tokenGrant.count
                    if minted != expected { return "minted token \(minted.map { "#\($0)" } ?? "nothing"), expected \(expected.map { "#\($0)" } ?? "nothing")" }
                case .shield(let i): system.shield(i)
                case .launch(let i):
                    let expected = model.shielded.contains(i) && !model.isVoid(i)
                    if system.isShielded(i) != expected { return "launch shielded: \(!expected), expected \(expected)" }
                }
                return system.problem
            },
            invariant: { model, system in
                if system.status != model.status { return "status \(system.status), expected \(model.status)" }
                for i in model.tokenGrant.indices where system.isVoid(i) != model.isVoid(i) {
                    return "token #\(i) (grant \(model.tokenGrant[i])) void: \(system.isVoid(i)), expected \(model.isVoid(i)) with \(model.running.map { "grant \($0) running" } ?? "no grant running")"
                }
                for i in model.tokenGrant.indices where model.isVoid(i) && system.isShielded(i) {
                    return "void token #\(i) still shields"
                }
                return nil
            },
            maxCommands: maxCommands)
    }

    public static func authVoiding(_ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }) -> Property {
        grantMachine(makeSystem).property(
            "auth.voiding",
            summary: "stateful: status, minted tokens, voiding and shields of the simulator match the grant model after every step (§3)")
    }

    public static func authReauthorizationNeverRevives(_ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }) -> Property {
        let gen = grantCommands(tokens: 6).array(count: 0...30)
        return Property("auth.reauthorization-never-revives", summary: "once a token is void it stays void, whatever re-authorizations follow (§3)",
                        gen, describe: { StateMachine<GrantModel, EnvironmentGrantSystem, GrantCommand>.describe($0) }) { commands in
            var system = makeSystem()
            var minted = 0
            var voided: Set<Int> = []
            for (step, command) in commands.enumerated() {
                switch command {
                case .request(let approve): system.requestAuthorization(approve: approve)
                case .revoke(let inSettings): system.revoke(inSettings: inSettings)
                case .pick: if system.pick() != nil { minted += 1 }
                case .shield(let i): system.shield(i)
                case .launch: break
                }
                if let problem = system.problem { return problem }
                for i in 0..<minted {
                    if system.isVoid(i) { voided.insert(i) } else if voided.contains(i) { return "step \(step + 1) (\(command)): token #\(i) was void and is valid again" }
                    if voided.contains(i) && system.isShielded(i) { return "step \(step + 1) (\(command)): void token #\(i) shields" }
                }
            }
            return nil
        }
    }

    public static func authLedgerMatchesSimulator(_ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }) -> Property {
        let names = ["mail", "maps", "news"]
        return Property("auth.ledger-matches-simulator", summary: "TokenGrantLedger and the simulator agree on which picked names hold a valid token (§3)",
                        Gen<TokenGrantLedger.Event>.grantEvent(names: names).array(count: 0...20),
                        describe: AuthorizationDescription.events) { events in
            var ledger = TokenGrantLedger()
            var system = makeSystem()
            var latest: [String: Int] = [:]
            for (step, event) in events.enumerated() {
                ledger.apply(event)
                switch event {
                case .authorize: system.requestAuthorization(approve: true)
                case .revoke: system.revoke(inSettings: true)
                case .pick(let name): if let token = system.pick() { latest[name] = token }
                }
                if let problem = system.problem { return problem }
                for name in names {
                    let simulated = latest[name].map { !system.isVoid($0) } ?? false
                    if ledger.isValid(name) != simulated { return "after step \(step + 1): \(name) valid in the ledger: \(ledger.isValid(name)), in the simulator: \(simulated)" }
                }
            }
            return nil
        }
    }

    public static func authRevocationClearsStores() -> Property {
        let gen = Gen<([String?], [ShieldSettings], Int, Bool)>.zip(
            Gen<String?>.element(of: [nil, "a", "b"]).array(count: 0...4), Gen<ShieldSettings>.shieldSettings().array(count: 4),
            Gen<Int>.int(in: 0...2), Gen<Bool>.bool)
        return Property("auth.revocation-clears-stores", summary: "revoking while approved clears every store; revoking when denied or notDetermined changes nothing (§3)",
                        gen, describe: { "stores \($0.0.map { $0 ?? "unnamed" }), state \(["notDetermined", "denied", "approved"][$0.2]), via \($0.3 ? "Settings" : "revokeAuthorization")" }) { (names, settings, state, inSettings) in
            let system = EnvironmentGrantSystem()
            if state > 0 { system.requestAuthorization(approve: state == 2) }
            for (i, name) in names.enumerated() {
                let store = name.map { ManagedSettingsStore(named: .init($0), environment: system.environment) } ?? ManagedSettingsStore(environment: system.environment)
                store.shield = settings[i % settings.count]
            }
            func shown(_ stores: [(store: ManagedSettingsStore.Identity, settings: ShieldSettings)]) -> [String] {
                stores.map { "\($0.store)=\(ShieldDescription.settings($0.settings))" }
            }
            let storesBefore = system.environment.shieldSettingsByStore
            let statusBefore = system.status
            system.revoke(inSettings: inSettings)
            if let problem = system.problem { return problem }
            let storesAfter = system.environment.shieldSettingsByStore
            // Compared as shown; equal stores show alike, so the text is only written when they differ.
            let unchanged = storesAfter.count == storesBefore.count
                && zip(storesAfter, storesBefore).allSatisfy { $0.store == $1.store && $0.settings == $1.settings }
            if statusBefore == .approved {
                if !storesAfter.isEmpty { return "stores left after revocation: \(shown(storesAfter))" }
                if system.status != .denied { return "status \(system.status) after revocation" }
            } else {
                if !unchanged && shown(storesAfter) != shown(storesBefore) { return "revoke while \(statusBefore) changed the stores" }
                if system.status != statusBefore { return "revoke while \(statusBefore) changed the status to \(system.status)" }
            }
            return nil
        }
    }

    public static func authVoidTokensShieldNothing() -> Property {
        let gen = Gen<(Int, Bool, Int, Int)>.zip(Gen<Int>.int(in: 1...3), Gen<Bool>.bool, Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...5))
        return Property("auth.void-tokens-shield-nothing", summary: "tokens from a revoked grant, put back in any set of a store, shield and exempt nothing, and lint flags them (§2, §3)",
                        gen, describe: { "\($0.0) app(s) picked, revoked, \($0.1 ? "re-authorized, " : "")old tokens put in set #\($0.2), fresh pick \($0.3)" }) { (count, reauthorize, where_, fresh) in
            let system = EnvironmentGrantSystem()
            let simulator = system.environment.simulator
            system.requestAuthorization(approve: true)
            guard let old = simulator.pick(applications: count, categories: 1) else { return "no pick while approved" }
            system.revoke(inSettings: true)
            if reauthorize { system.requestAuthorization(approve: true) }
            if let problem = system.problem { return problem }
            let newCategory = reauthorize ? simulator.mint(ActivityCategory.self) : nil
            let store = ManagedSettingsStore(named: .init("app"), environment: system.environment)
            let oldCategory = old.categoryTokens.first ?? TokenUniverse.token(1, ActivityCategory.self)
            switch where_ {
            case 0: store.shield.applications = old.applicationTokens
            case 1: store.shield.applicationCategories = .specific(old.categoryTokens)
            case 2: store.shield.applicationCategories = .specific(newCategory.map { [$0] } ?? [], except: old.applicationTokens)
            default: store.shield.applicationCategories = .all(except: [])
            }
            for app in old.applicationTokens {
                let verdict = try? system.environment.evaluateShield(.application(app, category: newCategory ?? oldCategory))
                let expected: Bool
                switch where_ {
                case 0, 1: expected = false  // void tokens shield nothing
                case 2: expected = newCategory != nil  // a void exception exempts nothing
                default: expected = true
                }
                if verdict?.isShielded != expected { return "old app launch: \(verdict.map { ShieldDescription.verdict(.success($0)) } ?? "limit"), expected shielded \(expected)" }
            }
            let lint = system.environment.lintShields()
            let voidFindings = lint.filter { if case .voidToken = $0.problem { return true } else { return false } }
            let expectedFindings = where_ == 0 || where_ == 2 ? old.applicationTokens.count : where_ == 1 ? old.categoryTokens.count : 0
            if voidFindings.count != expectedFindings { return "lint found \(voidFindings.count) void tokens, expected \(expectedFindings)" }
            _ = fresh
            return nil
        }
    }

    package static var authorizationProperties: [Property] {
        [authVoiding(), authReauthorizationNeverRevives(), authLedgerMatchesSimulator(), authRevocationClearsStores(), authVoidTokensShieldNothing()]
    }
}

// MARK: - Lifecycle policy

/// What the lifecycle properties drive: `LifecyclePolicy` or a broken stand-in.
public protocol LifecycleSubject: Sendable {
    mutating func observe(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action]
    var shieldsActive: Bool { get }
}

extension LifecyclePolicy: LifecycleSubject {}

/// The spec's lifecycle rules (`SPEC.md` §3), transcribed independently.
public struct LifecycleModel: Sendable, Hashable {
    public var approved = true
    public var shieldsActive = true
    public init() {}

    public mutating func step(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action] {
        switch observation {
        case .status(.notDetermined): return []
        case .status(.denied):
            defer { approved = false }
            if approved && shieldsActive {
                shieldsActive = false
                return [.clearShields, .notifyRevoked]
            }
            return []
        case .status(.approved), .status(.approvedWithDataAccess):
            defer { approved = true }
            return approved ? [] : [.requirePick]
        case .pick:
            if approved { shieldsActive = true }
            return []
        }
    }
}

/// One observation as a state-machine command (described by its wire name: `notDetermined`, `pick`, …).
public struct LifecycleStep: Sendable, Hashable, CustomStringConvertible {
    public var observation: LifecyclePolicy.Observation
    public init(_ observation: LifecyclePolicy.Observation) { self.observation = observation }
    public var description: String { observation.name }
}

extension ReferenceProperties {
    public static func lifecycleMachine(_ make: @escaping @Sendable () -> any LifecycleSubject, notDeterminedWeight: Int = 1)
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
                    return "notDetermined acted: \(actions.map(\.rawValue)), shields active \(wasActive) → \(system.shieldsActive)"
                }
                if actions != expected { return "actions \(actions.map(\.rawValue)), expected \(expected.map(\.rawValue))" }
                return nil
            },
            invariant: { model, system in
                system.shieldsActive == model.shieldsActive ? nil : "shields active \(system.shieldsActive), expected \(model.shieldsActive)"
            },
            maxCommands: 30)
    }

    public static func lifecycleMatchesModel(_ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }) -> Property {
        lifecycleMachine(make).property("lifecycle.matches-model", summary: "stateful: actions and shield state equal the §3 policy model after every observation")
    }

    public static func lifecycleNotDeterminedNeverClears(_ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }) -> Property {
        lifecycleMachine(make, notDeterminedWeight: 3).property(
            "lifecycle.not-determined-never-clears",
            summary: "stateful, notDetermined-heavy: a notDetermined observation never acts or changes the shields (§3, field bug 6)")
    }

    public static func lifecycleOneNoticePerEpisode(_ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }) -> Property {
        Property("lifecycle.one-notice-per-episode", summary: "each approved→denied episode posts at most one notice, right after clearShields, and only when shields were active (§3)",
                 Gen<LifecyclePolicy.Observation>.lifecycleObservation.array(count: 0...30), describe: AuthorizationDescription.observations) { observations in
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
                    guard let i = actions.firstIndex(of: .notifyRevoked), i > 0, actions[i - 1] == .clearShields else { return "\(here): notice not right after clearShields" }
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
            case .foreground(let transient): return transient ? "foreground, reads notDetermined" : "foreground, reads the status"
            case .pick: return "pick"
            }
        }
    }

    public static func lifecycleNoPreRevocationTokenReapplied(_ make: @escaping @Sendable () -> any LifecycleSubject = { LifecyclePolicy() }) -> Property {
        let event = Gen<AppEvent>.element(of: [
            .pick, .revokeInSettings(transient: 0), .reauthorize(transient: 0), .foreground(transient: false),
            .foreground(transient: true), .revokeInSettings(transient: 1), .reauthorize(transient: 1),
            .revokeInSettings(transient: 2), .reauthorize(transient: 2),
        ])
        return Property("lifecycle.no-pre-revocation-token-reapplied", summary: "an app following the policy (re-applying its selection on each approved read) never puts a pre-revocation token back in a store (§3, field bug 6)",
                        event.array(count: 0...20), describe: { StateMachine<Int, Int, AppEvent>.describe($0) }) { events in
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
                if status.isApproved && policy.shieldsActive { store.shield.applications = selection }  // re-apply at launch
            }
            for (step, event) in events.enumerated() {
                switch event {
                case .revokeInSettings(let n), .reauthorize(let n):
                    if case .revokeInSettings = event { system.revoke(inSettings: true) } else { system.requestAuthorization(approve: true) }
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
        [lifecycleMatchesModel(), lifecycleNotDeterminedNeverClears(), lifecycleOneNoticePerEpisode(), lifecycleNoPreRevocationTokenReapplied()]
    }
}
