import Foundation
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import Testing
import _TestSupport

/// Every named property of the reference at a size that keeps `swift test` fast.
@Suite struct PropertyCatalogTests {
    static let names = ReferenceProperties.catalog.names
    static let iterations = 200

    /// Properties whose failure is a reported finding (see the final report); each stays visible as a known issue.
    static let knownIssues: [String: String] = [:]

    /// The checked-in corpus: `corpus/<property>/regressions/` holds the cases `stc check` saved (SPEC §6).
    static let corpus = PackagePaths.corpus.path

    /// How `swift test` runs a property: its saved regressions first, then random cases; nothing is written.
    static func configuration(regressions root: String = corpus) -> RunConfiguration {
        RunConfiguration(
            seed: 20_240_601, iterations: iterations, regressions: RegressionStore(root: root), saveFailures: false)
    }

    @Test(arguments: names)
    func holds(name: String) throws {
        let property = try #require(ReferenceProperties.catalog.property(named: name))
        let result = property.check(Self.configuration())
        if let finding = Self.knownIssues[name] {
            withKnownIssue(Comment(rawValue: finding)) { expectPasses(result) }
        } else {
            expectPasses(result)
        }
    }

    /// A case saved under `corpus/<property>/regressions/` is replayed by `swift test` before any random case: a
    /// failure `stc check` found stays a failing test until the bug is fixed.
    @Test func savedRegressionsAreReplayedFirst() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stc-catalog-\(UInt64.random(in: 0 ... .max))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let name = "url.round-trip"
        let property = try #require(ReferenceProperties.catalog.property(named: name))
        _ = try RegressionStore(root: root).save([7, 1, 2, 3], property: name)
        let result = property.check(Self.configuration(regressions: root))
        #expect(result.regressionsReplayed == 1)
        #expect(result.passed)
    }

    @Test func catalogIsLargeNamedAndSummarized() {
        let catalog = ReferenceProperties.catalog
        #expect(catalog.properties.count >= 25)
        #expect(Set(catalog.names).count == catalog.names.count, "names are unique")
        for property in catalog.properties {
            #expect(!property.summary.isEmpty, "\(property.name) has a summary")
            #expect(property.name.contains("."), "\(property.name) is family.name")
            #expect(!property.summary.contains("\n"), "\(property.name): one-line summary")
        }
    }

    /// Any bytes are a valid case: the byte entry point never traps and is deterministic.
    @Test func everyPropertyHoldsOnArbitraryBytes() {
        var rng = Xoshiro256(seed: 9)
        for property in ReferenceProperties.catalog.properties {
            for _ in 0..<5 {
                let bytes = (0..<Int(rng.next(upTo: 64))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let first = property.holds(bytes)
                #expect(first == property.holds(bytes), "\(property.name) is deterministic on bytes")
                #expect(first, "\(property.name) fails on bytes \(Hex.encode(bytes))")
            }
        }
    }
}

// MARK: - Every property can fail: broken implementations are caught and shrunk

/// A lifecycle that treats a transient notDetermined like a revocation (field bug 6).
struct ClearsOnNotDetermined: LifecycleSubject {
    var inner = LifecyclePolicy()
    var shieldsActive: Bool { inner.shieldsActive }
    mutating func observe(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action] {
        inner.observe(observation == .status(.notDetermined) ? .status(.denied) : observation)
    }
}

/// A lifecycle that restores the old shields on re-approval instead of asking for a new pick (field bug 6).
struct RestoresOnReapproval: LifecycleSubject {
    var approved = true
    var shieldsActive = true
    var hadShields = true
    mutating func observe(_ observation: LifecyclePolicy.Observation) -> [LifecyclePolicy.Action] {
        switch observation {
        case .status(.denied):
            defer { approved = false }
            if approved && shieldsActive {
                shieldsActive = false
                return [.clearShields, .notifyRevoked]
            }
            return []
        case .status(.approved), .status(.approvedWithDataAccess):
            if !approved { shieldsActive = hadShields }
            approved = true
            return []
        case .pick:
            if approved {
                shieldsActive = true
                hadShields = true
            }
            return []
        case .status: return []
        }
    }
}

