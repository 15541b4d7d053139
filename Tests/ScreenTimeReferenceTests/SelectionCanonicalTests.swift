import Foundation
import Testing

@testable import ScreenTimeReference

@Suite struct SelectionCanonicalTests {
    static func shaped(
        seed: UInt64, apps: Range<Int> = 0..<3, categories: Range<Int> = 10..<12, web: Range<Int> = 20..<21
    ) -> DeviceShapedSelection {
        DeviceShapedSelection(
            applications: apps.map { DeviceShapedSelection.token($0) },
            categories: categories.map { DeviceShapedSelection.token($0) },
            webDomains: web.map { DeviceShapedSelection.token($0) }, seed: seed)
    }

    @Test func canonicalIsAFixedPoint() throws {
        for seed in 1...20 as ClosedRange<UInt64> {
            let x = try FamilyActivitySelection(storedBase64: Self.shaped(seed: seed).base64)
            let c = x.canonicalBase64
            let y = try FamilyActivitySelection(storedBase64: c)
            #expect(y == x)
            #expect(y.canonicalBase64 == c)
        }
    }

    @Test func equalityIgnoresKeyOrderTokenOrderAndDuplicates() throws {
        let a = Self.shaped(seed: 1)
        var b = Self.shaped(seed: 99)
        b.applications.append(b.applications[0])
        #expect(a.base64 != b.base64)
        let sa = try FamilyActivitySelection(storedBase64: a.base64)
        let sb = try FamilyActivitySelection(storedBase64: b.base64)
        #expect(sa == sb)
        #expect(sa.canonicalBase64 == sb.canonicalBase64)
        var c = Self.shaped(seed: 1)
        c.includeEntireCategory = true
        #expect(try FamilyActivitySelection(storedBase64: c.base64) != sa)
    }

    @Test func canonicalJSONHasTheSpecifiedShape() throws {
        var s = FamilyActivitySelection(includeEntireCategory: true)
        // "//8=" and "AAA=":
        s.applicationTokens = [ApplicationToken(bytes: [0xFF, 0xFF]), ApplicationToken(bytes: [0, 0])]
        s.untokenizedCategoryIdentifiers = ["b", "a/é"]
        let json = String(decoding: s.canonicalJSON, as: UTF8.self)
        #expect(
            json
                == #"{"applicationTokens":[{"data":"\/\/8="},{"data":"AAA="}],"categoryTokens":[],"includeEntireCategory":true,"untokenizedApplicationIdentifiers":[],"untokenizedCategoryIdentifiers":["a\/é","b"],"untokenizedWebDomainIdentifiers":[],"webDomainTokens":[]}"#
        )
    }

    @Test func foundationReadsTheCanonicalStringIntoTheSameSets() throws {
        for seed in 1...10 as ClosedRange<UInt64> {
            var x = try FamilyActivitySelection(storedBase64: Self.shaped(seed: seed, apps: 0..<Int(seed)).base64)
            x.untokenizedWebDomainIdentifiers = ["example.com/ä", "\u{0}\n\"\\"]
            let data = try #require(Data(base64Encoded: x.canonicalBase64))
            let viaFoundation = try JSONDecoder().decode(FamilyActivitySelection.self, from: data)
            #expect(viaFoundation == x)
        }
    }

    @Test func foundationEncoderWithSortedKeysWritesTheCanonicalJSON() throws {
        let x = try FamilyActivitySelection(storedBase64: Self.shaped(seed: 3).base64)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(x)
        #expect(Array(data) == x.canonicalJSON)
    }

    @Test func codableRejectsBadTokenData() {
        let json = #"{"applicationTokens":[{"data":"not base64"}],"categoryTokens":[],"webDomainTokens":[]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FamilyActivitySelection.self, from: Data(json.utf8))
        }
    }
}

@Suite struct SelectionOrderAndAlgebraTests {
    @Test func stableOrderIsAscendingByDataString() throws {
        let tokens = (0..<30).map { ApplicationToken(bytes: DeviceShapedSelection.token($0)) }
        let s = FamilyActivitySelection(applicationTokens: Set(tokens))
        let ordered = s.orderedTokenData(of: .application)
        #expect(ordered == tokens.map(\.data).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // ASCII order, not Swift's String order: "+" (0x2B) < "/" (0x2F) < "0" < "A" < "a"
        let mixed = FamilyActivitySelection(applicationTokens: [
            ApplicationToken(bytes: [0xFB]), ApplicationToken(bytes: [0xFF]), ApplicationToken(bytes: [0xD3]),
            ApplicationToken(bytes: [0x00]), ApplicationToken(bytes: [0x68]),
        ])
        #expect(mixed.orderedTokenData(of: .application) == ["+w==", "/w==", "0w==", "AA==", "aA=="])
    }

