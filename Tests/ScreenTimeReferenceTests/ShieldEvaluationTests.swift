import Testing

@testable import ScreenTimeReference

/// SPEC §2: the rules of one and several stores.
@Suite struct ShieldEvaluationTests {
    let mail = app("mail"), chat = app("chat"), feed = app("feed")
    let social = cat("social"), work = cat("work")
    let news = web("news"), docs = web("docs")

    // MARK: Category shield

    @Test func specificShieldsOnlyItsCategories() throws {
        let store = ShieldSettings(applicationCategories: .specific([social]))
        #expect(try verdict(.application(feed, category: social), [store]) == .shielded(.applicationCategory(social)))
        #expect(try verdict(.application(mail, category: work), [store]) == .allowed)
    }

    @Test func specificExceptExemptsListedTokens() throws {
        let store = ShieldSettings(applicationCategories: .specific([social], except: [chat]))
        #expect(try verdict(.application(chat, category: social), [store]) == .allowed)
        #expect(try verdict(.application(feed, category: social), [store]) == .shielded(.applicationCategory(social)))
    }

    @Test func allShieldsEverythingButExcept() throws {
        let store = ShieldSettings(applicationCategories: .all(except: [mail]))
        #expect(try verdict(.application(feed, category: social), [store]) == .shielded(.applicationCategory(social)))
        #expect(try verdict(.application(chat, category: work), [store]) == .shielded(.applicationCategory(work)))
        #expect(try verdict(.application(mail, category: work), [store]) == .allowed)
    }

    @Test func allWithoutExceptUsesIOSDefault() throws {
        let store = ShieldSettings(applicationCategories: .all())
        #expect(try verdict(.application(mail, category: work), [store]) == .shielded(.applicationCategory(work)))
    }

    @Test func noneAndNilShieldNothing() throws {
        for policy: ShieldSettings.ActivityCategoryPolicy<Application>? in [
            nil, ShieldSettings.ActivityCategoryPolicy<Application>.none,
        ] {
            let store = ShieldSettings(applicationCategories: policy)
            #expect(try verdict(.application(feed, category: social), [store]) == .allowed)
        }
        #expect(try verdict(.application(feed, category: social), []) == .allowed)
    }

    // MARK: Application shield and except

    @Test func applicationsShieldListedTokens() throws {
        let store = ShieldSettings(applications: [mail])
        #expect(try verdict(.application(mail, category: work), [store]) == .shielded(.application))
        #expect(try verdict(.application(chat, category: work), [store]) == .allowed)
    }

    @Test func exceptDoesNotExemptAnExplicitlyListedApplication() throws {
        // Field bug 5: `except` treated as overriding an explicitly listed application.
        let store = ShieldSettings(applications: [chat], applicationCategories: .specific([social], except: [chat]))
        #expect(try verdict(.application(chat, category: social), [store]) == .shielded(.application))
        let all = ShieldSettings(applications: [chat], applicationCategories: .all(except: [chat]))
        #expect(try verdict(.application(chat, category: social), [all]) == .shielded(.application))
    }

    // MARK: Precedence

    @Test func categoryReasonWinsOverApplicationReason() throws {
        // Field bug 5: app shield reported over a category shield.
        let store = ShieldSettings(applications: [feed], applicationCategories: .specific([social]))
        let v = try verdict(.application(feed, category: social), [store])
        #expect(v == .shielded(.applicationCategory(social)))
        #expect(v.configurationCallback == .applicationInCategory)
        #expect(v.configurationCallback?.selector == "configuration(shielding:in:)")
    }

    @Test func configurationCallbackFollowsTheReason() throws {
        #expect(ShieldReason.application.configurationCallback.selector == "configuration(shielding:)")
        #expect(ShieldReason.webDomain.configurationCallback == .webDomain)
        #expect(ShieldReason.webDomainCategory(social).configurationCallback.selector == "configuration(shielding:in:)")
        #expect(ShieldVerdict.allowed.configurationCallback == nil)
        let v = try verdict(.application(mail, category: work), [ShieldSettings(applications: [mail])])
        #expect(v.configurationCallback == .application)
    }

    // MARK: Web domains

    @Test func webDomainsFollowTheSameRules() throws {
        let store = ShieldSettings(webDomains: [news, docs], webDomainCategories: .specific([social], except: [docs]))
        #expect(try verdict(.webDomain(news, category: social), [store]) == .shielded(.webDomainCategory(social)))
        #expect(try verdict(.webDomain(docs, category: social), [store]) == .shielded(.webDomain))
        #expect(try verdict(.webDomain(news, category: work), [store]) == .shielded(.webDomain))
        #expect(try verdict(.webDomain(web("other"), category: work), [store]) == .allowed)
        let all = ShieldSettings(webDomainCategories: .all(except: [docs]))
        #expect(try verdict(.webDomain(docs, category: work), [all]) == .allowed)
        #expect(try verdict(.webDomain(news, category: work), [all]) == .shielded(.webDomainCategory(work)))
    }

