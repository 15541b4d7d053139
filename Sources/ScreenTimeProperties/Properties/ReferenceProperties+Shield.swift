import PropertyTesting
import ScreenTimeReference

extension ReferenceProperties {
    /// A scenario (`shieldScenario()`), a store index in `0...3`, an edit (`shieldEdit(shielding:)`).
    static func edited(shielding: Bool) -> Gen<EditedScenario> {
        let draw = ShieldDraw.small
        let stores = CollectionLength(0...3)
        let index = IntegerChoice<Int>(in: 0...3)
        return Gen { source in
            let scenario = draw.scenario(stores, source)
            let store = index.draw(from: source)
            return EditedScenario(scenario: scenario, store: store, edit: draw.edit(shielding: shielding, source))
        }
    }

    static func show(_ r: Result<ShieldVerdict, ShieldLimitExceeded>) -> String { ShieldDescription.verdict(r) }

    /// `show(a) == show(b)`, without writing the two descriptions when the answer is plain (equal verdicts, or
    /// limitExceeded on the same set: both show the same text).
    static func showSame(
        _ a: Result<ShieldVerdict, ShieldLimitExceeded>, _ b: Result<ShieldVerdict, ShieldLimitExceeded>
    ) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)) where x == y: return true
        case (.failure(let x), .failure(let y)) where x.set == y.set: return true
        default: return show(a) == show(b)
        }
    }

    public static func shieldMatchesModel(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.matches-model", summary: "the verdict equals an independent transcription of the §2 rules",
            Gen<ShieldScenario>.shieldScenario(), describe: { $0.description }
        ) { s in
            let got = subject.evaluate(s.stores, s.activity)
            let expected = ShieldModel.verdict(s.stores, s.activity)
            switch got {
            case .success(let v):
                return v == expected
                    ? nil : "got \(show(got)), expected \(expected.map { show(.success($0)) } ?? "limitExceeded")"
            case .failure:
                return expected == nil ? nil : "got \(show(got)), expected \(show(.success(expected ?? .allowed)))"
            }
        }
    }

    public static func shieldMonotoneAddingToken(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.monotone-adding-token",
            summary:
                "adding a token to applications/webDomains/a category set never un-shields; only app → category reason changes (§2)",
            edited(shielding: true), describe: { $0.description }
        ) { e in
            guard case .success(let before) = subject.evaluate(e.scenario.stores, e.scenario.activity),
                case .success(let after) = subject.evaluate(e.edited, e.scenario.activity)
            else { return "limitExceeded on a small store" }
            if before.isShielded && !after.isShielded { return "was \(show(.success(before))), now allowed" }
            if before.reason?.isCategoryReason == true && after != before {
                return "category reason changed: \(show(.success(before))) → \(show(.success(after)))"
            }
            return nil
        }
    }

    public static func shieldExceptNeverShields(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.except-never-shields",
            summary: "adding a token to an except set never shields an allowed activity (§2)",
            edited(shielding: false), describe: { $0.description }
        ) { e in
            guard case .success(let before) = subject.evaluate(e.scenario.stores, e.scenario.activity),
                case .success(let after) = subject.evaluate(e.edited, e.scenario.activity)
            else { return "limitExceeded on a small store" }
            if !before.isShielded && after.isShielded { return "was allowed, now \(show(.success(after)))" }
            if before.reason?.isCategoryReason == false && after != before {
                return "token reason changed: \(show(.success(before))) → \(show(.success(after)))"
            }
            return nil
        }
    }

    static var nilEqualsEmptyCases: Gen<(ShieldScenario, [UInt8])> {
        // zip(shieldScenario(), bytes(count: 0...16))
        let draw = ShieldDraw.small
        let stores = CollectionLength(0...3)
        let swapCount = CollectionLength(0...16)
        let byte = IntegerChoice<UInt8>(in: 0...255)
        return Gen<(ShieldScenario, [UInt8])> { source in
            let s = draw.scenario(stores, source)
            var swaps: [UInt8] = []
            swaps.reserveCapacity(swapCount.maxCount)
            while swapCount.wantsAnother(after: swaps.count, from: source) { swaps.append(byte.draw(from: source)) }
            return (s, swaps)
        }
    }

    public static func shieldNilEqualsEmpty(_ subject: ShieldSubject = .reference) -> Property {
        let gen = nilEqualsEmptyCases
        return Property(
            "shield.nil-equals-empty", summary: "nil, empty sets, .none and .specific([]) shield alike (§2)",
            gen, describe: { "\($0.0)\n  swaps \($0.1)" }
        ) { (s, swaps) in
            var stores = s.stores
            for (i, swap) in swaps.enumerated() where !stores.isEmpty {
                let k = i % stores.count
                switch swap % 6 {
                case 0:
                    if stores[k].applications?.isEmpty ?? true {
                        stores[k].applications = stores[k].applications == nil ? [] : nil
                    }
                case 1:
                    if stores[k].webDomains?.isEmpty ?? true {
                        stores[k].webDomains = stores[k].webDomains == nil ? [] : nil
                    }
                case 2:
                    if stores[k].applicationCategories == nil
                        || stores[k].applicationCategories == ShieldSettings.ActivityCategoryPolicy<Application>.none
                    {
                        stores[k].applicationCategories = emptyPolicy(Int(swap / 6) % 3)
                    }
                case 3:
                    if stores[k].webDomainCategories == nil
                        || stores[k].webDomainCategories == ShieldSettings.ActivityCategoryPolicy<WebDomain>.none
                    {
                        stores[k].webDomainCategories = emptyPolicy(Int(swap / 6) % 3)
                    }
                case 4:
                    stores.append(
                        ShieldSettings(
                            applications: [],
                            applicationCategories: ShieldSettings.ActivityCategoryPolicy<Application>.none,
                            webDomains: [], webDomainCategories: ShieldSettings.ActivityCategoryPolicy<WebDomain>.none))
                default: stores.append(ShieldSettings())
                }
            }
            let before = subject.evaluate(s.stores, s.activity)
            let after = subject.evaluate(stores, s.activity)
            return showSame(before, after)
                ? nil : "\(show(before)) became \(show(after)) with \(stores.map(ShieldDescription.settings))"
        }
    }

    /// The policies that shield nothing: `[nil, .none, .specific([], except: [])][i]`.
    static func emptyPolicy<M>(_ i: Int) -> ShieldSettings.ActivityCategoryPolicy<M>? {
        switch i {
        case 0: return nil
        case 1: return ShieldSettings.ActivityCategoryPolicy<M>.none
        default: return .specific([], except: [])
        }
    }

    public static func shieldCategoryReasonNamesOwnCategory(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.category-reason-names-own-category",
            summary: "a category reason always names the activity's own category, of the activity's kind (§2)",
            Gen<ShieldScenario>.shieldScenario(), describe: { $0.description }
        ) { s in
            guard case .success(.shielded(let reason)) = subject.evaluate(s.stores, s.activity) else { return nil }
            if let problem = reasonConveniencesProblem(reason, s.activity) { return problem }
            switch (reason, s.activity) {
            case (.applicationCategory(let c), .application(_, let own)),
                (.webDomainCategory(let c), .webDomain(_, let own)):
                return c == own
                    ? nil : "reason names \(TokenUniverse.label(c)), the activity is in \(TokenUniverse.label(own))"
            case (.application, .application), (.webDomain, .webDomain): return nil
            default: return "reason \(reason.name) for \(ShieldDescription.activity(s.activity))"
            }
        }
    }

    /// A reason's conveniences follow from its case (`SPEC.md` §2 "Verdicts"): a category reason names the
    /// activity's `category` and draws through `configuration(shielding:in:)`, an app or domain reason has no
    /// category and draws through `configuration(shielding:)`; the callback names the reason's kind, and the
    /// verdict's callback is its reason's.
    static func reasonConveniencesProblem(_ reason: ShieldReason, _ activity: ShieldActivity) -> String? {
        let verdict = ShieldVerdict.shielded(reason)
        guard verdict.isShielded, verdict.reason == reason, !ShieldVerdict.allowed.isShielded,
            ShieldVerdict.allowed.configurationCallback == nil,
            verdict.configurationCallback == reason.configurationCallback
        else { return "verdict conveniences disagree with \(reason.name)" }
        let callback = reason.configurationCallback
        switch activity {
        case .application(_, let category), .webDomain(_, let category):
            if activity.category != category { return "the activity's category is not the one it carries" }
        }
        if reason.isCategoryReason != (reason.category != nil)
            || (reason.category.map { $0 == activity.category } == false)
        {
            return "reason \(reason.name) names category \(reason.category.map(TokenUniverse.label) ?? "none")"
        }
        let expected: ShieldConfigurationCallback
        let name: String
        switch reason {
        case .application: (expected, name) = (.application, "application")
        case .applicationCategory: (expected, name) = (.applicationInCategory, "applicationCategory")
        case .webDomain: (expected, name) = (.webDomain, "webDomain")
        case .webDomainCategory: (expected, name) = (.webDomainInCategory, "webDomainCategory")
        }
        if reason.name != name { return "reason \(name) has the wire name \(reason.name)" }
        let selector = reason.isCategoryReason ? "configuration(shielding:in:)" : "configuration(shielding:)"
        if callback != expected || callback.selector != selector {
            return "reason \(reason.name) draws through \(callback.rawValue) \(callback.selector)"
        }
        return nil
    }

    static var storeOrderCases: Gen<(ShieldScenario, [ShieldSettings])> {
        let draw = ShieldDraw.small
        let length = CollectionLength(0...4)
        // shieldScenario(stores: 0...4), then Gen.shuffled(its stores)
        return Gen<(ShieldScenario, [ShieldSettings])> { source in
            let s = draw.scenario(length, source)
            return (s, source.shuffled(s.stores))
        }
    }

    public static func shieldStoreOrderIrrelevant(_ subject: ShieldSubject = .reference) -> Property {
        let gen = storeOrderCases
        return Property(
            "shield.store-order-irrelevant", summary: "permuting the stores never changes a verdict (§2)",
            gen, describe: { "\($0.0)\n  permuted: \($0.1.map(ShieldDescription.settings))" }
        ) { (s, permuted) in
            let a = subject.evaluate(s.stores, s.activity)
            let b = subject.evaluate(permuted, s.activity)
            return showSame(a, b) ? nil : "\(show(a)) in the original order, \(show(b)) permuted"
        }
    }

    static var storeUnionCases: Gen<(ShieldScenario, ShieldScenario)> {
        let draw = ShieldDraw.small
        let stores = CollectionLength(0...2)
        return Gen<(ShieldScenario, ShieldScenario)> { source in  // zip(shieldScenario(stores: 0...2), the same)
            let a = draw.scenario(stores, source)
            return (a, draw.scenario(stores, source))
        }
    }

    public static func shieldStoreUnionLaws(_ subject: ShieldSubject = .reference) -> Property {
        let gen = storeUnionCases
        return Property(
            "shield.store-union-laws",
            summary: "stores combine as a join: no stores allow, A+B = join(A, B), A+A = A (§2)",
            gen, describe: { "A: \($0.0)\nB stores: \($0.1.stores.map(ShieldDescription.settings))" }
        ) { (a, b) in
            let activity = a.activity
            if case .success(let v) = subject.evaluate([], activity), v != .allowed {
                return "no stores, but \(show(.success(v)))"
            }
            guard case .success(let va) = subject.evaluate(a.stores, activity),
                case .success(let vb) = subject.evaluate(b.stores, activity),
                case .success(let vab) = subject.evaluate(a.stores + b.stores, activity),
                case .success(let vaa) = subject.evaluate(a.stores + a.stores, activity)
            else { return "limitExceeded on small stores" }
            func rank(_ v: ShieldVerdict) -> Int { v.reason.map { $0.isCategoryReason ? 2 : 1 } ?? 0 }
            let join = rank(va) >= rank(vb) ? va : vb
            if vab != join { return "A: \(show(.success(va))), B: \(show(.success(vb))), A+B: \(show(.success(vab)))" }
            if vaa != va { return "A: \(show(.success(va))), A+A: \(show(.success(vaa)))" }
            return nil
        }
    }

    /// Scenarios where store 0 both lists the activity's token and shields its category (maybe exempting it):
    /// `zip(shieldScenario(), bool, bool)`, then store 0 rewritten.
    static var precedenceScenario: Gen<(ShieldScenario, Bool)> {
        let draw = ShieldDraw.small
        let stores = CollectionLength(0...3)
        return Gen { source in
            var s = draw.scenario(stores, source)
            let exempt = source.draw(upTo: 1) == 1
            let all = source.draw(upTo: 1) == 1
            if s.stores.isEmpty { s.stores = [ShieldSettings()] }
            switch s.activity {
            case .application(let t, let c):
                s.stores[0].applications = ShieldEdit.inserting(t, into: s.stores[0].applications)
                let except: Set<ApplicationToken> = exempt ? [t] : []
                s.stores[0].applicationCategories = all ? .all(except: except) : .specific([c], except: except)
            case .webDomain(let t, let c):
                s.stores[0].webDomains = ShieldEdit.inserting(t, into: s.stores[0].webDomains)
                let except: Set<WebDomainToken> = exempt ? [t] : []
                s.stores[0].webDomainCategories = all ? .all(except: except) : .specific([c], except: except)
            }
            return (s, exempt)
        }
    }

    public static func shieldCategoryPrecedence(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.category-precedence",
            summary:
                "when a category policy and a token list both shield, the reason is the category one (§2, field bug 5)",
            precedenceScenario.map { $0.0 }.filter { s in
                ShieldModel.match(s.stores[0], s.activity) == .category
            }, describe: { $0.description }
        ) { s in
            guard case .success(let v) = subject.evaluate(s.stores, s.activity) else { return "limitExceeded" }
            return v.reason?.isCategoryReason == true ? nil : "got \(show(.success(v))), expected a category reason"
        }
    }

    public static func shieldListedBeatsExcept(_ subject: ShieldSubject = .reference) -> Property {
        Property(
            "shield.listed-beats-except",
            summary:
                "a token listed in applications/webDomains stays shielded even when its category policy exempts it (§2, field bug 5)",
            precedenceScenario, describe: { "\($0.0)\n  exempt: \($0.1)" }
        ) { (s, _) in
            guard case .success(let v) = subject.evaluate(s.stores, s.activity) else { return "limitExceeded" }
            return v.isShielded ? nil : "a listed token is allowed"
        }
    }

    static var kindsNeverMixCases: Gen<(ShieldScenario, ShieldSettings)> {
        let draw = ShieldDraw.small
        let stores = CollectionLength(0...3)
        return Gen<(ShieldScenario, ShieldSettings)> { source in  // zip(shieldScenario(), shieldSettings())
            let s = draw.scenario(stores, source)
            return (s, draw.settings(source))
        }
    }

    public static func shieldKindsNeverMix(_ subject: ShieldSubject = .reference) -> Property {
        let gen = kindsNeverMixCases
        return Property(
            "shield.kinds-never-mix",
            summary: "the other kind's settings, even tokens with the same bytes, never change a verdict (§1, §2)",
            gen, describe: { "\($0.0)\n  other-kind settings from: \(ShieldDescription.settings($0.1))" }
        ) { (s, noise) in
            var stores = s.stores.isEmpty ? [ShieldSettings()] : s.stores
            let baseline = subject.evaluate(stores, s.activity)
            // The activity's token as the other kind: the same bytes.
            let sameBytesWeb: WebDomainToken
            let sameBytesApp: ApplicationToken
            switch s.activity {
            case .application(let t, _):
                (sameBytesWeb, sameBytesApp) = (TokenUniverse.sameBytes(t, as: WebDomain.self), t)
            case .webDomain(let t, _):
                (sameBytesWeb, sameBytesApp) = (t, TokenUniverse.sameBytes(t, as: Application.self))
            }
            for k in stores.indices {
                switch s.activity {
                case .application(_, let c):
                    // Web-domain settings that would shield a web domain with the app's bytes and category.
                    stores[k].webDomains = ShieldEdit.inserting(sameBytesWeb, into: noise.webDomains)
                    stores[k].webDomainCategories = k % 2 == 0 ? .specific([c], except: []) : .all(except: [])
                case .webDomain(_, let c):
                    stores[k].applications = ShieldEdit.inserting(sameBytesApp, into: noise.applications)
                    stores[k].applicationCategories = k % 2 == 0 ? .specific([c], except: []) : .all(except: [])
                }
            }
            let changed = subject.evaluate(stores, s.activity)
            return showSame(changed, baseline)
                ? nil : "other-kind settings changed \(show(baseline)) into \(show(changed))"
        }
    }

    /// Settings with one limited set of 45…55 tokens (universe of 64) and an activity: the set
    /// (`caseOf(LimitedSet)`), its size (`int(in: 45...55)`), the first token (`int(in: 0...8)`), settings
    /// (`shieldSettings()`) whose chosen set is then replaced, and an activity (`shieldActivity()`).
    static var limitScenario: Gen<(ShieldSettings, ShieldSettings.LimitedSet, Int, ShieldActivity)> {
        let draw = ShieldDraw.small
        let sizes = IntegerChoice<Int>(in: 45...55)
        let offsets = IntegerChoice<Int>(in: 0...8)
        let sets = ShieldSettings.LimitedSet.allCases
        return Gen { source in
            let set = sets[Int(source.draw(upTo: UInt64(sets.count - 1)))]
            let size = sizes.draw(from: source)
            let offset = offsets.draw(from: source)
            var s = draw.settings(source)
            let k = LimitTokens.key(offset: offset, size: size)
            switch set {
            case .applications: s.applications = LimitTokens.applications[k]
            case .webDomains: s.webDomains = LimitTokens.webDomains[k]
            case .applicationCategories:
                s.applicationCategories = .specific(
                    LimitTokens.categories[k], except: s.applicationCategories?.exceptions ?? [])
            case .applicationCategoryExceptions: s.applicationCategories = .all(except: LimitTokens.applications[k])
            case .webDomainCategories:
                s.webDomainCategories = .specific(
                    LimitTokens.categories[k], except: s.webDomainCategories?.exceptions ?? [])
            case .webDomainCategoryExceptions: s.webDomainCategories = .all(except: LimitTokens.webDomains[k])
            }
            return (s, set, size, draw.activity(source))
        }
    }

    static var limitsCases: Gen<((ShieldSettings, ShieldSettings.LimitedSet, Int, ShieldActivity), [ShieldSettings])> {
        let scenario = limitScenario
        let draw = ShieldDraw.small
        let othersLength = CollectionLength(0...2)
        return Gen<((ShieldSettings, ShieldSettings.LimitedSet, Int, ShieldActivity), [ShieldSettings])> { source in
            let limited = scenario.generate(using: source)  // zip(limitScenario, shieldSettings().array(count: 0...2))
            return (limited, draw.stores(othersLength, source))
        }
    }

    public static func shieldLimits(_ subject: ShieldSubject = .reference) -> Property {
        let gen = limitsCases
        return Property(
            "shield.limits",
            summary:
                "a store with more than 50 tokens in a limited set fails every evaluation with limitExceeded; 50 never does (§2)",
            gen,
            describe: {
                "\($0.0.1.rawValue) holds \($0.0.2) tokens; \(ShieldDescription.activity($0.0.3)); \($0.1.count) other stores"
            }
        ) { (scenario, others) in
            let (settings, set, size, activity) = scenario
            if let problem = limitBookkeepingProblem(settings, set, size) { return problem }
            let result = subject.evaluate(others + [settings], activity)
            switch result {
            case .failure(let error):
                if size <= 50 { return "limitExceeded (\(error.set.rawValue)) with only \(size) tokens" }
                if error.set != set || error.count != size || error.storeIndex != others.count {
                    return "wrong error \(error)"
                }
                let described = "store #\(others.count) holds \(size) tokens in \(set.rawValue), over 50"
                if error.description != "limitExceeded: \(described)" { return "error reads \(error.description)" }
                return environmentNamesStoreOverLimit(settings, set, size, activity)
            case .success(let v):
                return size > 50 ? "evaluated to \(show(.success(v))) with \(size) tokens" : nil
            }
        }
    }

    /// What the settings say of their limited sets, against the set the scenario filled with `size` tokens (the
    /// others hold at most the small universe): `tokenCount(in:)` is `size` there; `setsOverLimit` is that set
    /// when `size` > 50 (``ShieldSettings/maximumTokenCount``), else empty; `lint` finds exactly those sets over the
    /// limit, with their counts, then one void-token finding per token of each set when every token is void, by
    /// set in ``ShieldSettings/LimitedSet`` order and tokens in stable order; each finding names its store and set.
    static func limitBookkeepingProblem(_ settings: ShieldSettings, _ set: ShieldSettings.LimitedSet, _ size: Int)
        -> String?
    {
        if ShieldSettings.maximumTokenCount != 50 { return "the limit is \(ShieldSettings.maximumTokenCount)" }
        if settings.tokenCount(in: set) != size || settings.tokens(in: set).count != size {
            return "\(set.rawValue) counts \(settings.tokenCount(in: set)) tokens, not \(size)"
        }
        let over = settings.setsOverLimit
        if over != (size > 50 ? [set] : []) { return "sets over the limit: \(over.map(\.rawValue))" }
        let store = ManagedSettingsStore.Identity.named(.init("limits"))
        let overFindings = over.map {
            ShieldLintFinding(store: store, set: $0, problem: .overLimit(count: settings.tokenCount(in: $0)))
        }
        if settings.lint(store: store) != overFindings {
            return "lint without void tokens: \(settings.lint(store: store))"
        }
        let sets = ShieldSettings.LimitedSet.allCases
        if sets.sorted() != sets || zip(sets, sets.dropFirst()).contains(where: { !($0 < $1) }) {
            return "LimitedSet order is not its case order"
        }
        let voidFindings = sets.flatMap { limited in
            settings.tokens(in: limited).sorted().map {
                ShieldLintFinding(store: nil, set: limited, problem: .voidToken($0))
            }
        }
        let allVoid = settings.lint(isVoid: { _ in true })
        if allVoid != overFindings.map({ ShieldLintFinding(store: nil, set: $0.set, problem: $0.problem) })
            + voidFindings
        {
            return "lint with every token void: \(allVoid.count) findings"
        }
        for identity in voidFindings.prefix(3).compactMap({ if case .voidToken(let t) = $0.problem { t } else { nil } })
        {
            var rebuilt = TokenIdentity(kind: identity.kind, data: "AA==")
            rebuilt.data = identity.data
            var hashers = (Hasher(), Hasher())
            hashers.0.combine(rebuilt)
            hashers.1.combine(identity)
            if rebuilt != identity || rebuilt.hashValue != identity.hashValue || rebuilt < identity
                || identity < rebuilt || hashers.0.finalize() != hashers.1.finalize()
            {
                return "an identity rebuilt from its kind and data differs: \(identity)"
            }
        }
        for finding in overFindings + voidFindings.prefix(3) {
            let location = finding.store.map { "\($0)." } ?? ""
            let detail: String
            switch finding.problem {
            case .overLimit(let count): detail = "\(count) tokens, over the limit of 50"
            case .voidToken(let token): detail = "void token \(token.kind)Token(\(token.data))"
            }
            if finding.description != "\(location)\(finding.set.rawValue): \(detail)" {
                return "finding reads \(finding.description)"
            }
        }
        return nil
    }

    /// Through a ``ScreenTimeEnvironment`` whose store `limits` holds the settings over the limit, evaluation
    /// throws an error naming that store, and `lintShields()` reports the set with its count in that store;
    /// `reset()` then leaves no store, and the activity is allowed.
    static func environmentNamesStoreOverLimit(
        _ settings: ShieldSettings, _ set: ShieldSettings.LimitedSet, _ size: Int, _ activity: ShieldActivity
    ) -> String? {
        let environment = ScreenTimeEnvironment()
        let identity = ManagedSettingsStore.Identity.named(.init("limits"))
        ManagedSettingsStore(named: .init("limits"), environment: environment).shield = settings
        do throws(ShieldLimitExceeded) {
            _ = try environment.evaluateShield(activity)
            return "the environment evaluated a store with \(size) tokens"
        } catch {
            if error.store != identity || error.set != set || error.count != size {
                return "the environment's error is \(error)"
            }
            let described = "limitExceeded: store ManagedSettingsStore(limits) holds \(size) tokens in \(set.rawValue)"
            if !error.description.hasPrefix(described) { return "the environment's error reads \(error)" }
        }
        let finding = ShieldLintFinding(store: identity, set: set, problem: .overLimit(count: size))
        if environment.lintShields() != [finding] { return "lintShields() is \(environment.lintShields())" }
        environment.reset()
        if !environment.shieldSettingsByStore.isEmpty || (try? environment.evaluateShield(activity)) != .allowed {
            return "reset() left stores in the environment"
        }
        return nil
    }

    /// Assignments of settings to named stores, and an activity.
    struct StoreAssignments: Sendable, CustomStringConvertible {
        var assignments: [(name: String?, settings: ShieldSettings)]
        var activity: ShieldActivity
        var description: String {
            "activity \(ShieldDescription.activity(activity))\n"
                + assignments.map {
                    "  \($0.name.map { "store \($0)" } ?? "unnamed store") = \(ShieldDescription.settings($0.settings))"
                }.joined(separator: "\n")
        }
    }

    static var namedStoresCases: Gen<StoreAssignments> {
        let names: [String?] = [nil, "focus", "sleep"]
        let draw = ShieldDraw.small
        let counts = IntegerChoice<Int>(in: 0...5)
        return Gen<StoreAssignments> { source in
            // int(in: 0...5) assignments, each element(of: names) then shieldSettings(); then shieldActivity()
            let count = counts.draw(from: source)
            var assignments: [(name: String?, settings: ShieldSettings)] = []
            assignments.reserveCapacity(count)
            for _ in 0..<count {
                let name = names[Int(source.draw(upTo: UInt64(names.count - 1)))]
                assignments.append((name: name, settings: draw.settings(source)))
            }
            return StoreAssignments(assignments: assignments, activity: draw.activity(source))
        }
    }

    public static func shieldNamedStoresShare() -> Property {
        let names: [String?] = [nil, "focus", "sleep"]
        let gen = namedStoresCases
        return Property(
            "shield.named-stores-share",
            summary:
                "stores of one name share settings (last write wins); the environment's verdict is the evaluation over its stores (§2)",
            gen, describe: { $0.description }
        ) { a in
            let environment = ScreenTimeEnvironment()
            func store(_ name: String?) -> ManagedSettingsStore {
                name.map { ManagedSettingsStore(named: .init($0), environment: environment) }
                    ?? ManagedSettingsStore(environment: environment)
            }
            var latest: [String: ShieldSettings] = [:]
            for (name, settings) in a.assignments {
                store(name).shield = settings
                latest[name ?? "\u{0}unnamed"] = settings
            }
            for name in names {
                let expected = latest[name ?? "\u{0}unnamed"] ?? ShieldSettings()
                if store(name).shield != expected { return "store \(name ?? "unnamed") reads back different settings" }
                if let problem = storeIdentityProblem(store(name), name) { return problem }
            }
            if let problem = lintCoversStores(environment) { return problem }
            let expected = ModelVerdict(ShieldModel.verdict(Array(latest.values), a.activity))
            let got: ModelVerdict
            do { got = ModelVerdict(try environment.evaluateShield(a.activity)) } catch { got = ModelVerdict(nil) }
            return got == expected ? nil : "environment says \(got), expected \(expected)"
        }
    }

    /// A store's identity is its name (`ManagedSettingsStore`): `name` and `identity` give it back, the unnamed
    /// store sorts before every named one and named ones by name in byte order, and descriptions name the store.
    static func storeIdentityProblem(_ store: ManagedSettingsStore, _ name: String?) -> String? {
        let identity: ManagedSettingsStore.Identity = name.map { .named(.init(rawValue: $0)) } ?? .unnamed
        if store.identity != identity || store.name?.rawValue != name || store.name?.description != name {
            return "store \(name ?? "unnamed") has identity \(store.identity)"
        }
        if name == nil, ManagedSettingsStore().identity != .unnamed || ManagedSettingsStore().name != nil {
            return "ManagedSettingsStore() is not the unnamed store"
        }
        let description = name.map { "ManagedSettingsStore(\($0))" } ?? "ManagedSettingsStore()"
        if identity.description != description { return "identity reads \(identity.description)" }
        let others: [ManagedSettingsStore.Identity] = [.unnamed, .named(.init("focus")), .named(.init("sleep"))]
        for other in others {
            let expected: Bool
            switch (identity, other) {
            case (.unnamed, .unnamed), (.named, .unnamed): expected = false
            case (.unnamed, .named): expected = true
            case (.named(let a), .named(let b)): expected = a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8)
            }
            if (identity < other) != expected { return "\(identity) < \(other) is \(!expected)" }
        }
        return nil
    }

    /// The environment's lint is every store's own lint (`lintShields()`), and a store changed through
    /// `modifyShield` or cleared with `clearAllSettings()` reads back the change, in a copy of the environment's
    /// stores (so the property's verdict check sees the stores as assigned).
    static func lintCoversStores(_ environment: ScreenTimeEnvironment) -> String? {
        let stores = environment.shieldSettingsByStore
        let expected = stores.flatMap { $0.settings.lint(store: $0.store) }
        if environment.lintShields() != expected { return "lintShields() is not the stores' lint" }
        let copy = ScreenTimeEnvironment()
        for (identity, settings) in stores {
            let store: ManagedSettingsStore
            switch identity {
            case .unnamed: store = ManagedSettingsStore(environment: copy)
            case .named(let name): store = ManagedSettingsStore(named: name, environment: copy)
            }
            let tokens = store.modifyShield { shield -> Set<ApplicationToken> in
                shield.applications = nil
                return settings.applications ?? []
            }
            if tokens != settings.applications ?? [] || store.shield.applications != nil {
                return "modifyShield did not change \(identity)"
            }
            store.clearAllSettings()
            if store.shield != ShieldSettings() { return "clearAllSettings() left settings in \(identity)" }
        }
        return nil
    }

    struct ModelVerdict: Equatable, CustomStringConvertible {
        var verdict: ShieldVerdict?
        init(_ v: ShieldVerdict?) { verdict = v }
        var description: String { verdict.map { ShieldDescription.verdict(.success($0)) } ?? "limitExceeded" }
    }

    package static var shieldProperties: [Property] {
        [
            shieldMatchesModel(), shieldMonotoneAddingToken(), shieldExceptNeverShields(), shieldNilEqualsEmpty(),
            shieldCategoryReasonNamesOwnCategory(), shieldStoreOrderIrrelevant(), shieldStoreUnionLaws(),
            shieldCategoryPrecedence(), shieldListedBeatsExcept(), shieldKindsNeverMix(), shieldLimits(),
            shieldNamedStoresShare(),
        ]
    }
}
