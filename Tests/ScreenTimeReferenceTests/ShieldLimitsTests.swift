import Testing

@testable import ScreenTimeReference

/// SPEC §2 "Limits": 50 tokens per limited set evaluate; 51 fail with `limitExceeded`; assignment never fails.
@Suite struct ShieldLimitsTests {
    /// Settings holding `count` tokens in `set` and nothing else.
    static func settings(_ count: Int, in set: ShieldSettings.LimitedSet) -> ShieldSettings {
        var s = ShieldSettings()
        switch set {
        case .applications: s.applications = numberedTokens(count, "a")
        case .applicationCategories: s.applicationCategories = .specific(numberedTokens(count, "c"))
        case .applicationCategoryExceptions: s.applicationCategories = .all(except: numberedTokens(count, "a"))
        case .webDomains: s.webDomains = numberedTokens(count, "w")
        case .webDomainCategories: s.webDomainCategories = .specific(numberedTokens(count, "c"))
        case .webDomainCategoryExceptions: s.webDomainCategories = .all(except: numberedTokens(count, "w"))
        }
        return s
    }

    static let activities: [ShieldActivity] = [
        .application(app("x"), category: cat("x")), .webDomain(web("x"), category: cat("x")),
    ]

    @Test(arguments: ShieldSettings.LimitedSet.allCases)
    func fiftyTokensEvaluate(_ set: ShieldSettings.LimitedSet) throws {
        let store = Self.settings(50, in: set)
        #expect(store.tokenCount(in: set) == 50)
        #expect(store.setsOverLimit.isEmpty)
        for activity in Self.activities {
            _ = try ShieldEvaluation.evaluate(activity, stores: [store])
        }
        #expect(store.lint().isEmpty)
    }

    @Test(arguments: ShieldSettings.LimitedSet.allCases)
    func fiftyOneTokensFailEveryActivity(_ set: ShieldSettings.LimitedSet) {
        let store = Self.settings(51, in: set)
        #expect(store.setsOverLimit == [set])
        for activity in Self.activities {
            // Whatever the activity's kind: the store as a whole is unusable.
            #expect(throws: ShieldLimitExceeded(storeIndex: 1, set: set, count: 51)) {
                try ShieldEvaluation.evaluate(activity, stores: [ShieldSettings(), store])
            }
        }
        #expect(store.lint() == [ShieldLintFinding(store: nil, set: set, problem: .overLimit(count: 51))])
    }

    @Test func firstSetOverLimitIsTheFirstOfSetsOverLimit() {
        // Evaluation checks `firstSetOverLimit` (no array); it must name what `setsOverLimit.first` names, for
        // every combination of sets at 50 and 51, so that the thrown error is the same.
        let sets = ShieldSettings.LimitedSet.allCases
        for mask in 0..<(1 << sets.count) {
            var store = ShieldSettings()
            let count = { (set: ShieldSettings.LimitedSet) in
                mask & (1 << (sets.firstIndex(of: set) ?? 0)) != 0 ? 51 : 50
            }
            store.applications = numberedTokens(count(.applications), "a")
            store.applicationCategories = .specific(
                numberedTokens(count(.applicationCategories), "c"),
                except: numberedTokens(count(.applicationCategoryExceptions), "a"))
            store.webDomains = numberedTokens(count(.webDomains), "w")
            store.webDomainCategories = .specific(
                numberedTokens(count(.webDomainCategories), "c"),
                except: numberedTokens(count(.webDomainCategoryExceptions), "w"))
            #expect(store.firstSetOverLimit == store.setsOverLimit.first, "mask \(mask)")
            #expect(store.setsOverLimit.count == mask.nonzeroBitCount)
        }
        for set in sets {
            #expect(Self.settings(51, in: set).firstSetOverLimit == set)
            #expect(Self.settings(50, in: set).firstSetOverLimit == nil)
        }
        #expect(ShieldSettings().firstSetOverLimit == nil)
        #expect(
            ShieldSettings(applicationCategories: ShieldSettings.ActivityCategoryPolicy<Application>.none)
                .firstSetOverLimit == nil)
    }

    @Test func duplicatesDoNotCountTowardTheLimit() throws {
        // Sets collapse duplicates: inserting the same 50 tokens twice is still 50.
        var store = ShieldSettings(applications: numberedTokens(50, "a"))
        store.applications?.formUnion(numberedTokens(50, "a"))
        #expect(store.tokenCount(in: .applications) == 50)
        _ = try store.evaluate(.application(app("x"), category: cat("x")))
    }

    /// The environment evaluates its stores in whatever order it holds them, but an error names the first store over
    /// a limit in `shieldSettingsByStore` order, and a verdict over many stores is the evaluation in that order.
    @Test func environmentErrorsNameTheFirstStoreInStoreOrder() throws {
        let environment = ScreenTimeEnvironment()
        for name in ["m", "c", "x", "a", "q", "k"] {
            ManagedSettingsStore(named: .init(name), environment: environment).shield.webDomains = [web(name)]
        }
        ManagedSettingsStore(environment: environment).shield.applicationCategories = .specific([cat("x")])
        let ordered = environment.shieldSettingsByStore.map(\.settings)
        for activity in [
            ShieldActivity.application(app("x"), category: cat("x")), .webDomain(web("q"), category: cat("y")),
            .webDomain(web("z"), category: cat("y")),
        ] {
            #expect(try environment.evaluateShield(activity) == ShieldEvaluation.evaluate(activity, stores: ordered))
        }
        ManagedSettingsStore(named: .init("x"), environment: environment).shield.applications = numberedTokens(51, "x")
        ManagedSettingsStore(named: .init("c"), environment: environment).shield.webDomains = Set(
            (0..<52).map { web("c\($0)") })
        do {
            _ = try environment.evaluateShield(.application(app("x"), category: cat("x")))
            Issue.record("evaluation over stores past the limit must throw")
        } catch {
            // Store order: unnamed, a, c, k, m, q, x.
            #expect(error.store == .named(.init("c")))
            #expect(error.storeIndex == 2)
            #expect(error.set == .webDomains && error.count == 52)
        }
    }

    @Test func assignmentPastTheLimitKeepsEverything() {
        let environment = ScreenTimeEnvironment()
        let store = ManagedSettingsStore(named: .init("big"), environment: environment)
        store.shield.applications = numberedTokens(120, "a")
        #expect(store.shield.applications?.count == 120)
        #expect(throws: ShieldLimitExceeded.self) {
            try environment.evaluateShield(.application(app("x"), category: cat("x")))
        }
        do {
            _ = try environment.evaluateShield(.application(app("x"), category: cat("x")))
            Issue.record("evaluation over a store past the limit must throw")
        } catch {
            #expect(error.store == .named(.init("big")))
            #expect(error.set == .applications)
            #expect(error.count == 120)
        }
        #expect(
            environment.lintShields() == [
                ShieldLintFinding(store: .named(.init("big")), set: .applications, problem: .overLimit(count: 120))
            ])
        store.clearAllSettings()
        #expect(throws: Never.self) { try environment.evaluateShield(.application(app("x"), category: cat("x"))) }
    }
}
