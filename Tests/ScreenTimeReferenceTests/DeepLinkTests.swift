import PropertyTesting
import Testing

@testable import ScreenTimeReference

@Suite struct DeepLinkTests {
    @Test func buildsTheOpenInAppLink() throws {
        let link = try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": "Café & Co", "from": "shield"])
        #expect(link.absoluteString == "myapp://open?app=Caf%C3%A9%20%26%20Co&from=shield")
        #expect("\(link)" == link.absoluteString)
    }

    @Test func absentNameLeavesTheItemOut() throws {
        let name: String? = nil
        let link = try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": name, "from": "shield"])
        #expect(link.absoluteString == "myapp://open?from=shield")
        #expect(try DeepLink(parsing: link.absoluteString).value(forName: "app") == nil)
        #expect(try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": name]).absoluteString == "myapp://open")
    }

    @Test func emptyNameIsKeptAsEmptyValue() throws {
        let link = try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": ""])
        #expect(link.absoluteString == "myapp://open?app=")
        #expect(try DeepLink(parsing: link.absoluteString).value(forName: "app") == "")
    }

    @Test(arguments: unicodeSamples)
    func roundTripsAnyName(name: String) throws {
        let link = try DeepLink(scheme: "myapp", host: "open", queryItems: ["app": name, "q": "a+b=c&d"])
        let parsed = try DeepLink(parsing: link.absoluteString)
        #expect(parsed == link)
        #expect(parsed.value(forName: "app") == name)
        #expect(parsed.value(forName: "q") == "a+b=c&d")
        // The link holds nothing a URL cannot hold raw.
        #expect(link.absoluteString.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
    }

    @Test func roundTripsRandomNamesAndKeys() throws {
        var rng = SplitMix64(seed: 4242)
        for _ in 0..<500 {
            var key = randomUnicodeString(using: &rng, maxLength: 6)
            if key.isEmpty { key = "k" }
            let value = randomUnicodeString(using: &rng)
            let link = try DeepLink(scheme: "x-app.v2", host: "h", queryItems: [key: value])
            #expect(try DeepLink(parsing: link.absoluteString) == link)
        }
    }

    @Test func parsesItemsInOrderAndDecodesThem() throws {
        let link = try DeepLink(parsing: "MyApp://open?app=%E6%97%A5%E6%9C%AC&n=a+b&eq=x=y&empty=")
        #expect(link.scheme == "myapp")
        #expect(link.host == "open")
        #expect(link.queryItems.map(\.name) == ["app", "n", "eq", "empty"])
        #expect(link.queryItems.map(\.value) == ["日本", "a+b", "x=y", ""])
        #expect(link.value(forName: "missing") == nil)
        #expect(try DeepLink(parsing: "myapp://open").queryItems.isEmpty)
        #expect(try DeepLink(parsing: "myapp://open?app=caf%c3%a9").value(forName: "app") == "café")
    }

    @Test(arguments: [
        ("", DeepLinkError.invalidScheme(offset: 0)),
        ("open?app=x", .invalidScheme(offset: 4)),
        ("open", .invalidScheme(offset: 4)),
        ("://open", .invalidScheme(offset: 0)),
        ("1app://open", .invalidScheme(offset: 0)),
        ("my_app://open", .invalidScheme(offset: 2)),
        ("myapp:open", .invalidScheme(offset: 5)),
        ("myapp:/open", .invalidScheme(offset: 5)),
        ("myapp://", .invalidHost(offset: 8)),
        ("myapp://?a=b", .invalidHost(offset: 8)),
        ("myapp://open/path", .invalidHost(offset: 12)),
        ("myapp://user@open", .invalidHost(offset: 12)),
        ("myapp://open:80", .invalidHost(offset: 12)),
        ("myapp://open#frag", .invalidHost(offset: 12)),
        ("myapp://öpen", .invalidHost(offset: 8)),
        ("myapp://open?", .invalidQuery(offset: 13)),
        ("myapp://open?app", .invalidQuery(offset: 13)),
        ("myapp://open?a=1&", .invalidQuery(offset: 17)),
        ("myapp://open?a=1&&b=2", .invalidQuery(offset: 17)),
        ("myapp://open?=x", .invalidQuery(offset: 13)),
        ("myapp://open?a=1&a=2", .duplicateName("a")),
        ("myapp://open?a=1&%61=2", .duplicateName("a")),
        (
            "myapp://open?app=My App",
            .invalidComponent(PercentDecodingError(.unencodedCharacter, at: 2), componentOffset: 17)
        ),
        (
            "myapp://open?app=Café",
            .invalidComponent(PercentDecodingError(.unencodedCharacter, at: 3), componentOffset: 17)
        ),
        (
            "myapp://open?app=100%",
            .invalidComponent(PercentDecodingError(.malformedEscape, at: 3), componentOffset: 17)
        ),
        ("myapp://open?app=%C3%28", .invalidComponent(PercentDecodingError(.invalidUTF8, at: 0), componentOffset: 17)),
        ("myapp://open?a%ZZ=1", .invalidComponent(PercentDecodingError(.malformedEscape, at: 1), componentOffset: 13)),
        (
            "myapp://open?app=x#frag",
            .invalidComponent(PercentDecodingError(.unencodedCharacter, at: 1), componentOffset: 17)
        ),
    ])
    func rejectsMalformedLinks(text: String, error: DeepLinkError) {
        #expect(throws: error, "\(text.debugDescription)") { try DeepLink(parsing: text) }
    }

    @Test func builderRejectsWhatItCannotWrite() {
        #expect(throws: DeepLinkError.invalidScheme(offset: 0)) { try DeepLink(scheme: "", host: "open") }
        #expect(throws: DeepLinkError.invalidScheme(offset: 2)) { try DeepLink(scheme: "my app", host: "open") }
        #expect(throws: DeepLinkError.invalidHost(offset: 0)) { try DeepLink(scheme: "myapp", host: "") }
        #expect(throws: DeepLinkError.invalidHost(offset: 4)) { try DeepLink(scheme: "myapp", host: "open/x") }
        #expect(throws: DeepLinkError.emptyName) { try DeepLink(scheme: "myapp", host: "open", queryItems: ["": "x"]) }
        #expect(throws: DeepLinkError.duplicateName("a")) {
            try DeepLink(scheme: "myapp", host: "open", queryItems: ["a": "1", "a": "2"])
        }
        // A nil value is left out before names are checked, so a duplicate with nil is fine.
        #expect(throws: Never.self) { try DeepLink(scheme: "myapp", host: "open", queryItems: ["a": "1", "a": nil]) }
    }

    @Test func schemeIsLowerCasedHostIsKept() throws {
        let link = try DeepLink(scheme: "MyApp", host: "Open")
        #expect(link.absoluteString == "myapp://Open")
        #expect(try DeepLink(parsing: "MYAPP://Open") == link)
    }

    @Test func errorsDescribeThemselves() {
        let error = DeepLinkError.invalidComponent(PercentDecodingError(.malformedEscape, at: 3), componentOffset: 17)
        #expect("\(error)".contains("invalidPercentEncoding at byte 20"))
    }
}
