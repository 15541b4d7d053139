import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference

/// The seed files of the `shield`, `auth` and `settings` corpora, each a byte string the generators map to a
/// named, interesting case. `corpus/shield/NAME`, `corpus/auth/NAME` and `corpus/settings/NAME` hold exactly these
/// bytes; a test checks that
/// each file still decodes to a case with its property (so a generator change that breaks the seeds shows).
public enum StructuredSeeds {
    /// Shield seeds: what the scenario read from the bytes (through `Gen.shieldScenario()`) must show.
    public static let shield: [(name: String, holds: @Sendable (ShieldScenario) -> Bool)] = [
        (
            "listed-app-in-shielded-category",
            { s in
                guard case .application(let t, _) = s.activity else { return false }
                return s.stores.contains {
                    ($0.applications ?? []).contains(t) && ShieldModel.match($0, s.activity) == .category
                }
            }
        ),
        (
            "listed-and-exempt",
            { s in
                guard case .application(let t, _) = s.activity else { return false }
                return s.stores.contains {
                    ($0.applications ?? []).contains(t) && ($0.applicationCategories?.exceptions ?? []).contains(t)
                }
            }
        ),
        (
            "except-exempts-from-all",
            { s in
                guard case .webDomain(let t, _) = s.activity else { return false }
                return s.stores.contains {
                    if case .all(let e)? = $0.webDomainCategories { return e.contains(t) } else { return false }
                }
                    && ShieldModel.verdict(s.stores, s.activity) == .allowed
            }
        ),
        (
            "web-domain-category-specific",
            { s in
                guard case .webDomain(_, let c) = s.activity else { return false }
                return ShieldModel.verdict(s.stores, s.activity) == .shielded(.webDomainCategory(c))
                    && s.stores.contains {
                        if case .specific? = $0.webDomainCategories { return true } else { return false }
                    }
            }
        ),
        (
            "two-stores-token-and-category",
            { s in
                let matches = s.stores.map { ShieldModel.match($0, s.activity) }
                return matches.contains(.token) && matches.contains(.category)
            }
        ),
        (
            "empty-sets-and-none",
            { s in
                s.stores.contains {
                    $0.applications == [] && $0.webDomains == []
                        && $0.applicationCategories == ShieldSettings.ActivityCategoryPolicy<Application>.none
                }
                    || s.stores.contains {
                        $0.applications == []
                            && $0.applicationCategories == ShieldSettings.ActivityCategoryPolicy<Application>.none
                    }
            }
        ),
    ]

    /// Finds, by a deterministic search over random-mode seeds, the shortest bytes (among the first matches) whose
    /// scenario has the named property.
    public static func searchShieldSeed(_ holds: (ShieldScenario) -> Bool, attempts: Int = 50_000) -> [UInt8]? {
        searchSeed(Gen<ShieldScenario>.shieldScenario(), holds, attempts: attempts)
    }

    /// The shortest bytes, among the first 20 random-mode seeds whose value has the property, that replay to such a
    /// value in byte mode.
    static func searchSeed<Value>(_ gen: Gen<Value>, _ holds: (Value) -> Bool, attempts: Int) -> [UInt8]? {
        var best: [UInt8]?
        var found = 0
        for seed in 0..<UInt64(attempts) {
            let source = ChoiceSource(seed: seed)
            let value = gen.generate(using: source)
            guard !source.isInvalid, holds(value) else { continue }
            let bytes = ChoiceSequence(choices: source.choices, maxima: source.maxima).bytes
            if holds(gen.generate(from: bytes)), best.map({ bytes.count < $0.count }) ?? true { best = bytes }
            found += 1
            if found >= 20 { break }
        }
        return best
    }

