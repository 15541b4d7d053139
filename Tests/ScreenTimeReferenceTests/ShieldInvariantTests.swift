import PropertyTesting
import Testing

@testable import ScreenTimeReference

/// SPEC §2 "Invariants", checked over an exhaustive small space (one store) and random store lists.
@Suite struct ShieldInvariantTests {
    static let apps = [app("a"), app("b")]
    static let cats = [cat("p"), cat("q")]
    static let webs = [web("a"), web("b")]

    static func subsets<T: Hashable>(_ items: [T]) -> [Set<T>] {
        (0..<(1 << items.count)).map { mask in Set(items.indices.filter { mask & (1 << $0) != 0 }.map { items[$0] }) }
    }

    static func optionalSets<T: Hashable>(_ items: [T]) -> [Set<T>?] { [nil] + subsets(items).map { Optional($0) } }

    static func policies<M: TokenKind>(_ members: [Token<M>]) -> [ShieldSettings.ActivityCategoryPolicy<M>?] {
        var result: [ShieldSettings.ActivityCategoryPolicy<M>?] = [nil, ShieldSettings.ActivityCategoryPolicy<M>.none]
        for except in subsets(members) {
            result.append(.all(except: except))
            for categories in subsets(cats) { result.append(.specific(categories, except: except)) }
        }
        return result
    }

    /// Every single-store application setting over 2 apps and 2 categories (5 × 22 = 110 settings).
    static let appSettings: [ShieldSettings] = optionalSets(apps).flatMap { applications in
        policies(apps).map { ShieldSettings(applications: applications, applicationCategories: $0) }
    }
    static let appActivities: [ShieldActivity] = apps.flatMap { a in cats.map { .application(a, category: $0) } }
    static let webActivities: [ShieldActivity] = webs.flatMap { w in cats.map { .webDomain(w, category: $0) } }

    /// Shielding rank: adding a shield may move allowed → token → category, never back.
    static func rank(_ v: ShieldVerdict) -> Int { v.reason.map { $0.isCategoryReason ? 2 : 1 } ?? 0 }

