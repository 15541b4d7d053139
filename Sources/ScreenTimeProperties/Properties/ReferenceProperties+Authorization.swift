import PropertyTesting
import ScreenTimeReference

// MARK: - Grants and voiding

extension ReferenceProperties {
    /// One command as a single choice (so the shrinker deletes a command by deleting two choices), the
    /// commonest first.
    static func grantCommands(tokens: Int) -> Gen<GrantCommand> {
        var commands: [GrantCommand] = [
            .request(approve: true), .pick, .revoke(inSettings: true), .request(approve: false),
            .revoke(inSettings: false),
        ]
        for i in 0..<tokens { commands += [.shield(i), .launch(i)] }
        return Gen.element(of: commands)
    }

    /// `grantCommands(tokens: n)` for every `n` a program of `maxCommands` commands can reach, made once (the
    /// program generator asks for them at every step).
    static func grantCommandTable(maxCommands: Int) -> [Gen<GrantCommand>] {
        (0...maxCommands).map { grantCommands(tokens: $0) }
    }

    public static func grantMachine(_ makeSystem: @escaping @Sendable () -> any GrantSystem) -> StateMachine<
        GrantModel, any GrantSystem, GrantCommand
    > {
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
                    if minted != expected {
                        return
                            "minted token \(minted.map { "#\($0)" } ?? "nothing"), expected \(expected.map { "#\($0)" } ?? "nothing")"
                    }
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
                    return
                        "token #\(i) (grant \(model.tokenGrant[i])) void: \(system.isVoid(i)), expected \(model.isVoid(i)) with \(model.running.map { "grant \($0) running" } ?? "no grant running")"
                }
                for i in model.tokenGrant.indices where model.isVoid(i) && system.isShielded(i) {
                    return "void token #\(i) still shields"
                }
                return nil
            },
            maxCommands: maxCommands)
    }

    public static func authVoiding(
        _ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }
    ) -> Property {
        grantMachine(makeSystem).property(
            "auth.voiding",
            summary:
                "stateful: status, minted tokens, voiding and shields of the simulator match the grant model after every step (§3)"
        )
    }

    public static func authReauthorizationNeverRevives(
        _ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }
    ) -> Property {
        let gen = grantCommands(tokens: 6).array(count: 0...30)
        return Property(
            "auth.reauthorization-never-revives",
            summary: "once a token is void it stays void, whatever re-authorizations follow (§3)",
            gen, describe: { StateMachine<GrantModel, EnvironmentGrantSystem, GrantCommand>.describe($0) }
        ) { commands in
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
                    if system.isVoid(i) {
                        voided.insert(i)
                    } else if voided.contains(i) {
                        return "step \(step + 1) (\(command)): token #\(i) was void and is valid again"
                    }
                    if voided.contains(i) && system.isShielded(i) {
                        return "step \(step + 1) (\(command)): void token #\(i) shields"
                    }
                }
            }
            return nil
        }
    }

    public static func authLedgerMatchesSimulator(
        _ makeSystem: @escaping @Sendable () -> any GrantSystem = { EnvironmentGrantSystem() }
    ) -> Property {
        let names = ["mail", "maps", "news"]
        return Property(
            "auth.ledger-matches-simulator",
            summary: "TokenGrantLedger and the simulator agree on which picked names hold a valid token (§3)",
            Gen<TokenGrantLedger.Event>.grantEvent(names: names).array(count: 0...20),
            describe: AuthorizationDescription.events
        ) { events in
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
                    if ledger.isValid(name) != simulated {
                        return
                            "after step \(step + 1): \(name) valid in the ledger: \(ledger.isValid(name)), in the simulator: \(simulated)"
                    }
                }
            }
            return nil
        }
    }

    public static func authRevocationClearsStores() -> Property {
        let gen = Gen<([String?], [ShieldSettings], Int, Bool)>.zip(
            Gen<String?>.element(of: [nil, "a", "b"]).array(count: 0...4),
            Gen<ShieldSettings>.shieldSettings().array(count: 4),
            Gen<Int>.int(in: 0...2), Gen<Bool>.bool)
        return Property(
            "auth.revocation-clears-stores",
            summary:
                "revoking while approved clears every store; revoking when denied or notDetermined changes nothing (§3)",
            gen,
            describe: {
                "stores \($0.0.map { $0 ?? "unnamed" }), state \(["notDetermined", "denied", "approved"][$0.2]), via \($0.3 ? "Settings" : "revokeAuthorization")"
            }
        ) { (names, settings, state, inSettings) in
            let system = EnvironmentGrantSystem()
            if state > 0 { system.requestAuthorization(approve: state == 2) }
            for (i, name) in names.enumerated() {
                let store =
                    name.map { ManagedSettingsStore(named: .init($0), environment: system.environment) }
                    ?? ManagedSettingsStore(environment: system.environment)
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
            let unchanged =
                storesAfter.count == storesBefore.count
                && zip(storesAfter, storesBefore).allSatisfy { $0.store == $1.store && $0.settings == $1.settings }
            if statusBefore == .approved {
                if !storesAfter.isEmpty { return "stores left after revocation: \(shown(storesAfter))" }
                if system.status != .denied { return "status \(system.status) after revocation" }
            } else {
                if !unchanged && shown(storesAfter) != shown(storesBefore) {
                    return "revoke while \(statusBefore) changed the stores"
                }
                if system.status != statusBefore {
                    return "revoke while \(statusBefore) changed the status to \(system.status)"
                }
            }
            return nil
        }
    }

    public static func authVoidTokensShieldNothing() -> Property {
        let gen = Gen<(Int, Bool, Int, Int)>.zip(
            Gen<Int>.int(in: 1...3), Gen<Bool>.bool, Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...5))
        return Property(
            "auth.void-tokens-shield-nothing",
            summary:
                "tokens from a revoked grant, put back in any set of a store, shield and exempt nothing, and lint flags them (§2, §3)",
            gen,
            describe: {
                "\($0.0) app(s) picked, revoked, \($0.1 ? "re-authorized, " : "")old tokens put in set #\($0.2), fresh pick \($0.3)"
            }
        ) { (count, reauthorize, targetSet, fresh) in
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
            switch targetSet {
            case 0: store.shield.applications = old.applicationTokens
            case 1: store.shield.applicationCategories = .specific(old.categoryTokens)
            case 2:
                store.shield.applicationCategories = .specific(
                    newCategory.map { [$0] } ?? [], except: old.applicationTokens)
            default: store.shield.applicationCategories = .all(except: [])
            }
            for app in old.applicationTokens {
                let verdict = try? system.environment.evaluateShield(
                    .application(app, category: newCategory ?? oldCategory))
                let expected: Bool
                switch targetSet {
                case 0, 1: expected = false  // void tokens shield nothing
                case 2: expected = newCategory != nil  // a void exception exempts nothing
                default: expected = true
                }
                if verdict?.isShielded != expected {
                    return
                        "old app launch: \(verdict.map { ShieldDescription.verdict(.success($0)) } ?? "limit"), expected shielded \(expected)"
                }
            }
            let lint = system.environment.lintShields()
            let voidFindings = lint.filter { if case .voidToken = $0.problem { return true } else { return false } }
            let expectedFindings =
                targetSet == 0 || targetSet == 2
                ? old.applicationTokens.count : targetSet == 1 ? old.categoryTokens.count : 0
            if voidFindings.count != expectedFindings {
                return "lint found \(voidFindings.count) void tokens, expected \(expectedFindings)"
            }
            _ = fresh
            return nil
        }
    }

    package static var authorizationProperties: [Property] {
        [
            authVoiding(), authReauthorizationNeverRevives(), authLedgerMatchesSimulator(),
            authRevocationClearsStores(), authVoidTokensShieldNothing(),
        ]
    }
}
