import PropertyTesting
import ScreenTimeReference

/// The `settings.*` family (`SPEC.md` §9): ManagedSettings beyond shields, driven through the stores' own API on a
/// fresh ``ScreenTimeEnvironment`` per case. Each builder takes a ``SettingsSubject`` (the reference by default),
/// so a test can show that a property catches field bugs 20–22.
extension ReferenceProperties {
    package static var settingsProperties: [Property] {
        [
            settingsMatchesModel(), settingsOtherStoresCommute(), settingsClearAllSettingsEmpties(),
            settingsAnotherStoreNeverLifts(), settingsHiddenNeverShielded(), settingsLimits(),
            settingsDomainsCoverSubdomains(),
        ]
    }

    static func show(_ result: Result<SettingsAnswer, ManagedSettingsError>) -> String {
        SettingsModel.answer(result).description
    }

    /// How restrictive an answer is: allowed (or no value) 0, left to iOS's filter 1, anything else 2.
    static func rank(_ verdict: SettingsVerdict) -> Int {
        switch verdict {
        case .allowed, .value(nil): return 0
        case .dependsOnSystemFilter: return 1
        default: return 2
        }
    }

    /// `settings.matches-model`: the answer equals ``SettingsModel``'s, an independent transcription of §9 (verdict,
    /// reason, value, the stores responsible, or the error of §9.5).
    package static func settingsMatchesModel(_ subject: SettingsSubject = .reference) -> Property {
        Property(
            "settings.matches-model",
            summary: "the answer (verdict, value, stores, or error) equals an independent transcription of §9",
            Gen<SettingsScenario>.settingsScenario(), describe: { $0.description }
        ) { scenario in
            let got = SettingsModel.answer(subject.answer(scenario))
            let expected = SettingsModel.answer(scenario)
            return got == expected ? nil : "got \(got), expected \(expected)"
        }
    }

    /// `settings.other-stores-commute`: steps on different stores commute, so grouping the steps store by store
    /// (keeping each store's own order) gives the same answer; an error keeps its code. Source: §9.1 (each store
    /// holds its own settings; combining is commutative).
    package static func settingsOtherStoresCommute(_ subject: SettingsSubject = .reference) -> Property {
        Property(
            "settings.other-stores-commute",
            summary: "steps on different stores commute: grouped store by store, the answer is the same (§9.1)",
            Gen<SettingsScenario>.settingsScenario(), describe: { $0.description }
        ) { scenario in
            var grouped = scenario
            grouped.steps = scenario.steps.enumerated().sorted {
                ($0.element.store, $0.offset) < ($1.element.store, $1.offset)
            }
            .map(\.element)
            let a = subject.answer(scenario)
            let b = subject.answer(grouped)
            return SettingsModel.answer(a) == SettingsModel.answer(b)
                ? nil : "in order: \(show(a)); grouped by store: \(show(b))"
        }
    }

    /// `settings.clear-all-settings-empties`: after `clearAllSettings()` on one store, that store reads back no
    /// setting in any group (shield, web filter, applications, every restriction), and every query answers as if
    /// nothing had ever been set there (field bug 20). Source: §9.1 (Apple: clearAllSettings()).
    package static func settingsClearAllSettingsEmpties(_ subject: SettingsSubject = .reference) -> Property {
        Property(
            "settings.clear-all-settings-empties",
            summary: "clearAllSettings() leaves its store with no setting in any group, as if never set (§9.1)",
            Gen<(SettingsScenario, Int)>.zip(
                .settingsScenario(), .int(in: 0...(SettingsScenario.stores.count - 1))),
            describe: { "\($0.0)\nclearAllSettings() on \(SettingsScenario.stores[$0.1])" }
        ) { scenario, index in
            let environment = subject.environment(scenario.steps)
            let store = SettingsScenario.store(index, in: environment)
            subject.apply(.clearAllSettings, store)
            if store.shield != ShieldSettings() { return "the shield reads back \(store.shield)" }
            if store.webContent.blockedByFilter != nil {
                return "webContent.blockedByFilter reads back \(store.webContent.blockedByFilter!)"
            }
            if store.application != ApplicationSettings() { return "application reads back \(store.application)" }
            for restriction in Restriction.allCases {
                if let value = store.modifyGroups({ $0[restriction] }) {
                    return "\(restriction.rawValue) reads back \(value)"
                }
            }
            let cleared = subject.evaluate(environment, scenario.query)
            let never = subject.answer(
                SettingsScenario(steps: scenario.steps.filter { $0.store != index }, query: scenario.query))
            return SettingsModel.answer(cleared) == SettingsModel.answer(never)
                ? nil : "after clearAllSettings(): \(show(cleared)); never set: \(show(never))"
        }
    }

