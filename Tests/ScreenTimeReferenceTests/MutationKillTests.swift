import Testing

@testable import ScreenTimeReference

/// Behaviour no other test pinned down, each found by a mutant of `stc mutate` that survived the suite
/// (docs/MUTATION-TESTING.md): the `://` of a deep link, the order of token identities across kinds, empty token
/// data and the token counts of empty shield settings.
@Suite struct ReferenceMutationKillTests {
    @Test func aDeepLinkNeedsBothSlashesAfterTheColon() throws {
        #expect(try DeepLink(parsing: "app://open").host == "open")
        #expect(throws: DeepLinkError.invalidScheme(offset: 3)) { try DeepLink(parsing: "app:x/open") }
        #expect(throws: DeepLinkError.invalidScheme(offset: 3)) { try DeepLink(parsing: "app:/xopen") }
    }

    @Test func identitiesOrderByKindBeforeData() {
        // The data orders the other way round: only the kind decides.
        let a = TokenIdentity(kind: "a", data: "Zm9v")
        let b = TokenIdentity(kind: "b", data: "AAAA")
        #expect(a < b)
        #expect(!(b < a))
    }

    @Test func emptyTokenDataIsRejectedAsEmpty() {
        // "" is canonical base64 (of no bytes): only the emptiness check rejects it.
        #expect(throws: SelectionDecodingError.self) { try Token<Application>(base64Data: "") }
        do {
            _ = try Token<Application>(base64Data: "")
        } catch {
            #expect(error.description.contains("token data is empty"), "\(error)")
        }
    }

    @Test func emptySettingsCountNoTokensInAnySet() {
        let empty = ShieldSettings()
        for set in ShieldSettings.LimitedSet.allCases {
            #expect(empty.tokenCount(in: set) == 0, "\(set)")
        }
    }
}