    @Test func kindsNeverMix() throws {
        // Same bytes, other kind: an app token "x" and a web token "x" are different tokens.
        let sameBytesApp = ApplicationToken(bytes: Array("x".utf8))
        let sameBytesWeb = WebDomainToken(bytes: Array("x".utf8))
        let appOnly = ShieldSettings(applications: [sameBytesApp], applicationCategories: .all())
        #expect(try verdict(.webDomain(sameBytesWeb, category: social), [appOnly]) == .allowed)
        let webOnly = ShieldSettings(webDomains: [sameBytesWeb], webDomainCategories: .all())
        #expect(try verdict(.application(sameBytesApp, category: social), [webOnly]) == .allowed)
    }

    // MARK: Several stores

    @Test func anyStoreShields() throws {
        let a = ShieldSettings(applications: [mail])
        let b = ShieldSettings(applications: [chat])
        #expect(try verdict(.application(mail, category: work), [a, b]) == .shielded(.application))
        #expect(try verdict(.application(chat, category: work), [a, b]) == .shielded(.application))
        #expect(try verdict(.application(feed, category: work), [a, b]) == .allowed)
    }

    @Test func categoryReasonIfAnyStoreShieldsByCategory() throws {
        let byApp = ShieldSettings(applications: [feed])
        let byCategory = ShieldSettings(applicationCategories: .specific([social]))
        #expect(
            try verdict(.application(feed, category: social), [byApp, byCategory])
                == .shielded(.applicationCategory(social)))
        #expect(
            try verdict(.application(feed, category: social), [byCategory, byApp])
                == .shielded(.applicationCategory(social)))
    }

    @Test func oneStoresExceptDoesNotExemptFromAnotherStore() throws {
        let exempting = ShieldSettings(applicationCategories: .all(except: [chat]))
        let blocking = ShieldSettings(applicationCategories: .specific([social]))
        #expect(
            try verdict(.application(chat, category: social), [exempting, blocking])
                == .shielded(.applicationCategory(social)))
        #expect(try verdict(.application(chat, category: work), [exempting, blocking]) == .allowed)
    }

    @Test func storeMatchReportsPerStoreCoverage() {
        #expect(ShieldSettings(applications: [mail]).match(.application(mail, category: work)) == .token)
        #expect(ShieldSettings(applicationCategories: .all()).match(.application(mail, category: work)) == .category)
        #expect(ShieldSettings().match(.application(mail, category: work)) == .nothing)
    }

    @Test func voidTokensInSettingsMatchNothing() throws {
        let isVoid: (TokenIdentity) -> Bool = {
            $0 == TokenIdentity(mail) || $0 == TokenIdentity(social) || $0 == TokenIdentity(chat)
        }
        let store = ShieldSettings(applications: [mail], applicationCategories: .specific([social]))
        #expect(try store.evaluate(.application(mail, category: work), isVoid: isVoid) == .allowed)
        #expect(try store.evaluate(.application(feed, category: social), isVoid: isVoid) == .allowed)
        // A void exception exempts nothing.
        let all = ShieldSettings(applicationCategories: .all(except: [chat]))
        #expect(
            try all.evaluate(.application(chat, category: work), isVoid: isVoid)
                == .shielded(.applicationCategory(work)))
    }

    @Test func shieldActionResponsesAreTheThreeOfIOS() {
        #expect(ShieldActionResponse.allCases.map(\.rawValue) == ["close", "defer", "none"])
    }

    @Test func tokenFromUTF8IsTheTokenOfTheBytes() {
        // Token(utf8Of:) encodes from the string's storage; it must be exactly Token(bytes: Array(text.utf8)).
        var texts = [
            "", "a", "app:mail", "cat:soziale Netzwerke ✓", "web:a/b", "日本語", "e\u{301}", "15 bytes exact!",
            "16 bytes exactly", String(repeating: "x", count: 1025), String(repeating: "é", count: 77),
        ]
        texts.append(String("prefix app:slice".dropFirst(7)))  // from a Substring
        texts.append(String(String.UnicodeScalarView("scalars ✓".unicodeScalars)))
        for n in 0..<40 { texts.append(String(repeating: "ab\u{1F600}", count: n)) }
        for text in texts {
            let a = ApplicationToken(utf8Of: text)
            #expect(a == ApplicationToken(bytes: Array(text.utf8)), "\(text)")
            #expect(a.bytes == Array(text.utf8))
            #expect(ActivityCategoryToken(utf8Of: text).data == a.data)
        }
    }
}
