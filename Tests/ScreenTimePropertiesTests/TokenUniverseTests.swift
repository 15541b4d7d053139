import ScreenTimeReference
import Testing

@testable import ScreenTimeProperties

/// The numbered tokens every generator picks from. Corpus seeds and saved regressions name cases through them,
/// so their bytes must never change; and the per-kind tables made once must hold exactly those tokens.
@Suite struct TokenUniverseTests {
    @Test func theTokensAreTheOnesTheirBytesMake() {
        for i in -TokenUniverse.size...(2 * TokenUniverse.size) {
            let bytes = TokenUniverse.makeBytes(TokenUniverse.reduced(i))
            #expect(TokenUniverse.bytes(i) == bytes)
            #expect(TokenUniverse.token(i, Application.self) == ApplicationToken(bytes: bytes))
            #expect(TokenUniverse.token(i, ActivityCategory.self) == ActivityCategoryToken(bytes: bytes))
            #expect(TokenUniverse.token(i, WebDomain.self) == WebDomainToken(bytes: bytes))
            #expect(TokenUniverse.data(i) == Base64.encode(bytes))
        }
    }

    @Test func theBytesAreUnchanged() {
        // Pinned (computed independently in Python from the definition): a short one and a device-shaped one.
        #expect(TokenUniverse.data(1) == "ZnF8h5Kd")
        #expect(TokenUniverse.data(3).hasPrefix("AAAAAAAAAAAAAAAAD7kXUUFEOAdbqjyzn6V6ZBK6"))
        #expect(TokenUniverse.bytes(3).count == 128)
    }
}

@Suite struct SameBytesTests {
    @Test func sameBytesIsTheTokenWithTheSameBytes() {
        for i in 0..<TokenUniverse.size {
            let app = TokenUniverse.token(i, Application.self)
            #expect(TokenUniverse.sameBytes(app, as: WebDomain.self) == WebDomainToken(bytes: app.bytes))
            #expect(TokenUniverse.sameBytes(app, as: ActivityCategory.self) == ActivityCategoryToken(bytes: app.bytes))
            #expect(TokenUniverse.sameBytes(TokenUniverse.token(i, WebDomain.self), as: Application.self) == app)
        }
        let stranger = ApplicationToken(bytes: [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3])
        #expect(TokenUniverse.sameBytes(stranger, as: WebDomain.self) == WebDomainToken(bytes: stranger.bytes))
    }
}