    /// `settings.another-store-never-lifts`: settings in one more store never make an answer less restrictive: a
    /// denied, hidden, shielded or blocked answer stays one of these, `dependsOnSystemFilter` never becomes
    /// allowed, and a restriction's value stays or gets more restrictive (unless the new store is an error).
    /// Source: §9.1 ("a store's `false` never lifts another store's `true`"), §9.3 (an exception in one store never
    /// lifts another store's block); Assumption A28.
    package static func settingsAnotherStoreNeverLifts(_ subject: SettingsSubject = .reference) -> Property {
        let extra = Gen<SettingsScenario.Change>.settingsChange(invalid: false, limits: false).array(count: 1...3)
        return Property(
            "settings.another-store-never-lifts",
            summary: "one more store's settings never make a verdict less restrictive, nor a value (§9.1, A28)",
            Gen<(SettingsScenario, [SettingsScenario.Change], String)>.zip(
                .settingsScenario(), extra, .element(of: ["a-extra", "z-extra"])
            ).map { scenario, changes, name in
                // Most often the extra store also sets the very member the query reads, to a lesser value.
                (scenario, Self.lesser(of: scenario.query, pick: changes.count) + changes, name)
            },
            describe: {
                "\($0.0)\nthen ManagedSettingsStore(\($0.2)): "
                    + $0.1.map(SettingsScenario.describe).joined(separator: "; ")
            }
        ) { scenario, changes, name in
            let environment = subject.environment(scenario.steps)
            guard case .success(let before) = subject.evaluate(environment, scenario.query) else { throw Discard() }
            // Named to sort first or last among the stores, so that no store order can hide a lifted setting.
            let store = ManagedSettingsStore(named: .init(name), environment: environment)
            for change in changes { subject.apply(change, store) }
            let result = subject.evaluate(environment, scenario.query)
            guard case .success(let after) = result else { return nil }
            if rank(after.verdict) < rank(before.verdict) {
                return "before: \(show(.success(before))); with the extra store: \(show(result))"
            }
            if case .value(let old?) = before.verdict, case .value(let new) = after.verdict,
                new != old, !(new.map { $0.isMoreRestrictive(than: old) } ?? false)
            {
                return "the value went from \(old) to \(new.map { "\($0)" } ?? "nil")"
            }
            return nil
        }
    }

    /// A change to the member `query` reads, as unrestrictive as that member gets (`false`, the highest rating, a
    /// filter with the URL's domain as an exception), or nothing (`pick` 3 of every 3).
    static func lesser(of query: SettingsQuery, pick: Int) -> [SettingsScenario.Change] {
        guard pick < 3 else { return [] }
        switch query {
        case .setting(let restriction):
            return [.restriction(restriction, restriction.isInteger ? .integer(1000) : .bool(false))]
        case .removal: return [.restriction(.denyAppRemoval, .bool(false))]
        case .installation: return [.restriction(.denyAppInstallation, .bool(false))]
        case .url(let url):
            guard let host = DomainName.host(ofURL: url) else { return [] }
            return [.filter(.all(except: [WebDomain(domain: host.text)]))]
        case .launch, .privateBrowsing: return [.filter(WebContentSettings.FilterPolicy.none)]
        }
    }

    /// `settings.hidden-never-shielded`: a launch of an app that some store's `blockedApplications` names (by token
    /// or exact bundle identifier) is `hidden`, by exactly those stores, whatever the shields say; a shielded app
    /// is named by none. Source: §9.2 (Apple: blockedApplications; Assumption A29).
    package static func settingsHiddenNeverShielded(_ subject: SettingsSubject = .reference) -> Property {
        let launches = Gen<SettingsScenario>.settingsScenario(invalid: false, limits: false).flatMap { scenario in
            Gen<SettingsQuery>.settingsQuery.filter {
                if case .launch = $0 { return true }
                return false
            }.map { SettingsScenario(steps: scenario.steps, query: $0) }
        }
        return Property(
            "settings.hidden-never-shielded",
            summary: "an app blockedApplications names is hidden by exactly those stores, never shielded (§9.2)",
            launches, describe: { $0.description }
        ) { scenario in
            guard case .launch(let app, let bundle, _) = scenario.query else { throw Discard() }
            let environment = subject.environment(scenario.steps)
            let naming = environment.settingsByStore.filter { store in
                (store.groups.application.blockedApplications ?? []).contains {
                    $0.names(app, bundleIdentifier: bundle)
                }
            }.map(\.store)
            let result = subject.evaluate(environment, scenario.query)
            guard case .success(let answer) = result else { return "launch failed: \(show(result))" }
            if naming.isEmpty {
                return answer.verdict == .hidden ? "hidden, yet no store names the app" : nil
            }
            if answer.verdict != .hidden { return "\(naming.map(\.description)) name the app, yet \(show(result))" }
            return answer.stores == naming ? nil : "hidden by \(answer.stores), but named by \(naming)"
        }
    }