    /// Auth seeds: `auth.voiding` programs, written as the choices the program generator reads (each command is
    /// a "one more" byte 1 and the command's index: 0 approve, 1 pick, 2 revoke in Settings, 3 decline,
    /// 4 revokeAuthorization(), then shield #i = 5 + 2i, launch #i = 6 + 2i).
    public static let auth: [(name: String, bytes: [UInt8], program: String)] = [
        (
            "revival-attempt", [1, 0, 1, 1, 1, 5, 1, 2, 1, 0, 1, 6],
            "request (user approves), pick an app, shield token #0, revoke in Settings, request (user approves), launch app of token #0"
        ),
        (
            "decline-then-approve", [1, 3, 1, 0, 1, 1, 1, 6],
            "request (user declines), request (user approves), pick an app, launch app of token #0"
        ),
        (
            "revoke-while-denied", [1, 3, 1, 2, 1, 4, 1, 0],
            "request (user declines), revoke in Settings, revokeAuthorization(), request (user approves)"
        ),
        (
            "pick-without-grant", [1, 1, 1, 1, 1, 0, 1, 1],
            "pick an app, pick an app, request (user approves), pick an app"
        ),
        (
            "shield-then-revoke-via-app", [1, 0, 1, 1, 1, 5, 1, 6, 1, 4, 1, 6],
            "request (user approves), pick an app, shield token #0, launch app of token #0, revokeAuthorization(), launch app of token #0"
        ),
        (
            "two-grants-two-tokens", [1, 0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 7, 1, 8, 1, 6],
            "request (user approves), pick an app, revoke in Settings, request (user approves), pick an app, shield token #1, launch app of token #1, launch app of token #0"
        ),
    ]

    /// Settings seeds: what the scenario read from the bytes (through `Gen.settingsScenario()`) must show, by the
    /// reference's answer to it.
    package static let settings: [(name: String, holds: @Sendable (SettingsScenario) -> Bool)] = [
        ("hidden-over-shielded", { s in verdict(s) == .hidden && hasShield(s) }),
        (
            "clear-all-after-strict-mode",
            { s in
                s.steps.contains { $0.change == .restriction(.denyAppRemoval, .bool(true)) }
                    && s.steps.contains { $0.change == .clearAllSettings } && s.query == .removal
            }
        ),
        (
            "url-blocked-by-subdomain",
            { s in
                guard case .url(let url) = s.query, verdict(s) == .blocked, let host = DomainName.host(ofURL: url)
                else {
                    return false
                }
                return !s.steps.contains { step in
                    if case .filter(let policy?) = step.change {
                        return policy.domains.contains { $0.domain == host.text }
                    }
                    return false
                }
            }
        ),
        ("depends-on-system-filter", { s in verdict(s) == .dependsOnSystemFilter }),
        (
            "fifty-one-blocked-applications",
            { s in
                error(s) == .limitExceeded
                    && s.steps.contains { step in
                        if case .blockedApplications(let apps?) = step.change { return apps.count > 50 }
                        return false
                    }
            }
        ),
        ("invalid-web-domain", { s in error(s) == .invalidWebDomain }),
        ("invalid-url", { s in error(s) == .invalidURL }),
        ("private-browsing-denied", { s in s.query == .privateBrowsing && verdict(s) == .denied }),
        (
            "restriction-over-two-stores",
            { s in
                guard case .setting(let restriction) = s.query, case .value(_?)? = verdict(s) else { return false }
                let setting = s.steps.filter {
                    if case .restriction(restriction, _?) = $0.change { return true }
                    return false
                }
                return Set(setting.map(\.store)).count >= 2
            }
        ),
    ]

    static func verdict(_ s: SettingsScenario) -> SettingsVerdict? {
        try? SettingsSubject.reference.answer(s).get().verdict
    }

    static func error(_ s: SettingsScenario) -> ManagedSettingsError.Code? {
        if case .failure(let error) = SettingsSubject.reference.answer(s) { return error.code }
        return nil
    }

    static func hasShield(_ s: SettingsScenario) -> Bool {
        s.steps.contains {
            if case .shieldApplications(let t?) = $0.change { return !t.isEmpty }
            if case .shieldApplicationCategories(let p?) = $0.change { return p != .none }
            return false
        }
    }

    /// Finds, by a deterministic search over random-mode seeds, the shortest bytes (among the first matches) whose
    /// settings scenario has the named property.
    package static func searchSettingsSeed(_ holds: (SettingsScenario) -> Bool, attempts: Int = 50_000) -> [UInt8]? {
        searchSeed(Gen<SettingsScenario>.settingsScenario(), holds, attempts: attempts)
    }
}
