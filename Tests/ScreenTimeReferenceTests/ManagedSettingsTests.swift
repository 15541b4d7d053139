import Testing

@testable import ScreenTimeReference

/// The settings groups beyond the shield (SPEC.md §9): domain names and URL hosts, each policy's say, how stores
/// combine, limits and the order of checks, `clearAllSettings()` and revocation clearing every group.
@Suite struct ManagedSettingsTests {
    func domain(_ name: String) -> WebDomain { WebDomain(domain: name) }

    func environment(_ body: (ScreenTimeEnvironment) -> Void) -> ScreenTimeEnvironment {
        let environment = ScreenTimeEnvironment()
        body(environment)
        return environment
    }

    func store(_ name: String?, _ environment: ScreenTimeEnvironment) -> ManagedSettingsStore {
        name.map { ManagedSettingsStore(named: .init($0), environment: environment) }
            ?? ManagedSettingsStore(environment: environment)
    }

    // MARK: §9.3 domain names and hosts

    @Test(arguments: [
        ("example.com", "example.com"), ("WWW.Example.COM", "www.example.com"), ("example.com.", "example.com"),
        ("a-b.c0", "a-b.c0"), ("1.2.3.4", "1.2.3.4"),
        (String(repeating: "a", count: 63) + ".x", String(repeating: "a", count: 63) + ".x"),
    ])
    func validNames(_ text: String, _ normalized: String) {
        #expect(DomainName(text)?.text == normalized)
        #expect(DomainName(normalized)?.text == normalized)
    }

    @Test(arguments: [
        "", ".", "example.com..", ".example.com", "a..b", "-a.com", "a-.com", "a_b.com", "exa mple.com", "bücher.de",
        "https://example.com", "example.com/", "example.com:80", String(repeating: "a", count: 64) + ".x",
        Array(repeating: "abcdefghi", count: 26).joined(separator: "."),
    ])
    func invalidNames(_ text: String) {
        #expect(DomainName(text) == nil, "\(text)")
    }

    @Test func aNameCoversItselfAndItsSubdomainsOnly() throws {
        let policy = try #require(DomainName("example.com"))
        for host in ["example.com", "www.example.com", "a.b.example.com"] {
            #expect(policy.covers(try #require(DomainName(host))), "\(host)")
        }
        for host in ["notexample.com", "example.com.au", "com", "xexample.com"] {
            #expect(!policy.covers(try #require(DomainName(host))), "\(host)")
        }
        let www = try #require(DomainName("www.example.com"))
        #expect(!www.covers(try #require(DomainName("example.com"))))
        #expect(!www.covers(try #require(DomainName("mail.example.com"))))
    }

    @Test(arguments: [
        ("https://example.com", "example.com"), ("HTTP://Example.com/path?q#f", "example.com"),
        ("https://user:pass@host.example:8443/", "host.example"), ("https://a@b@c.example", "c.example"),
        ("http://example.com:", "example.com"), ("https://example.com.?x", "example.com"),
        ("https://example.com#frag", "example.com"),
    ])
    func hosts(_ url: String, _ host: String) {
        #expect(DomainName.host(ofURL: url)?.text == host)
    }

    @Test(arguments: [
        "ftp://example.com", "example.com", "https:/example.com", "https://", "https:///path", "http://[::1]/",
        "https://example.com:80a", "https://exa mple.com", "https://@", "httpx://example.com",
    ])
    func noHost(_ url: String) {
        #expect(DomainName.host(ofURL: url) == nil, "\(url)")
    }

    // MARK: §9.3 each policy's say, over stores

    @Test func eachPolicysSay() throws {
        let host = try #require(DomainName("www.casino.example"))
        let casino: Set<WebDomain> = [domain("casino.example")]
        typealias Policy = WebContentSettings.FilterPolicy
        let cases: [(Policy?, SettingsVerdict?)] = [
            (nil, nil), (Policy.none, nil), (.specific(casino), .blocked), (.specific([domain("other.example")]), nil),
            (.all(), .blocked), (.all(except: casino), nil), (.auto(), .dependsOnSystemFilter),
            (.auto(casino), .blocked),
            (.auto(casino, except: casino), nil), (.auto(except: [domain("www.casino.example")]), nil),
            (.specific([WebDomain(token: web("casino"))]), nil),
        ]
        for (policy, say) in cases {
            #expect(SettingsEvaluation.say(of: policy, over: host) == say, "\(String(describing: policy))")
        }
    }

