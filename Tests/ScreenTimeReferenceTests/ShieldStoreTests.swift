import Testing

@testable import ScreenTimeReference

/// `ManagedSettingsStore`: iOS names, sharing by name, clearing, thread safety.
@Suite struct ShieldStoreTests {
    @Test func sameNameSharesSettingsAndUnnamedIsSeparate() {
        let environment = ScreenTimeEnvironment()
        let a = ManagedSettingsStore(named: ManagedSettingsStore.Name("focus"), environment: environment)
        let b = ManagedSettingsStore(named: .init(rawValue: "focus"), environment: environment)
        let other = ManagedSettingsStore(named: .init("other"), environment: environment)
        let unnamed = ManagedSettingsStore(environment: environment)
        a.shield.applications = [app("mail")]
        #expect(b.shield.applications == [app("mail")])
        #expect(other.shield.applications == nil)
        #expect(unnamed.shield.applications == nil)
        #expect(a.name == .init("focus"))
        #expect(unnamed.name == nil)
        // A store named like anything, even "", is not the unnamed store.
        ManagedSettingsStore(named: .init(""), environment: environment).shield.webDomains = [web("x")]
        #expect(unnamed.shield.webDomains == nil)
    }

    @Test func environmentsAreIsolated() {
        let one = ScreenTimeEnvironment()
        let two = ScreenTimeEnvironment()
        ManagedSettingsStore(named: .init("s"), environment: one).shield.applications = [app("a")]
        #expect(ManagedSettingsStore(named: .init("s"), environment: two).shield.applications == nil)
    }

    @Test func fieldNotesLineCompilesAndShields() throws {
        let environment = ScreenTimeEnvironment()
        let store = ManagedSettingsStore(named: .init("blocklist"), environment: environment)
        let blocklistCategoryTokens: Set<ActivityCategoryToken> = [cat("social")]
        let whitelistApplicationTokens: Set<ApplicationToken> = [app("chat")]
        store.shield.applicationCategories = .specific(blocklistCategoryTokens, except: whitelistApplicationTokens)
        store.shield.webDomainCategories = .all(except: [web("docs")])
        #expect(
            try environment.evaluateShield(.application(app("feed"), category: cat("social")))
                == .shielded(.applicationCategory(cat("social"))))
        #expect(try environment.evaluateShield(.application(app("chat"), category: cat("social"))) == .allowed)
        #expect(try environment.evaluateShield(.webDomain(web("docs"), category: cat("ref"))) == .allowed)
        #expect(
            try environment.evaluateShield(.webDomain(web("news"), category: cat("ref")))
                == .shielded(.webDomainCategory(cat("ref"))))
    }

    @Test func clearAllSettingsClearsOnlyThatStore() throws {
        let environment = ScreenTimeEnvironment()
        let a = ManagedSettingsStore(named: .init("a"), environment: environment)
        let b = ManagedSettingsStore(named: .init("b"), environment: environment)
        a.shield.applications = [app("mail")]
        b.shield.applications = [app("chat")]
        a.clearAllSettings()
        #expect(a.shield == ShieldSettings())
        #expect(b.shield.applications == [app("chat")])
        #expect(environment.shieldSettingsByStore.map(\.store) == [.named(.init("b"))])
        #expect(try environment.evaluateShield(.application(app("mail"), category: cat("x"))) == .allowed)
        #expect(
            try environment.evaluateShield(.application(app("chat"), category: cat("x"))) == .shielded(.application))
    }

    @Test func environmentEvaluatesAcrossAllStores() throws {
        let environment = ScreenTimeEnvironment()
        ManagedSettingsStore(environment: environment).shield.applications = [app("feed")]
        ManagedSettingsStore(named: .init("cats"), environment: environment).shield.applicationCategories = .specific([
            cat("social")
        ])
        #expect(
            try environment.evaluateShield(.application(app("feed"), category: cat("social")))
                == .shielded(.applicationCategory(cat("social"))))
        #expect(
            try environment.evaluateShield(.application(app("feed"), category: cat("work"))) == .shielded(.application))
    }

    @Test func concurrentModificationsAreNotLost() async {
        let environment = ScreenTimeEnvironment()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask {
                    let store = ManagedSettingsStore(named: .init("shared"), environment: environment)
                    store.modifyShield { $0.applications = ($0.applications ?? []).union([app("\(i)")]) }
                }
            }
        }
        #expect(
            ManagedSettingsStore(named: .init("shared"), environment: environment).shield.applications?.count == 200)
    }
}

/// The shared environment, as app code uses it (`ManagedSettingsStore()`, `AuthorizationCenter.shared`).
/// Serialized, and the only suite that touches `ScreenTimeEnvironment.shared`.
@Suite(.serialized) struct SharedEnvironmentTests {
    @Test func iOSSpellingsUseTheSharedEnvironmentAndResetForgetsIt() async throws {
        ScreenTimeEnvironment.shared.reset()
        defer { ScreenTimeEnvironment.shared.reset() }
        #expect(AuthorizationCenter.shared.authorizationStatus == .notDetermined)
        try await AuthorizationCenter.shared.requestAuthorization(for: .individual)
        #expect(AuthorizationCenter.shared.authorizationStatus == .approved)
        let store = ManagedSettingsStore()
        store.shield.applications = [app("mail")]
        #expect(ManagedSettingsStore().shield.applications == [app("mail")])
        #expect(ManagedSettingsStore(named: ManagedSettingsStore.Name("x")).shield.applications == nil)
        ScreenTimeEnvironment.shared.reset()
        #expect(ManagedSettingsStore().shield.applications == nil)
        #expect(AuthorizationCenter.shared.authorizationStatus == .notDetermined)
    }
}
