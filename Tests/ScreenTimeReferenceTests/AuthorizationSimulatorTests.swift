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
        try await center.requestAuthorization(for: .child)  // already approved: no prompt
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

    @Test func aPickMintsExactlyTheCountsAskedForNoneIncluded() async throws {
        try await center.requestAuthorization(for: .individual)
        for (a, c, w) in [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (-1, 2, -3)] {
            let picked = try #require(simulator.pick(applications: a, categories: c, webDomains: w))
            let counts = [picked.applicationTokens.count, picked.categoryTokens.count, picked.webDomainTokens.count]
            #expect(counts == [max(0, a), max(0, c), max(0, w)], "\(a), \(c), \(w)")
        }
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
        #expect(
            environment.lintShields() == [
                ShieldLintFinding(
                    store: .named(.init("restored")), set: .applications, problem: .voidToken(TokenIdentity(old))),
                ShieldLintFinding(
                    store: .named(.init("restored")), set: .applicationCategories,
                    problem: .voidToken(TokenIdentity(oldCategory))),
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
        store.shield.applications = [app("fixture")]  // assigned while denied: not cleared by a no-op revoke
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

/// `requestAuthorizationNow` (what the property harnesses call) is what `requestAuthorization(for:)` runs: from
/// every starting state and for every response, the same status, grant, member and error.
@Suite struct SynchronousRequestTests {
    static let responses: [AuthorizationSimulator.Response] = [
        .approve, .deny, .fail(.networkError), .fail(.restricted),
    ]

    /// Runs a history of requests (one per response index) through `request`, noting each outcome.
    static func history(_ indices: [Int], request: (AuthorizationCenter) async -> FamilyControlsError?) async
        -> [String]
    {
        let environment = ScreenTimeEnvironment()
        let center = AuthorizationCenter(environment: environment)
        var log: [String] = []
        for (step, i) in indices.enumerated() {
            environment.simulator.respond(with: responses[i])
            if step == 2 { environment.simulator.revokeInSettings() }
            let error = await request(center)
            log.append(
                "\(error.map { "\($0)" } ?? "ok") \(center.authorizationStatus) \(String(describing: environment.simulator.runningGrant)) \(String(describing: environment.simulator.member))"
            )
        }
        return log
    }

    @Test func behavesAsTheAsyncCall() async {
        var histories = 0
        for a in 0..<4 {
            for b in 0..<4 {
                for c in 0..<4 {
                    let indices = [a, b, c, (a + c) % 4]
                    let viaAsync = await Self.history(indices) { center in
                        do {
                            try await center.requestAuthorization(for: .child)
                            return nil
                        } catch { return error as? FamilyControlsError ?? .unavailable }
                    }
                    let viaCore = await Self.history(indices) { center in
                        do throws(FamilyControlsError) {
                            try center.requestAuthorizationNow(for: .child)
                            return nil
                        } catch { return error }
                    }
                    #expect(viaAsync == viaCore, "\(indices)")
                    histories += 1
                }
            }
        }
        #expect(histories == 64)
    }

    /// Token bytes minted right after an array of 128 bytes of 0xFF was freed, so that the allocator hands its
    /// memory to the token's buffer.
    @inline(never) static func mintOnSoiledMemory(kind: String, grant: AuthorizationGrant, serial: UInt64) -> [UInt8] {
        _ = soil()
        return AuthorizationSimulator.tokenBytes(kind: kind, grant: grant, serial: serial)
    }

    @inline(never) static func soil() -> Int { [UInt8](repeating: 0xFF, count: 128).count }

    /// Minted token bytes are unchanged (written with one allocation now): 12 zero bytes, kind, grant, serial,
    /// then the filler, as first written.
    @Test func mintedTokenBytesAsFirstWritten() {
        func first(kind: String, grant: AuthorizationGrant, serial: UInt64) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 12)
            bytes.append(kind == Application.kindName ? 1 : kind == ActivityCategory.kindName ? 2 : 3)
            let g = UInt64(truncatingIfNeeded: grant.number)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: g >> UInt64(shift)))
            }
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: serial >> UInt64(shift)))
            }
            var x = serial &* 0x9E37_79B9_7F4A_7C15 &+ g
            while bytes.count < 128 {
                x ^= x >> 30
                x = x &* 0xBF58_476D_1CE4_E5B9
                x ^= x >> 27
                bytes.append(UInt8(truncatingIfNeeded: x))
            }
            return bytes
        }
        for kind in [Application.kindName, ActivityCategory.kindName, WebDomain.kindName] {
            for (grant, serial) in [(1, 1 as UInt64), (2, 7), (300, 1 << 40)] {
                let g = AuthorizationGrant(number: grant)
                #expect(
                    AuthorizationSimulator.tokenBytes(kind: kind, grant: g, serial: serial)
                        == first(kind: kind, grant: g, serial: serial))
                // The buffer starts uninitialized: every byte must be written. Memory the allocator hands back
                // right after an array of the same size held 0xFF shows a byte left out (fresh pages are zero).
                for _ in 0..<8 {
                    let minted = Self.mintOnSoiledMemory(kind: kind, grant: g, serial: serial)
                    #expect(minted == first(kind: kind, grant: g, serial: serial), "on reused memory")
                }
            }
        }
    }
}
