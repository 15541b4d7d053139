import PropertyTesting
import ScreenTimeReference
import Testing

@testable import ScreenTimeProperties

/// The shield generators are written as straight code (`ShieldDraw`) for speed under the fuzzers. They must read
/// exactly the choices of the combinator recipes they replace, written out again here as they were: same values,
/// same recorded choices, from random seeds, from replayed choices and from arbitrary bytes (so corpus files and
/// saved regressions keep their meaning, and random runs keep their distribution).
@Suite struct ShieldGeneratorTests {
    /// The combinator recipes, as the generators were first written.
    enum Recipe {
        static func universeToken<K: TokenKind>(_ kind: K.Type, universe: Int) -> Gen<Token<K>> {
            let count = Swift.max(1, Swift.min(universe, TokenUniverse.size))
            return Gen<Int>.int(in: 0...(count - 1)).map { TokenUniverse.token($0, K.self) }
        }

        static func universeTokens<K: TokenKind>(_ kind: K.Type, universe: Int) -> Gen<Set<Token<K>>> {
            universeToken(kind, universe: universe).array(count: 0...3).map { Set($0) }
        }

        static func categoryPolicy<M: TokenKind>(_ member: M.Type, _ universe: ShieldUniverse, members: Int) -> Gen<
            ShieldSettings.ActivityCategoryPolicy<M>?
        > {
            let except = universeTokens(M.self, universe: members)
            let categories = universeTokens(ActivityCategory.self, universe: universe.categories)
            return Gen.oneOf(
                Gen.constant(nil),
                Gen.constant(ShieldSettings.ActivityCategoryPolicy<M>.none),
                except.map { .all(except: $0) },
                Gen<(Set<ActivityCategoryToken>, Set<Token<M>>)>.zip(categories, except).map {
                    .specific($0.0, except: $0.1)
                })
        }

        static func settings(_ universe: ShieldUniverse = .small) -> Gen<ShieldSettings> {
            let apps = universeTokens(Application.self, universe: universe.applications).optional(probability: 0.7)
            let webs = universeTokens(WebDomain.self, universe: universe.webDomains).optional(probability: 0.7)
            let appPolicy = categoryPolicy(Application.self, universe, members: universe.applications)
            let webPolicy = categoryPolicy(WebDomain.self, universe, members: universe.webDomains)
            return Gen { source in
                ShieldSettings(
                    applications: apps.generate(using: source),
                    applicationCategories: appPolicy.generate(using: source),
                    webDomains: webs.generate(using: source), webDomainCategories: webPolicy.generate(using: source))
            }
        }

        static func activity(_ universe: ShieldUniverse = .small) -> Gen<ShieldActivity> {
            let category = universeToken(ActivityCategory.self, universe: universe.categories)
            return Gen.oneOf(
                Gen.zip(universeToken(Application.self, universe: universe.applications), category).map {
                    ShieldActivity.application($0.0, category: $0.1)
                },
                Gen.zip(universeToken(WebDomain.self, universe: universe.webDomains), category).map {
                    ShieldActivity.webDomain($0.0, category: $0.1)
                })
        }

        static func scenario(_ universe: ShieldUniverse = .small, stores: ClosedRange<Int> = 0...3) -> Gen<
            ShieldScenario
        > {
            Gen { source in
                ShieldScenario(
                    stores: settings(universe).array(count: stores).generate(using: source),
                    activity: activity(universe).generate(using: source))
            }
        }

        static func edit(_ universe: ShieldUniverse = .small, shielding: Bool) -> Gen<ShieldEdit> {
            let app = universeToken(Application.self, universe: universe.applications)
            let web = universeToken(WebDomain.self, universe: universe.webDomains)
            let cat = universeToken(ActivityCategory.self, universe: universe.categories)
            if shielding {
                return Gen.oneOf(
                    app.map(ShieldEdit.addApplication), web.map(ShieldEdit.addWebDomain),
                    cat.map(ShieldEdit.addApplicationCategory), cat.map(ShieldEdit.addWebDomainCategory))
            }
            return Gen.oneOf(app.map(ShieldEdit.addApplicationException), web.map(ShieldEdit.addWebDomainException))
        }