    @Test func addingAnApplicationNeverUnshields() throws {
        for settings in Self.appSettings {
            for added in Self.apps {
                var more = settings
                more.applications = (settings.applications ?? []).union([added])
                for activity in Self.appActivities {
                    let before = try verdict(activity, [settings])
                    let after = try verdict(activity, [more])
                    #expect(Self.rank(after) >= Self.rank(before), "\(settings) + \(added) on \(activity)")
                    if before.reason?.isCategoryReason == true { #expect(after == before) }
                }
            }
        }
    }

    @Test func addingACategoryNeverUnshields() throws {
        for settings in Self.appSettings {
            guard case .specific(let categories, let except) = settings.applicationCategories else { continue }
            for added in Self.cats {
                var more = settings
                more.applicationCategories = .specific(categories.union([added]), except: except)
                for activity in Self.appActivities {
                    let before = try verdict(activity, [settings])
                    let after = try verdict(activity, [more])
                    #expect(Self.rank(after) >= Self.rank(before), "\(settings) + \(added) on \(activity)")
                }
            }
        }
    }

    @Test func addingAnExceptionNeverShields() throws {
        for settings in Self.appSettings {
            for added in Self.apps {
                var more = settings
                switch settings.applicationCategories {
                case .all(let except)?: more.applicationCategories = .all(except: except.union([added]))
                case .specific(let c, let except)?:
                    more.applicationCategories = .specific(c, except: except.union([added]))
                case .none?, nil: continue
                }
                for activity in Self.appActivities {
                    let before = try verdict(activity, [settings])
                    let after = try verdict(activity, [more])
                    #expect(Self.rank(after) <= Self.rank(before), "\(settings) except + \(added) on \(activity)")
                }
            }
        }
    }

    @Test func nilAndEmptyBehaveAlike() throws {
        let empties = [
            ShieldSettings(),
            ShieldSettings(
                applications: [], applicationCategories: .specific([]), webDomains: [],
                webDomainCategories: .specific([], except: [])),
            ShieldSettings(
                applicationCategories: ShieldSettings.ActivityCategoryPolicy<Application>.none,
                webDomainCategories: ShieldSettings.ActivityCategoryPolicy<WebDomain>.none),
        ]
        for settings in Self.appSettings {
            for activity in Self.appActivities + Self.webActivities {
                let alone = try verdict(activity, [settings])
                for empty in empties {
                    #expect(try verdict(activity, [settings, empty]) == alone)
                    #expect(try verdict(activity, [empty]) == .allowed)
                }
            }
        }
    }

    @Test func categoryReasonNamesTheActivitysOwnCategory() throws {
        for settings in Self.appSettings {
            for activity in Self.appActivities {
                if let category = try verdict(activity, [settings]).reason?.category {
                    #expect(category == activity.category)
                }
            }
        }
    }

    @Test func applicationSettingsNeverShieldWebDomainsAndBack() throws {
        // Web activities whose tokens have the very bytes of the app tokens: only the kind differs.
        let sameBytesWeb: [ShieldActivity] = Self.appActivities.compactMap {
            guard case .application(let token, let category) = $0 else { return nil }
            return .webDomain(WebDomainToken(bytes: token.bytes), category: category)
        }
        #expect(sameBytesWeb.count == Self.appActivities.count)
        for settings in Self.appSettings {
            for activity in sameBytesWeb { #expect(try verdict(activity, [settings]) == .allowed) }
            let mirrored = ShieldSettings(
                webDomains: settings.applications.map { Set($0.map { WebDomainToken(bytes: $0.bytes) }) },
                webDomainCategories: settings.applicationCategories.map(Self.mirror))
            for activity in Self.appActivities { #expect(try verdict(activity, [mirrored]) == .allowed) }
            // And web settings judge web activities exactly as app settings judge apps.
            for (a, w) in zip(Self.appActivities, sameBytesWeb) {
                let av = try verdict(a, [settings])
                let wv = try verdict(w, [mirrored])
                #expect(av.reason?.name.replacingPrefix("application", with: "webDomain") == wv.reason?.name)
                #expect(av.reason?.category == wv.reason?.category)
            }
        }
    }

    static func mirror(_ p: ShieldSettings.ActivityCategoryPolicy<Application>)
        -> ShieldSettings.ActivityCategoryPolicy<WebDomain>
    {
        let convert = { (s: Set<ApplicationToken>) in Set(s.map { WebDomainToken(bytes: $0.bytes) }) }
        switch p {
        case .none: return .none
        case .all(let e): return .all(except: convert(e))
        case .specific(let c, let e): return .specific(c, except: convert(e))
        }
    }

    /// Random lists of up to 4 stores: order, duplication and grouping never change a verdict, and the union rule
    /// holds (shielded iff some store alone shields; category iff some store alone shields by category).
    @Test func storeUnionIsOrderFreeAndIdempotent() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<400 {
            let count = Int.random(in: 0...4, using: &rng)
            let stores = (0..<count).map { _ in
                var s = Self.appSettings.randomElement(using: &rng) ?? ShieldSettings()
                s.webDomains = Self.optionalSets(Self.webs).randomElement(using: &rng) ?? nil
                s.webDomainCategories = Self.policies(Self.webs).randomElement(using: &rng) ?? nil
                return s
            }
            for activity in Self.appActivities + Self.webActivities {
                let v = try verdict(activity, stores)
                #expect(try verdict(activity, stores.shuffled(using: &rng)) == v)
                #expect(try verdict(activity, stores.reversed()) == v)
                #expect(try verdict(activity, stores + stores) == v)
                let singles = try stores.map { try verdict(activity, [$0]) }
                #expect(v.isShielded == singles.contains { $0.isShielded })
                #expect(
                    (v.reason?.isCategoryReason ?? false) == singles.contains { $0.reason?.isCategoryReason ?? false })
                if stores.count >= 2 {
                    let split = Int.random(in: 1..<stores.count, using: &rng)
                    let left = try verdict(activity, Array(stores[..<split]))
                    let right = try verdict(activity, Array(stores[split...]))
                    #expect(v.isShielded == (left.isShielded || right.isShielded))
                }
            }
        }
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
