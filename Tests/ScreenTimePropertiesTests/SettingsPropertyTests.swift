import Foundation
import PropertyTesting
import Testing
import _TestSupport

@testable import ScreenTimeProperties
@testable import ScreenTimeReference

/// The `settings.*` properties: their generators reach every verdict and error of `SPEC.md` §9, and the properties
/// catch field bugs 20–22 planted in a ``SettingsSubject``, and a model that disagrees with the reference.
@Suite struct SettingsPropertyTests {
    static let config = RunConfiguration(seed: 7, iterations: 2_000, saveFailures: false)

    func expectCaught(_ property: Property, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = property.check(Self.config)
        #expect(
            result.status == .failed, "the broken variant was not caught: \(result.report)",
            sourceLocation: sourceLocation)
    }

    /// Over a few thousand scenarios, every verdict and every error of §9 comes up.
    @Test func scenariosReachEveryVerdictAndError() {
        var seen: Set<String> = []
        let gen = Gen<SettingsScenario>.settingsScenario()
        for seed in 0..<4_000 as Range<UInt64> {
            switch SettingsSubject.reference.answer(gen.generate(seed: seed)) {
            case .success(let answer): seen.insert(answer.verdict.name)
            case .failure(let error): seen.insert(error.code.rawValue)
            }
        }
        let expected: Set<String> = [
            "allowed", "hidden", "shielded", "denied", "blocked", "dependsOnSystemFilter", "value", "limitExceeded",
            "invalidWebDomain", "invalidURL",
        ]
        #expect(seen == expected, "\(expected.subtracting(seen).sorted()) never came up")
    }

    /// Field bug 20: `clearAllSettings()` taken to clear the shield only.
    @Test func clearingOnlyTheShieldIsCaught() {
        let shieldOnly = SettingsSubject(apply: { change, store in
            if change == .clearAllSettings {
                store.shield = ShieldSettings()
            } else {
                SettingsScenario.apply(change, to: store)
            }
        })
        expectCaught(ReferenceProperties.settingsClearAllSettingsEmpties(shieldOnly))
        expectCaught(ReferenceProperties.settingsMatchesModel(shieldOnly))
    }

    /// Field bug 21: a selection past 50 apps copied into `blockedApplications` and cut to fit without a word.
    @Test func blockedApplicationsCutToFiftyIsCaught() {
        let cut = SettingsSubject(apply: { change, store in
            if case .blockedApplications(let apps?) = change, apps.count > 50 {
                store.application.blockedApplications = Set(apps.sorted { "\($0)" < "\($1)" }.prefix(50))
            } else {
                SettingsScenario.apply(change, to: store)
            }
        })
        expectCaught(ReferenceProperties.settingsLimits(cut))
        expectCaught(ReferenceProperties.settingsMatchesModel(cut))
    }

    /// Field bug 22: the policy's domain compared with the URL's host as typed (no subdomains, no lower-casing).
    @Test func domainsMatchedAsWrittenAreCaught() {
        // A block the reference gives only because the domain covers the host (a subdomain, another case, a
        // trailing dot) is lifted, as an exact string comparison would.
        let notCovering = SettingsSubject(evaluate: { environment, query in
            let answer = SettingsSubject.referenceEvaluate(environment, query)
            guard case .url(let url) = query, case .success(let a) = answer, a.verdict == .blocked else {
                return answer
            }
            let host = url.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            let exactly = environment.settingsByStore.contains { store in
                store.groups.webContent.blockedByFilter?.domains.contains { $0.domain == host } ?? false
            }
            let specific = environment.settingsByStore.allSatisfy { store in
                if case .all? = store.groups.webContent.blockedByFilter { return false }
                return true
            }
            return exactly || !specific ? answer : .success(SettingsAnswer(verdict: .allowed))
        })
        expectCaught(ReferenceProperties.settingsDomainsCoverSubdomains(notCovering))
        expectCaught(ReferenceProperties.settingsMatchesModel(notCovering))
    }

    /// A store's `false` lifting another store's `true` (the last store written wins) is caught.
    @Test func aLaterFalseLiftingATrueIsCaught() {
        let lastWins = SettingsSubject(evaluate: { environment, query in
            guard case .setting(let restriction) = query else {
                return SettingsSubject.referenceEvaluate(environment, query)
            }
            let set = environment.settingsByStore.filter { $0.groups[restriction] != nil }
            guard let last = set.last else { return .success(SettingsAnswer(verdict: .value(nil))) }
            return .success(SettingsAnswer(verdict: .value(last.groups[restriction]), stores: [last.store]))
        })
        expectCaught(ReferenceProperties.settingsAnotherStoreNeverLifts(lastWins))
        expectCaught(ReferenceProperties.settingsMatchesModel(lastWins))
    }

    /// A hidden app that is also reported shielded (the shield read before `blockedApplications`) is caught.
    @Test func shieldBeforeHiddenIsCaught() {
        let shieldFirst = SettingsSubject(evaluate: { environment, query in
            guard case .launch(let app, _, let category) = query else {
                return SettingsSubject.referenceEvaluate(environment, query)
            }
            if let verdict = try? environment.evaluateShield(.application(app, category: category)),
                case .shielded(let reason) = verdict
            {
                return .success(SettingsAnswer(verdict: .shielded(reason)))
            }
            return SettingsSubject.referenceEvaluate(environment, query)
        })
        expectCaught(ReferenceProperties.settingsHiddenNeverShielded(shieldFirst))
    }

    /// Within one store the last write wins, so the order of a store's own steps matters: reversing the steps
    /// changes some answers (which is why `settings.other-stores-commute` keeps each store's order).
    @Test func theOrderOfOneStoresStepsMatters() {
        let scenario = Gen<SettingsScenario>.settingsScenario()
        var differing = 0
        for seed in 0..<500 as Range<UInt64> {
            var s = scenario.generate(seed: seed)
            let forward = SettingsModel.answer(SettingsSubject.reference.answer(s))
            s.steps.reverse()
            if SettingsModel.answer(SettingsSubject.reference.answer(s)) != forward { differing += 1 }
        }
        #expect(differing > 20, "only \(differing) of 500 scenarios depend on the order of their steps")
    }
}