        static func edited(shielding: Bool) -> Gen<EditedScenario> {
            Gen { source in
                EditedScenario(
                    scenario: scenario().generate(using: source),
                    store: Gen<Int>.int(in: 0...3).generate(using: source),
                    edit: edit(shielding: shielding).generate(using: source))
            }
        }

        static var precedence: Gen<(ShieldScenario, Bool)> {
            Gen<(ShieldScenario, Bool, Bool)>.zip(scenario(), Gen<Bool>.bool, Gen<Bool>.bool).map { (s, exempt, all) in
                var s = s
                if s.stores.isEmpty { s.stores = [ShieldSettings()] }
                switch s.activity {
                case .application(let t, let c):
                    s.stores[0].applications = (s.stores[0].applications ?? []).union([t])
                    let except: Set<ApplicationToken> = exempt ? [t] : []
                    s.stores[0].applicationCategories = all ? .all(except: except) : .specific([c], except: except)
                case .webDomain(let t, let c):
                    s.stores[0].webDomains = (s.stores[0].webDomains ?? []).union([t])
                    let except: Set<WebDomainToken> = exempt ? [t] : []
                    s.stores[0].webDomainCategories = all ? .all(except: except) : .specific([c], except: except)
                }
                return (s, exempt)
            }
        }

        static var limit: Gen<(ShieldSettings, ShieldSettings.LimitedSet, Int, ShieldActivity)> {
            Gen { source in
                let set = Gen<ShieldSettings.LimitedSet>.caseOf().generate(using: source)
                let size = Gen<Int>.int(in: 45...55).generate(using: source)
                let offset = Gen<Int>.int(in: 0...8).generate(using: source)
                var s = settings().generate(using: source)
                let indices = (0..<size).map { offset + $0 }
                switch set {
                case .applications: s.applications = Set(indices.map { TokenUniverse.token($0, Application.self) })
                case .webDomains: s.webDomains = Set(indices.map { TokenUniverse.token($0, WebDomain.self) })
                case .applicationCategories:
                    s.applicationCategories = .specific(
                        Set(indices.map { TokenUniverse.token($0, ActivityCategory.self) }),
                        except: s.applicationCategories?.exceptions ?? [])
                case .applicationCategoryExceptions:
                    s.applicationCategories = .all(
                        except: Set(indices.map { TokenUniverse.token($0, Application.self) }))
                case .webDomainCategories:
                    s.webDomainCategories = .specific(
                        Set(indices.map { TokenUniverse.token($0, ActivityCategory.self) }),
                        except: s.webDomainCategories?.exceptions ?? [])
                case .webDomainCategoryExceptions:
                    s.webDomainCategories = .all(except: Set(indices.map { TokenUniverse.token($0, WebDomain.self) }))
                }
                return (s, set, size, activity().generate(using: source))
            }
        }

        static var namedStores: Gen<[(String?, ShieldSettings)]> {
            Gen { source in
                let count = Gen<Int>.int(in: 0...5).generate(using: source)
                var assignments: [(String?, ShieldSettings)] = []
                for _ in 0..<count {
                    assignments.append(
                        (
                            Gen<String?>.element(of: [nil, "focus", "sleep"]).generate(using: source),
                            settings().generate(using: source)
                        ))
                }
                return assignments
            }
        }
    }