/// Grants whose tokens come back to life on re-authorization.
final class RevivingGrantSystem: GrantSystem {
    var status: AuthorizationStatus = .notDetermined
    var minted = 0
    var shielded: Set<Int> = []
    var problem: String? { nil }
    func requestAuthorization(approve: Bool) { if status != .approved { status = approve ? .approved : .denied } }
    func revoke(inSettings: Bool) {
        if status == .approved {
            status = .denied
            shielded = []
        }
    }
    func pick() -> Int? {
        guard status == .approved else { return nil }
        minted += 1
        return minted - 1
    }
    func shield(_ token: Int) { if token < minted { shielded.insert(token) } }
    func isShielded(_ token: Int) -> Bool { shielded.contains(token) && status == .approved }
    func isVoid(_ token: Int) -> Bool { status != .approved }
}

@Suite struct BrokenVariantTests {
    static let config = RunConfiguration(seed: 7, iterations: 2_000, saveFailures: false)

    func expectCaught(_ property: Property, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyFailure? {
        let result = property.check(Self.config)
        #expect(
            result.status == .failed, "the broken variant was not caught: \(result.report)",
            sourceLocation: sourceLocation)
        return result.failure
    }

    @Test func equalityByRawStringIsCaught() throws {
        let broken = SelectionSubject(equal: { $0 == $1 })
        let failure = try #require(expectCaught(ReferenceProperties.selectionEqualityUnderPermutation(broken)))
        #expect(failure.shrinkImprovements > 0)
        // Shrunk to the empty selection written two ways.
        #expect(
            failure.counterexample.contains("selection {apps []; cats []; webs []; entire false}"),
            "\(failure.counterexample)")
    }

    @Test func displayOrderFromSetIterationIsCaught() throws {
        let broken = SelectionSubject(order: { selection, kind in
            switch kind {
            case .application: return Array(selection.applicationTokens).map(\.data)
            case .category: return Array(selection.categoryTokens).map(\.data)
            case .webDomain: return Array(selection.webDomainTokens).map(\.data)
            }
        })
        let failure = try #require(expectCaught(ReferenceProperties.selectionStableOrder(broken)))
        #expect(failure.shrinkImprovements > 0)
    }

    @Test func descendingDisplayOrderShrinksToTwoTokens() throws {
        // The comparator flipped: any kind with two tokens is out of order, so the minimal counterexample is a
        // selection of exactly two tokens (of one kind), whatever the first failing case held.
        let broken = SelectionSubject(order: { selection, kind in
            selection.orderedTokenData(of: kind).sorted { $1.utf8.lexicographicallyPrecedes($0.utf8) }
        })
        let failure = try #require(expectCaught(ReferenceProperties.selectionStableOrder(broken)))
        let selection = try #require(failure.counterexample.split(separator: "\n").first)
        #expect(Self.tokenCount(in: String(selection)) == 2, "\(failure.counterexample)")
        #expect(Self.tokenCount(in: String(failure.original.split(separator: "\n")[0])) >= 2)
        // The simplest of them: the first two universe tokens, in the last kind drawn (an earlier kind's "one
        // more?" would come first in the choices).
        #expect(selection == "selection {apps []; cats []; webs [web0, web1]; entire false}", "\(selection)")
    }

    /// The tokens a `SelectionDescription` line lists: `selection {apps [app0, app1]; cats []; …}` holds two.
    static func tokenCount(in line: String) -> Int {
        line.split(separator: ";").filter { part in
            ["apps [", "cats [", "webs ["].contains { part.contains($0) }
        }.map { part -> Int in
            guard let open = part.firstIndex(of: "["), let close = part.lastIndex(of: "]") else { return 0 }
            let inside = part[part.index(after: open)..<close]
            return inside.isEmpty ? 0 : inside.split(separator: ",").count
        }.reduce(0, +)
    }

    @Test func includeEntireCategoryAndRuleIsCaught() throws {
        let broken = SelectionSubject(combine: { a, b, op in
            var r = a.combined(with: b, op)
            r.includeEntireCategory = a.includeEntireCategory && b.includeEntireCategory
            return r
        })
        let failure = try #require(expectCaught(ReferenceProperties.selectionAlgebraIncludeEntireCategory(broken)))
        // Minimal: one operand with includeEntireCategory and no categories is enough.
        #expect(failure.counterexample.contains("entire false"), "\(failure.counterexample)")
    }

    @Test func lowerCaseHexIsCaught() throws {
        let broken = URLSubject(encode: { text in
            text.utf8.map {
                PercentEncoding.isUnreserved($0)
                    ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16).uppercased().lowercased().leftPad
            }.joined()
        })
        let failure = try #require(expectCaught(ReferenceProperties.urlUppercaseHex(broken)))
        // Shrunk to a one- or two-scalar name (quoted in the description), such as "é" written e + U+0301.
        #expect(failure.counterexample.unicodeScalars.count <= 4, "\(failure.counterexample)")
    }

    @Test func alphanumericsEncoderIsCaught() throws {
        // CharacterSet.alphanumerics-style: any letter or digit passes through unencoded.
        let broken = URLSubject(encode: { text in
            text.unicodeScalars.map { s in
                s.properties.isAlphabetic || ("0"..."9").contains(s)
                    ? String(s) : PercentEncoding.encodeComponent(String(s))
            }.joined()
        })
        let failure = try #require(expectCaught(ReferenceProperties.urlOutputAlphabet(broken)))
        #expect(failure.counterexample.unicodeScalars.count <= 3, "\(failure.counterexample)")
    }

    @Test func lifecycleThatClearsOnNotDeterminedIsCaught() throws {
        let failure = try #require(
            expectCaught(ReferenceProperties.lifecycleNotDeterminedNeverClears { ClearsOnNotDetermined() }))
        // Shrunk to the single transient read.
        #expect(failure.counterexample == "1. notDetermined", "\(failure.counterexample)")
    }

    @Test func lifecycleThatRestoresOldShieldsIsCaught() throws {
        let failure = try #require(
            expectCaught(ReferenceProperties.lifecycleNoPreRevocationTokenReapplied { RestoresOnReapproval() }))
        #expect(failure.counterexample.components(separatedBy: "\n").count <= 3, "\(failure.counterexample)")
        #expect(failure.message.contains("minted before a revocation"))
    }

    @Test func revivingTokensAreCaughtStatefully() throws {
        let failure = try #require(expectCaught(ReferenceProperties.authVoiding { RevivingGrantSystem() }))
        // request, pick, revoke, request: the token of the first grant is valid again.
        #expect(failure.counterexample.components(separatedBy: "\n").count == 4, "\(failure.counterexample)")
    }

    @Test func appReasonOverCategoryReasonIsCaught() throws {
        let broken = ShieldSubject(evaluate: { stores, activity in
            let listed = stores.contains { s in
                switch activity {
                case .application(let t, _): return s.applications?.contains(t) == true
                case .webDomain(let t, _): return s.webDomains?.contains(t) == true
                }
            }
            if listed { return .success(.shielded(activity.isApplication ? .application : .webDomain)) }
            return ShieldSubject.referenceEvaluate(stores, activity)
        })
        let failure = try #require(expectCaught(ReferenceProperties.shieldCategoryPrecedence(broken)))
        #expect(failure.counterexample.components(separatedBy: "\n").count == 2, "one store: \(failure.counterexample)")
    }

    @Test func exceptOverridingAListedAppIsCaught() throws {
        let broken = ShieldSubject(evaluate: { stores, activity in
            let exempt = stores.contains { s in
                if case .application(let t, _) = activity {
                    return s.applicationCategories?.exceptions.contains(t) == true
                }
                if case .webDomain(let t, _) = activity { return s.webDomainCategories?.exceptions.contains(t) == true }
                return false
            }
            return exempt ? .success(.allowed) : ShieldSubject.referenceEvaluate(stores, activity)
        })
        _ = try #require(expectCaught(ReferenceProperties.shieldListedBeatsExcept(broken)))
    }

    @Test func templateThatPrintsTheKeyIsCaught() throws {
        let broken = TemplateSubject(render: { template, values in
            var filled = values
            for key in ShieldTextTemplate(template).keys where (values[key] ?? nil)?.isEmpty ?? true {
                filled[key] = key
            }
            let r = ShieldTextTemplate(template).render(filled)
            return .init(text: r.text, missing: [])
        })
        let failure = try #require(expectCaught(ReferenceProperties.templateNoLeak(broken)))
        #expect(failure.counterexample.hasPrefix("template \"{Kapp}\""), "\(failure.counterexample)")
    }

    @Test func templateThatRescansValuesIsCaught() throws {
        let broken = TemplateSubject(render: { template, values in
            let once = ShieldTextTemplate(template).render(values)
            return .init(text: ShieldTextTemplate(once.text).render(values).text, missing: once.missing)
        })
        _ = try #require(expectCaught(ReferenceProperties.templateNoRescan(broken)))
    }
}

extension ShieldActivity {
    var isApplication: Bool { if case .application = self { return true } else { return false } }
}

extension String {
    var leftPad: String { count < 2 ? "0" + self : self }
}
