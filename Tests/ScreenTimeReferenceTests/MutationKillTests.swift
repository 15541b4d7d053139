import Testing

@testable import ScreenTimeReference

/// Behaviour no other test pinned down, each found by a mutant of `lab mutate` that survived the suite
/// (docs/MUTATION-TESTING.md): the `://` of a deep link, the order of token identities across kinds, empty token
/// data and the token counts of empty shield settings; the order of decoding error codes, the detail naming a
/// token array, and the 8-byte scans of token data and base64 text, which must reject exactly what the
/// byte-by-byte rules reject.
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

    /// The codes order by precedence, the order in which the checks run (SelectionDecodingError.Code.rank):
    /// empty, tooLarge, base64, json, schema, token, each strictly before the next. (Mutant
    /// `Sources/ScreenTimeSelection/SelectionDecodingError.swift:constant:5a9e366f` ties tooLarge with base64.)
    @Test func decodingErrorCodesOrderStrictlyByPrecedence() {
        let order: [SelectionDecodingError.Code] = [.empty, .tooLarge, .base64, .json, .schema, .token]
        for (a, b) in zip(order, order.dropFirst()) {
            #expect(a < b, "\(a) < \(b)")
            #expect(!(b < a), "\(b) < \(a)")
        }
    }

    func decodeError(_ json: String) -> SelectionDecodingError? {
        decodeError(Array(json.utf8))
    }

    func decodeError(_ json: [UInt8]) -> SelectionDecodingError? {
        do {
            _ = try SelectionDecoder.decodeJSON(json)
            return nil
        } catch {
            return error
        }
    }

    func tokenDocument(_ data: [UInt8]) -> [UInt8] {
        Array(#"{"applicationTokens":[{"data":""#.utf8) + data
            + Array(#""}],"categoryTokens":[],"webDomainTokens":[]}"#.utf8)
    }

    /// A schema problem with `categoryTokens` names that key, not another known key (SelectionReader.keyIndex
    /// maps each kind to its own key). (Mutant `Sources/ScreenTimeSelection/SelectionReader.swift:constant:090f625f`
    /// maps `.category` to `includeEntireCategory`.)
    @Test func aCategoryTokensProblemNamesCategoryTokens() {
        let notArray = decodeError(#"{"applicationTokens":[],"categoryTokens":{},"webDomainTokens":[]}"#)
        #expect(notArray?.code == .schema)
        #expect(notArray?.detail == #""categoryTokens" is not an array"#, "\(String(describing: notArray))")
    }

    /// Token data read eight bytes at a time rejects a character outside the alphabet in the last pair of a
    /// word (bytes 6 and 7) as the byte-by-byte path does: `_` is not base64. (Mutant
    /// `Sources/ScreenTimeSelection/SelectionReader.swift:constant:25b57359` looks up `w >> 49` for the last pair,
    /// which reads `_b` as the valid pair `/1`.)
    @Test func tokenDataWordsCheckTheirLastPair() {
        #expect(decodeError(tokenDocument(Array("AAAAAAAA".utf8))) == nil)
        #expect(decodeError(tokenDocument(Array("AAAAAA_b".utf8)))?.code == .token)
        #expect(decodeError(tokenDocument(Array("AAAAAAAAAAAAAA_b".utf8)))?.code == .token)
    }

    /// A byte 0x80 in token data is not printable ASCII: the fast path leaves it to the general path, which
    /// rejects it as invalid UTF-8 (a `json` error, which precedes `token`). (Mutant
    /// `Sources/ScreenTimeSelection/SelectionReader.swift:constant:f34d6984` lets 0x80 through as a
    /// non-alphabet character, a `token` error.)
    @Test func aByte0x80InTokenDataIsInvalidUTF8() {
        #expect(decodeError(tokenDocument([0x41, 0x41, 0x41, 0x80]))?.code == .json)
        #expect(decodeError(tokenDocument([0x80, 0x41, 0x41, 0x41]))?.code == .json)
    }

    /// Padding is only the last one or two characters: `=` elsewhere in token data is not canonical, even when
    /// the character before the last `=` has zero pad bits. (Mutant
    /// `Sources/ScreenTimeSelection/SelectionReader.swift:constant:a92546b6` takes the canonical shortcut for a
    /// last `=` one before the end, and accepts `A=AAAA=A`.)
    @Test func padBeforeTheLastCharacterIsNotCanonical() {
        #expect(decodeError(tokenDocument(Array("AAAAAA==".utf8))) == nil)
        #expect(decodeError(tokenDocument(Array("A=AAAA=A".utf8)))?.code == .token)
        #expect(decodeError(tokenDocument(Array("AAAA=A=A".utf8)))?.code == .token)
    }

    func base64Failure(_ text: String) -> Base64.DecodingFailure? {
        [UInt8](text.utf8).withUnsafeBufferPointer { buffer -> Base64.DecodingFailure? in
            switch Base64.validate(buffer) {
            case .success: nil
            case .failure(let failure): failure
            }
        }
    }

    /// A character outside the alphabet is reported at its offset wherever it is in an 8-byte word of the text
    /// (Base64.firstNonAlphabetCharacter checks all four pairs of each word). (Mutants
    /// `Sources/ScreenTimeSelection/Base64.swift:constant:8bba8d45` and `:8bba8e45` look the first or second
    /// pair up at index 0 or 0x10000, and `:d7753260` the last at `w >> 49`; each misses the `_` here and
    /// reports non-zero pad bits at the end instead.)
    @Test func everyPairOfABase64WordIsChecked() {
        for (text, offset) in [("_ACAAAAA", 0), ("A_CAAAAA", 1), ("AA_ACAAA", 2), ("AAA_CAAA", 3), ("AAAAAA_b", 6)] {
            let failure = base64Failure(text)
            #expect(failure?.reason == .character, "\(text)")
            #expect(failure?.offset == offset, "\(text)")
        }
        #expect(base64Failure("AAAAAAAA") == nil)
    }
}