    /// `settings.limits`: a store's `blockedApplications`, a policy's domains or its exceptions of `n` distinct
    /// items makes every query `limitExceeded`, naming that store, exactly when `n > 50` (field bug 21). Source:
    /// §9.1 (Apple: up to 50; past them Assumption A6).
    package static func settingsLimits(_ subject: SettingsSubject = .reference) -> Property {
        Property(
            "settings.limits",
            summary:
                "51 or more apps, policy domains or exceptions in a store fail every query, naming it; 50 never do (§9.1)",
            Gen<(SettingsScenario, Int, Int, Int)>.zip(
                .settingsScenario(invalid: false, limits: false), .int(in: 0...(SettingsScenario.stores.count - 1)),
                .int(in: 0...3), .int(in: 46...55)),
            describe: { s, store, set, n in
                let sets = ["blockedApplications", ".specific(D)", ".all(except: E)", ".auto(D)"]
                return "\(s)\nthen \(SettingsScenario.stores[store]): \(sets[set]) of \(n) distinct items"
            }
        ) { scenario, index, set, n in
            let environment = subject.environment(scenario.steps)
            let store = SettingsScenario.store(index, in: environment)
            let domains = SettingsUniverse.manyDomains(n)
            switch set {
            case 0: subject.apply(.blockedApplications(SettingsUniverse.selectionOfApplications(n)), store)
            case 1: subject.apply(.filter(.specific(domains)), store)
            case 2: subject.apply(.filter(.all(except: domains)), store)
            default: subject.apply(.filter(.auto(domains)), store)
            }
            let result = subject.evaluate(environment, scenario.query)
            switch result {
            case .failure(let error) where error.code == .limitExceeded:
                if n <= 50 { return "\(n) items: \(show(result))" }
                return error.store == SettingsScenario.stores[index]
                    ? nil : "the error names \(error.store.map { "\($0)" } ?? "no store")"
            default:
                return n > 50 ? "\(n) items, yet \(show(result))" : nil
            }
        }
    }

    /// A domain name drawn for `settings.domains-cover-subdomains`: labels, the spelling a policy uses (case, a
    /// trailing dot), and the host a URL visits (the domain, a subdomain of it, or a look-alike that only ends
    /// with the same letters).
    struct DomainVisit: Sendable, CustomStringConvertible {
        var policyDomain: String
        var host: String
        var covered: Bool
        var description: String { "policy .specific([\"\(policyDomain)\"]), visit https://\(host)/" }
    }

    static var domainVisits: Gen<DomainVisit> {
        let label = Gen<String>.string(.init("abcxyz019-"), length: 1...8).filter {
            !$0.hasPrefix("-") && !$0.hasSuffix("-")
        }
        return Gen<([String], Int, Int)>.zip(label.array(count: 1...3), .int(in: 0...3), .int(in: 0...4)).map {
            labels, spelling, visit in
            let domain = labels.joined(separator: ".")
            let spelled: String
            switch spelling {
            case 0: spelled = domain
            case 1: spelled = domain.uppercased()
            case 2: spelled = domain + "."
            default:
                spelled = String(
                    domain.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            }
            switch visit {
            case 0: return DomainVisit(policyDomain: spelled, host: domain, covered: true)
            case 1: return DomainVisit(policyDomain: spelled, host: "www." + domain, covered: true)
            case 2: return DomainVisit(policyDomain: spelled, host: "a.b." + domain.uppercased() + ".", covered: true)
            case 3: return DomainVisit(policyDomain: spelled, host: "not" + domain, covered: false)
            default: return DomainVisit(policyDomain: "www." + spelled, host: domain, covered: false)
            }
        }
    }

    /// `settings.domains-cover-subdomains`: a policy domain covers itself and every subdomain, compared as
    /// lower-case names without the trailing dot, and nothing that merely ends with its letters: `specific([d])`
    /// blocks exactly the covered hosts and `all(except: [d])` lets exactly those through (field bug 22). Source:
    /// §9.3 (Assumptions A30, A31).
    package static func settingsDomainsCoverSubdomains(_ subject: SettingsSubject = .reference) -> Property {
        Property(
            "settings.domains-cover-subdomains",
            summary: "a policy domain covers itself and its subdomains in any case, never a look-alike (§9.3)",
            domainVisits, describe: { $0.description }
        ) { visit in
            guard DomainName(visit.policyDomain) != nil, DomainName(visit.host) != nil else { throw Discard() }
            let url = "https://\(visit.host)/"
            for (policy, blockedWhenCovered) in [
                (WebContentSettings.FilterPolicy.specific([WebDomain(domain: visit.policyDomain)]), true),
                (.all(except: [WebDomain(domain: visit.policyDomain)]), false),
            ] {
                let environment = ScreenTimeEnvironment()
                subject.apply(.filter(policy), ManagedSettingsStore(environment: environment))
                let result = subject.evaluate(environment, .url(url))
                guard case .success(let answer) = result else {
                    return "\(SettingsScenario.describe(policy)): \(show(result))"
                }
                let blocked = answer.verdict == .blocked
                if blocked != (visit.covered == blockedWhenCovered) {
                    return "\(SettingsScenario.describe(policy)) answers \(show(result)) for \(url)"
                }
            }
            return nil
        }
    }
}
