import PropertyTesting
import Testing

@testable import ScreenTimeReference

/// SPEC §3 "Grants": the pure model behind `auth.tokens`, and its agreement with the simulator.
@Suite struct AuthorizationGrantLedgerTests {
    func valid(_ events: [TokenGrantLedger.Event], _ name: String) -> Bool {
        var ledger = TokenGrantLedger()
        ledger.apply(events)
        return ledger.isValid(name)
    }

    @Test func pickUnderAGrantIsValid() {
        #expect(valid([.authorize, .pick("mail")], "mail"))
        #expect(!valid([.authorize, .pick("mail")], "chat"))
    }

    @Test func pickWithoutAGrantMintsNothing() {
        #expect(!valid([.pick("mail")], "mail"))
        #expect(!valid([.pick("mail"), .authorize], "mail"))
        #expect(!valid([.authorize, .revoke, .pick("mail")], "mail"))
    }

    @Test func revocationVoidsAndReauthorizationNeverRevives() {
        #expect(!valid([.authorize, .pick("mail"), .revoke], "mail"))
        #expect(!valid([.authorize, .pick("mail"), .revoke, .authorize], "mail"))
        #expect(valid([.authorize, .pick("mail"), .revoke, .authorize, .pick("mail")], "mail"))
    }

    @Test func authorizeWhileRunningKeepsTheGrant() {
        #expect(valid([.authorize, .pick("mail"), .authorize], "mail"))
        var ledger = TokenGrantLedger()
        ledger.apply([.authorize, .authorize])
        #expect(ledger.runningGrant == AuthorizationGrant(number: 1))
    }

    @Test func revokeWithoutAGrantHasNoEffect() {
        #expect(valid([.revoke, .authorize, .pick("mail"), .revoke, .revoke, .authorize, .pick("mail")], "mail"))
        var ledger = TokenGrantLedger()
        ledger.apply([.revoke, .revoke])
        #expect(ledger.runningGrant == nil)
        ledger.apply(.authorize)
        #expect(ledger.runningGrant == AuthorizationGrant(number: 1))
    }

    @Test func aNewPickReplacesTheOldToken() {
        // The latest pick decides; a failed pick (no grant) leaves the old, void token.
        #expect(valid([.authorize, .pick("mail"), .pick("mail")], "mail"))
        #expect(!valid([.authorize, .pick("mail"), .revoke, .pick("mail"), .authorize], "mail"))
    }

    /// Random histories: the ledger and the simulator (with real tokens) agree on validity, and no token minted
    /// before a revocation is ever valid again.
    @Test func ledgerAgreesWithTheSimulator() async throws {
        var rng = SplitMix64(seed: 42)
        let names = ["a", "b", "c"]
        for _ in 0..<150 {
            let environment = ScreenTimeEnvironment()
            let center = AuthorizationCenter(environment: environment)
            var ledger = TokenGrantLedger()
            var latest: [String: ApplicationToken] = [:]
            var revokedTokens: [ApplicationToken] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    ledger.apply(.authorize)
                    try await center.requestAuthorization(for: .individual)
                case 1:
                    ledger.apply(.revoke)
                    if environment.simulator.runningGrant != nil { revokedTokens += latest.values }
                    try await center.revokeAuthorization()
                default:
                    let name = names.randomElement(using: &rng) ?? "a"
                    ledger.apply(.pick(name))
                    if let token = environment.simulator.mint(Application.self) { latest[name] = token }
                }
                for name in names {
                    let simulated =
                        latest[name].map {
                            !environment.simulator.isVoid($0) && environment.simulator.runningGrant != nil
                        } ?? false
                    #expect(ledger.isValid(name) == simulated)
                }
                for token in revokedTokens { #expect(environment.simulator.isVoid(token)) }
            }
        }
    }
}

@Suite struct TokenGrantLedgerNameTests {
    @Test func namesCompareByCodePointNotCanonicalEquivalence() {
        var ledger = TokenGrantLedger()
        ledger.apply([.authorize, .pick("Caf\u{E9}")])
        #expect(ledger.isValid("Caf\u{E9}"))
        #expect(!ledger.isValid("Cafe\u{301}"))  // another name, as in JSON
    }
}