    /// Runs both generators on the same random seeds, replayed choices and byte strings: equal values, equal choices.
    func expectSameDraws<A, B>(_ new: Gen<A>, _ old: Gen<B>, _ name: String, equal: (A, B) -> Bool) {
        var rng = Xoshiro256(seed: 7)
        for seed in 0..<400 as Range<UInt64> {
            let a = ChoiceSource(seed: seed)
            let b = ChoiceSource(seed: seed)
            let x = new.generate(using: a)
            let y = old.generate(using: b)
            #expect(a.choices == b.choices && a.maxima == b.maxima, "\(name): seed \(seed) draws differ")
            #expect(equal(x, y), "\(name): seed \(seed) values differ")
            // The same choices, replayed with one of them changed: another case, still read alike.
            var replay = b.choices
            if !replay.isEmpty { replay[Int(rng.next(upTo: UInt64(replay.count - 1)))] = rng.next(upTo: 3) }
            #expect(
                equal(new.generate(replaying: replay), old.generate(replaying: replay)),
                "\(name): replay \(replay) differs")
        }
        for _ in 0..<400 {
            let bytes = (0..<Int(rng.next(upTo: 48))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let a = ChoiceSource(bytes: bytes)
            let b = ChoiceSource(bytes: bytes)
            let x = new.generate(using: a)
            let y = old.generate(using: b)
            #expect(a.choices == b.choices && equal(x, y), "\(name): bytes \(Hex.encode(bytes)) read differently")
        }
    }

    static func same(_ a: ShieldScenario, _ b: ShieldScenario) -> Bool {
        a.stores == b.stores && a.activity == b.activity
    }

    @Test func settingsActivitiesPoliciesAndEdits() {
        for universe in [ShieldUniverse.small, ShieldUniverse(applications: 1, categories: 9, webDomains: 70)] {
            expectSameDraws(
                Gen<ShieldSettings>.shieldSettings(universe), Recipe.settings(universe), "settings", equal: ==)
            expectSameDraws(
                Gen<ShieldActivity>.shieldActivity(universe), Recipe.activity(universe), "activity", equal: ==)
            expectSameDraws(
                Gen<ShieldSettings.ActivityCategoryPolicy<Application>?>.categoryPolicy(
                    Application.self, universe, members: 3),
                Recipe.categoryPolicy(Application.self, universe, members: 3), "policy", equal: ==)
            expectSameDraws(
                Gen<ShieldSettings.ActivityCategoryPolicy<WebDomain>?>.categoryPolicy(
                    WebDomain.self, universe, members: 5),
                Recipe.categoryPolicy(WebDomain.self, universe, members: 5), "policy", equal: ==)
            for shielding in [true, false] {
                expectSameDraws(
                    Gen<ShieldEdit>.shieldEdit(universe, shielding: shielding),
                    Recipe.edit(universe, shielding: shielding), "edit", equal: ==)
            }
            for stores in [0...3, 0...4, 0...2, 2...5] {
                expectSameDraws(
                    Gen<ShieldScenario>.shieldScenario(universe, stores: stores),
                    Recipe.scenario(universe, stores: stores), "scenario \(stores)", equal: Self.same)
            }
        }
    }