    @Test func orderDoesNotDependOnInsertionOrEncodingOrder() throws {
        let a = try FamilyActivitySelection(storedBase64: SelectionCanonicalTests.shaped(seed: 1, apps: 0..<20).base64)
        let b = try FamilyActivitySelection(storedBase64: SelectionCanonicalTests.shaped(seed: 2, apps: 0..<20).base64)
        #expect(a.orderedApplicationTokens == b.orderedApplicationTokens)
    }

    @Test func algebraWorksPerKindWithTheIncludeEntireRule() {
        let t = (0..<6).map { DeviceShapedSelection.token($0) }
        let a = FamilyActivitySelection(
            applicationTokens: [.init(bytes: t[0]), .init(bytes: t[1])], categoryTokens: [.init(bytes: t[2])],
            includeEntireCategory: true)
        let b = FamilyActivitySelection(
            applicationTokens: [.init(bytes: t[1]), .init(bytes: t[3])], webDomainTokens: [.init(bytes: t[4])])
        #expect(a.union(b).applicationTokens.count == 3)
        #expect(a.intersection(b).applicationTokens == [.init(bytes: t[1])])
        #expect(a.subtracting(b).applicationTokens == [.init(bytes: t[0])])
        #expect(a.symmetricDifference(b).applicationTokens.count == 2)
        #expect(a.union(b).webDomainTokens.count == 1 && a.union(b).categoryTokens.count == 1)
        // b has no categories, a has includeEntire: true → true
        #expect(a.union(b).includeEntireCategory)
        // an operand with categories and includeEntire false → false
        let c = FamilyActivitySelection(categoryTokens: [.init(bytes: t[5])], includeEntireCategory: false)
        #expect(!a.union(c).includeEntireCategory)
        // untokenized identifiers are dropped
        var d = a
        d.untokenizedApplicationIdentifiers = ["x"]
        #expect(d.union(d).untokenizedApplicationIdentifiers.isEmpty)
        // tokens of one kind never meet tokens of another, even with equal bytes
        let sameBytes = FamilyActivitySelection(categoryTokens: [.init(bytes: t[0])])
        #expect(a.intersection(sameBytes).applicationTokens.isEmpty && a.intersection(sameBytes).categoryTokens.isEmpty)
    }
}

/// Strings compare by code point, as in JSON and the spec, never by Swift's canonical equivalence.
@Suite struct SelectionCodePointTests {
    static let nfc = "Caf\u{E9}"
    static let nfd = "Cafe\u{301}"
    static let e3 = #""applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]"#

    @Test func untokenizedIdentifiersKeepBothSpellingsInCodePointOrder() throws {
        let a = try FamilyActivitySelection(
            storedBase64: b64("{\(Self.e3),\"untokenizedApplicationIdentifiers\":[\"\(Self.nfc)\",\"\(Self.nfd)\"]}"))
        let b = try FamilyActivitySelection(
            storedBase64: b64("{\(Self.e3),\"untokenizedApplicationIdentifiers\":[\"\(Self.nfd)\",\"\(Self.nfc)\"]}"))
        #expect(a.untokenizedApplicationIdentifiers.count == 2)
        #expect(a.canonicalBase64 == b.canonicalBase64)  // input order never matters
        let json = String(decoding: a.canonicalJSON, as: UTF8.self)
        #expect(json.contains("[\"\(Self.nfd)\",\"\(Self.nfc)\"]"))  // "e" (0x65) before "é" (0xC3 0xA9)
    }

    @Test func selectionsDifferingOnlyInNormalizationAreNotEqual() throws {
        let a = try FamilyActivitySelection(
            storedBase64: b64("{\(Self.e3),\"untokenizedApplicationIdentifiers\":[\"\(Self.nfc)\"]}"))
        let b = try FamilyActivitySelection(
            storedBase64: b64("{\(Self.e3),\"untokenizedApplicationIdentifiers\":[\"\(Self.nfd)\"]}"))
        #expect(a != b)
        #expect(a.canonicalBase64 != b.canonicalBase64)
    }

    @Test func keysDifferingOnlyInNormalizationAreNotRepeatedKeys() {
        #expect(decodeError(b64("{\(Self.e3),\"\(Self.nfc)\":1,\"\(Self.nfd)\":2}")) == nil)
        #expect(decodeError(b64("{\(Self.e3),\"\(Self.nfc)\":1,\"\(Self.nfc)\":2}")) == .schema)
        #expect(
            decodeError(
                b64(
                    #"{"applicationTokens":[{"data":"AA==","\#(Self.nfc)":1,"\#(Self.nfd)":1}],"categoryTokens":[],"webDomainTokens":[]}"#
                )) == nil)
    }
}