    @Test func theMostRestrictiveStoreWinsForAURL() throws {
        let environment = environment { environment in
            store(nil, environment).webContent.blockedByFilter = .auto()
            store("school", environment).webContent.blockedByFilter = .all(except: [domain("school.edu")])
            store("typed", environment).webContent.blockedByFilter = .specific([domain("Games.Example")])
        }
        #expect(
            try environment.evaluate(.url("https://play.games.example"))
                == SettingsAnswer(verdict: .blocked, stores: [.named(.init("school")), .named(.init("typed"))]))
        #expect(
            try environment.evaluate(.url("https://school.edu"))
                == SettingsAnswer(verdict: .dependsOnSystemFilter, stores: [.unnamed]))
        #expect(
            try environment.evaluate(.privateBrowsing)
                == SettingsAnswer(
                    verdict: .denied, stores: [.unnamed, .named(.init("school")), .named(.init("typed"))]))
        #expect(throws: ManagedSettingsError(.invalidURL, detail: "ftp://school.edu")) {
            try environment.evaluate(.url("ftp://school.edu"))
        }
    }

    @Test func noneAndNotSetDifferOnlyInWhatTheStoreHolds() throws {
        let none = environment { store("a", $0).webContent.blockedByFilter = WebContentSettings.FilterPolicy.none }
        let unset = ScreenTimeEnvironment()
        for query in [SettingsQuery.privateBrowsing, .url("https://example.com")] {
            #expect(try none.evaluate(query) == unset.evaluate(query))
        }
        #expect(none.settingsByStore.count == 1 && unset.settingsByStore.isEmpty)
    }

    // MARK: §9.2 launches, removals, installs

    @Test func hiddenWinsOverEveryShield() throws {
        let environment = environment { environment in
            store(nil, environment).shield.applicationCategories = .all()
            store("hide", environment).application.blockedApplications = [Application(token: app("game"))]
            store("bundle", environment).application.blockedApplications = [
                Application(bundleIdentifier: "com.example.Mail"), Application(localizedDisplayName: "Notes"),
            ]
        }
        #expect(
            try environment.canLaunch(app("game"), category: cat("games"))
                == SettingsAnswer(verdict: .hidden, stores: [.named(.init("hide"))]))
        #expect(
            try environment.canLaunch(app("mail"), bundleIdentifier: "com.example.Mail", category: cat("x")).verdict
                == .hidden)
        #expect(
            try environment.canLaunch(app("mail"), bundleIdentifier: "com.example.mail", category: cat("x"))
                == SettingsAnswer(verdict: .shielded(.applicationCategory(cat("x"))), stores: [.unnamed]))
        #expect(
            try environment.canLaunch(app("notes"), category: cat("x")).verdict
                == .shielded(.applicationCategory(cat("x"))))
    }

    @Test func aVoidTokenHidesNothing() async throws {
        let environment = ScreenTimeEnvironment()
        let simulator = environment.simulator
        try await AuthorizationCenter(environment: environment).requestAuthorization(for: .individual)
        let token = try #require(simulator.mint(Application.self))
        store(nil, environment).application.blockedApplications = [Application(token: token)]
        #expect(try environment.canLaunch(token, category: cat("x")).verdict == .hidden)
        environment.simulator.revokeInSettings()
        // Revocation clears every group, and a token minted before it would hide nothing anyway.
        #expect(environment.settingsByStore.isEmpty)
        store(nil, environment).application.blockedApplications = [Application(token: token)]
        #expect(try environment.canLaunch(token, category: cat("x")).verdict == .allowed)
    }

    @Test func aFalseNeverLiftsAnotherStoresTrue() throws {
        let environment = environment { environment in
            store(nil, environment).application.denyAppRemoval = false
            store("strict", environment).application.denyAppRemoval = true
            store("strict", environment).appStore.maximumRating = 600
            store("kids", environment).appStore.maximumRating = 200
            store("kids", environment).application.denyAppInstallation = false
        }
        #expect(
            try environment.evaluate(.removal) == SettingsAnswer(verdict: .denied, stores: [.named(.init("strict"))]))
        #expect(try environment.evaluate(.installation) == SettingsAnswer(verdict: .allowed))
        #expect(
            try environment.evaluate(.setting(.maximumRating))
                == SettingsAnswer(verdict: .value(.integer(200)), stores: [.named(.init("kids"))]))
        #expect(
            try environment.evaluate(.setting(.denyAppInstallation))
                == SettingsAnswer(verdict: .value(.bool(false)), stores: [.named(.init("kids"))]))
        #expect(try environment.evaluate(.setting(.denySiri)) == SettingsAnswer(verdict: .value(nil)))
    }

    // MARK: §9.1 limits, §9.5 order

    @Test func limitsAtFiftyAndFiftyOne() throws {
        let fifty = Set((0..<50).map { Application(token: app("\($0)")) })
        let ok = environment { store(nil, $0).application.blockedApplications = fifty }
        #expect(try ok.evaluate(.removal).verdict == .allowed)
        let over = environment {
            store(nil, $0).application.blockedApplications = fifty.union([Application(bundleIdentifier: "x")])
        }
        #expect(throws: ManagedSettingsError.self) { try over.evaluate(.removal) }
        let domains = Set((0..<51).map { domain("d\($0).example") })
        for policy in [
            WebContentSettings.FilterPolicy.specific(domains), .all(except: domains), .auto(domains),
            .auto(except: domains),
        ] {
            let environment = environment { store("web", $0).webContent.blockedByFilter = policy }
            let error = try #require(throws: ManagedSettingsError.self) { try environment.evaluate(.installation) }
            #expect(error.code == .limitExceeded && error.store == .named(.init("web")))
        }
    }

    @Test func limitsComeBeforeInvalidDomainsWhichComeBeforeTheQuery() throws {
        let environment = environment { environment in
            store("a", environment).webContent.blockedByFilter = .specific([domain("not a domain")])
        }
        let invalid = try #require(throws: ManagedSettingsError.self) { try environment.evaluate(.url("bad")) }
        #expect(invalid.code == .invalidWebDomain)
        store("b", environment).shield.applications = Set((0..<51).map { app("\($0)") })
        let limit = try #require(throws: ManagedSettingsError.self) { try environment.evaluate(.url("bad")) }
        #expect(limit.code == .limitExceeded && limit.store == .named(.init("b")))
    }

    // MARK: §9.1 clearAllSettings, names

    @Test func clearAllSettingsClearsEveryGroupOfItsStoreOnly() throws {
        let environment = ScreenTimeEnvironment()
        let focus = store("focus", environment)
        focus.shield.applications = [app("game")]
        focus.webContent.blockedByFilter = .auto()
        focus.application.denyAppRemoval = true
        focus.application.blockedApplications = [Application(bundleIdentifier: "b")]
        focus.dateAndTime.requireAutomaticDateAndTime = true
        focus.siri.denySiri = true
        store("other", environment).passcode.lockPasscode = true
        // A store of the same name is the same store.
        store("focus", environment).clearAllSettings()
        #expect(focus.shield.isUnset && focus.webContent.isUnset && focus.application.isUnset)
        #expect(focus.dateAndTime.requireAutomaticDateAndTime == nil && focus.siri.denySiri == nil)
        #expect(environment.settingsByStore.map(\.store) == [.named(.init("other"))])
        #expect(try environment.evaluate(.removal).verdict == .allowed)
        #expect(try environment.evaluate(.setting(.lockPasscode)).verdict == .value(.bool(true)))
    }

    @Test func everyRestrictionReadsAndWritesItsOwnMember() {
        for restriction in Restriction.allCases {
            var groups = ManagedSettingsGroups()
            let value: RestrictionValue = restriction.isInteger ? .integer(7) : .bool(true)
            groups[restriction] = value
            #expect(groups[restriction] == value)
            for other in Restriction.allCases where other != restriction { #expect(groups[other] == nil) }
            groups[restriction] = restriction.isInteger ? .bool(true) : .integer(1)  // the other kind is ignored
            #expect(groups[restriction] == value)
            groups[restriction] = nil
            #expect(groups.isUnset)
        }
    }
}