    @Test func propertyCases() {
        typealias R = ReferenceProperties
        for shielding in [true, false] {
            expectSameDraws(R.edited(shielding: shielding), Recipe.edited(shielding: shielding), "edited") {
                Self.same($0.scenario, $1.scenario) && $0.store == $1.store && $0.edit == $1.edit
            }
        }
        expectSameDraws(R.precedenceScenario, Recipe.precedence, "precedence") { Self.same($0.0, $1.0) && $0.1 == $1.1 }
        expectSameDraws(R.limitScenario, Recipe.limit, "limit") {
            $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 && $0.3 == $1.3
        }
        expectSameDraws(R.limitsCases, Gen.zip(Recipe.limit, Recipe.settings().array(count: 0...2)), "limits") {
            $0.0.0 == $1.0.0 && $0.0.3 == $1.0.3 && $0.1 == $1.1
        }
        expectSameDraws(
            R.nilEqualsEmptyCases, Gen.zip(Recipe.scenario(), Gen<[UInt8]>.bytes(count: 0...16)), "nil-equals-empty"
        ) { Self.same($0.0, $1.0) && $0.1 == $1.1 }
        expectSameDraws(
            R.storeOrderCases,
            Recipe.scenario(stores: 0...4).flatMap { s in Gen<ShieldSettings>.shuffled(s.stores).map { (s, $0) } },
            "store-order"
        ) {
            Self.same($0.0, $1.0) && $0.1 == $1.1
        }
        expectSameDraws(
            R.storeUnionCases, Gen.zip(Recipe.scenario(stores: 0...2), Recipe.scenario(stores: 0...2)), "store-union"
        ) { Self.same($0.0, $1.0) && Self.same($0.1, $1.1) }
        expectSameDraws(R.kindsNeverMixCases, Gen.zip(Recipe.scenario(), Recipe.settings()), "kinds-never-mix") {
            Self.same($0.0, $1.0) && $0.1 == $1.1
        }
        expectSameDraws(R.namedStoresCases, Gen.zip(Recipe.namedStores, Recipe.activity()), "named-stores") {
            new, old in
            new.activity == old.1 && new.assignments.count == old.0.count
                && zip(new.assignments, old.0).allSatisfy { $0.name == $1.0 && $0.settings == $1.1 }
        }
    }

    /// Some of these cases must differ, or the comparison above proves nothing.
    @Test func theComparisonSeesDifferences() {
        let a = Gen<ShieldScenario>.shieldScenario().generate(seed: 1)
        let b = Gen<ShieldScenario>.shieldScenario().generate(seed: 2)
        let c = Gen<ShieldScenario>.shieldScenario().generate(seed: 3)
        #expect(!(Self.same(a, b) && Self.same(b, c)))
    }

    /// The limit token sets made once are the sets the recipe makes.
    @Test func limitTokenTables() {
        for offset in 0...8 {
            for size in 45...55 {
                let k = ReferenceProperties.LimitTokens.key(offset: offset, size: size)
                #expect(
                    ReferenceProperties.LimitTokens.applications[k]
                        == Set((0..<size).map { TokenUniverse.token(offset + $0, Application.self) }))
                #expect(
                    ReferenceProperties.LimitTokens.categories[k]
                        == Set((0..<size).map { TokenUniverse.token(offset + $0, ActivityCategory.self) }))
                #expect(ReferenceProperties.LimitTokens.webDomains[k].count == size)
            }
        }
    }
}

/// `showSame` is `show(a) == show(b)` (what the shield properties compare), without writing the text when plain.
@Suite struct ShowSameTests {
    @Test func agreesWithComparingTheShownText() {
        let cat0 = TokenUniverse.token(0, ActivityCategory.self)
        let cat1 = TokenUniverse.token(1, ActivityCategory.self)
        let results: [Result<ShieldVerdict, ShieldLimitExceeded>] = [
            .success(.allowed), .success(.shielded(.application)), .success(.shielded(.webDomain)),
            .success(.shielded(.applicationCategory(cat0))), .success(.shielded(.applicationCategory(cat1))),
            .success(.shielded(.webDomainCategory(cat0))),
            .failure(ShieldLimitExceeded(storeIndex: 0, set: .applications, count: 51)),
            .failure(ShieldLimitExceeded(storeIndex: 2, set: .applications, count: 60)),
            .failure(ShieldLimitExceeded(storeIndex: 0, set: .webDomainCategoryExceptions, count: 51)),
        ]
        var same = 0
        for a in results {
            for b in results {
                let shown = ReferenceProperties.show(a) == ReferenceProperties.show(b)
                #expect(
                    ReferenceProperties.showSame(a, b) == shown,
                    "\(ReferenceProperties.show(a)) vs \(ReferenceProperties.show(b))")
                if shown { same += 1 }
            }
        }
        #expect(same == results.count + 2)  // the two applications limits show alike
    }
}
