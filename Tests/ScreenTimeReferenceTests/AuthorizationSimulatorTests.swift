import Testing
@testable import ScreenTimeReference

/// SPEC §3: statuses, grants, revocation voiding, re-authorization.
@Suite struct AuthorizationSimulatorTests {
    let environment = ScreenTimeEnvironment()
    var center: AuthorizationCenter { AuthorizationCenter(environment: environment) }
    var simulator: AuthorizationSimulator { environment.simulator }

    func revoke() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            center.revokeAuthorization { result in
                if case .failure(let error) = result { Issue.record("revoke failed: \(error)") }
                continuation.resume()
            }
        }
    }

    @Test func startsNotDeterminedAndApproves() async throws {
        #expect(center.authorizationStatus == .notDetermined)
        #expect(simulator.mint(Application.self) == nil)
        try await center.requestAuthorization(for: .individual)
        #expect(center.authorizationStatus == .approved)
        #expect(simulator.member == .individual)
        #expect(simulator.runningGrant == AuthorizationGrant(number: 1))
    }

    @Test func approvingTwiceKeepsTheSameGrant() async throws {
        try await center.requestAuthorization(for: .child)
        let token = try #require(simulator.mint(Application.self))
        simulator.respond(with: .deny)
        try await center.requestAuthorization(for: .child)   // already approved: no prompt
        #expect(center.authorizationStatus == .approved)
        #expect(simulator.runningGrant == AuthorizationGrant(number: 1))
        #expect(!simulator.isVoid(token))
    }

    @Test func denyingThrowsAndSetsDenied() async {
        simulator.respond(with: .deny)
        await #expect(throws: FamilyControlsError.authorizationCanceled) {
            try await center.requestAuthorization(for: .individual)
        }
        #expect(center.authorizationStatus == .denied)
        #expect(simulator.runningGrant == nil)
    }

    @Test func aFailureLeavesTheStatus() async {
        simulator.respond(with: .fail(.networkError))
        await #expect(throws: FamilyControlsError.networkError) {
            try await center.requestAuthorization(for: .child)
        }
        #expect(center.authorizationStatus == .notDetermined)
    }

    @Test func mintedTokensLookLikeDeviceTokensAndAreFresh() async throws {
        try await center.requestAuthorization(for: .individual)
        let picked = try #require(simulator.pick(applications: 3, categories: 2, webDomains: 4))
        #expect(picked.applicationTokens.count == 3)
        #expect(picked.categoryTokens.count == 2)
        #expect(picked.webDomainTokens.count == 4)
        for token in picked.applicationTokens {
            #expect(token.byteCount == 128)
            #expect(token.bytes.prefix(12).allSatisfy { $0 == 0 })
            #expect(simulator.grant(of: token) == AuthorizationGrant(number: 1))
        }
        #expect(simulator.grant(of: app("fixture")) == nil)
    }

    @Test func revocationVoidsEveryTokenOfTheGrantAndClearsEveryStore() async throws {
        try await center.requestAuthorization(for: .individual)
        let picked = try #require(simulator.pick(applications: 2, categories: 1, webDomains: 1))
        let a = ManagedSettingsStore(environment: environment)
        let b = ManagedSettingsStore(named: .init("b"), environment: environment)
        a.shield.applications = picked.applicationTokens
        b.shield.webDomainCategories = .specific(picked.categoryTokens)
        await revoke()
        #expect(center.authorizationStatus == .denied)
        #expect(a.shield == ShieldSettings())
        #expect(b.shield == ShieldSettings())
        #expect(environment.shieldSettingsByStore.isEmpty)
        for token in picked.applicationTokens { #expect(simulator.isVoid(token)) }
        for token in picked.categoryTokens { #expect(simulator.isVoid(token)) }
        for token in picked.webDomainTokens { #expect(simulator.isVoid(token)) }
        #expect(simulator.voidTokens.count == 4)
    }

    @Test func reauthorizationNeverRevivesOldTokens() async throws {
        try await center.requestAuthorization(for: .individual)
        let old = try #require(simulator.mint(Application.self))
        let oldCategory = try #require(simulator.mint(ActivityCategory.self))
        simulator.revokeInSettings()
        try await center.requestAuthorization(for: .individual)
        #expect(simulator.runningGrant == AuthorizationGrant(number: 2))
        #expect(simulator.isVoid(old))
        let fresh = try #require(simulator.mint(Application.self))
        #expect(!simulator.isVoid(fresh))
        #expect(fresh != old)
        // Re-applying the old tokens (field bug 6) shields nothing, and lint says why.
        let store = ManagedSettingsStore(named: .init("restored"), environment: environment)
        store.shield.applications = [old, fresh]
        store.shield.applicationCategories = .specific([oldCategory])
        #expect(try environment.evaluateShield(.application(old, category: cat("x"))) == .allowed)
        #expect(try environment.evaluateShield(.application(app("any"), category: oldCategory)) == .allowed)
        #expect(try environment.evaluateShield(.application(fresh, category: oldCategory)) == .shielded(.application))
        #expect(environment.lintShields() == [
            ShieldLintFinding(store: .named(.init("restored")), set: .applications, problem: .voidToken(TokenIdentity(old))),
            ShieldLintFinding(store: .named(.init("restored")), set: .applicationCategories, problem: .voidToken(TokenIdentity(oldCategory))),
        ])
        // Void forever: a third grant does not revive them either.
        simulator.revokeInSettings()
        try await center.requestAuthorization(for: .individual)
        #expect(simulator.isVoid(old) && simulator.isVoid(fresh))
    }

    @Test func revokeWhenDeniedHasNoEffect() async throws {
        try await center.requestAuthorization(for: .individual)
        simulator.revokeInSettings()
        simulator.respond(with: .deny)
        let store = ManagedSettingsStore(environment: environment)
        store.shield.applications = [app("fixture")]      // assigned while denied: not cleared by a no-op revoke
        await revoke()
        #expect(center.authorizationStatus == .denied)
        #expect(store.shield.applications == [app("fixture")])
        #expect(simulator.runningGrant == nil)
    }

    @Test func revokeWhenNotDeterminedHasNoEffect() async throws {
        try await center.revokeAuthorization()
        #expect(center.authorizationStatus == .notDetermined)
    }

    @Test func pickWhileDeniedMintsNothing() async throws {
        simulator.respond(with: .deny)
        _ = try? await center.requestAuthorization(for: .individual)
        #expect(simulator.pick(applications: 1) == nil)
        #expect(simulator.mint(WebDomain.self) == nil)
    }

    @Test func approvedWithDataAccessCountsAsApproved() {
        #expect(AuthorizationStatus.approvedWithDataAccess.isApproved)
        #expect(AuthorizationStatus.approved.isApproved)
        #expect(!AuthorizationStatus.denied.isApproved)
        #expect(!AuthorizationStatus.notDetermined.isApproved)
    }

    @Test func unmintedTokensAreNeverVoid() async throws {
        try await center.requestAuthorization(for: .individual)
        simulator.revokeInSettings()
        #expect(!simulator.isVoid(app("fixture")))
    }
}
