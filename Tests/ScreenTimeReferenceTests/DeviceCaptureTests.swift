import Foundation
import Testing

@testable import ScreenTimeReference

/// The four selections iOS itself encoded (`SPEC.md` §1; `shared/fixtures/device-selections/SOURCE.md`).
@Suite(.enabled(if: DeviceCaptures.available, DeviceCaptures.skipReason))
struct DeviceCaptureTests {
    @Test(arguments: [
        ("all-categories.b64", 13, false),
        ("all-categories-include-entire.b64", 13, true),
        ("social-category.b64", 1, false),
        ("games-category.b64", 1, false),
    ])
    func decodesEachCapture(file: String, categories: Int, includeEntire: Bool) throws {
        let stored = try DeviceCaptures.string(file)
        let report = try SelectionDecoder.decode(Array(stored.utf8))
        #expect(report.selection.categoryTokens.count == categories)
        #expect(report.selection.applicationTokens.isEmpty && report.selection.webDomainTokens.isEmpty)
        #expect(report.selection.includeEntireCategory == includeEntire)
        #expect(report.tokenByteCounts[.category]?.allSatisfy { $0 == 128 } == true)
        #expect(report.selection.categoryTokens.allSatisfy { $0.bytes.prefix(12).allSatisfy { $0 == 0 } })
        #expect(report.unknownKeys.isEmpty && !report.includeEntireCategoryMissing)
        // Canonical fixed point, and Foundation reads the canonical string into the same sets.
        let canonical = report.selection.canonicalBase64
        #expect(try FamilyActivitySelection(storedBase64: canonical) == report.selection)
        #expect(try FamilyActivitySelection(storedBase64: canonical).canonicalBase64 == canonical)
        let viaFoundation = try JSONDecoder().decode(
            FamilyActivitySelection.self, from: try #require(Data(base64Encoded: canonical)))
        #expect(viaFoundation == report.selection)
        // And Foundation reads the device string itself the same way.
        let deviceViaFoundation = try JSONDecoder().decode(
            FamilyActivitySelection.self, from: try #require(Data(base64Encoded: stored)))
        #expect(deviceViaFoundation == report.selection)
    }

    @Test func theTwoThirteenTokenCapturesHoldTheSameSetInAnotherOrder() throws {
        let a = try DeviceCaptures.string("all-categories.b64")
        let b = try DeviceCaptures.string("all-categories-include-entire.b64")
        #expect(a != b)  // field bug 3: the strings differ…
        let sa = try FamilyActivitySelection(storedBase64: a)
        let sb = try FamilyActivitySelection(storedBase64: b)
        #expect(sa.categoryTokens == sb.categoryTokens)  // …the sets do not
        #expect(sa.orderedCategoryTokens == sb.orderedCategoryTokens)  // one stable order for both
        #expect(sa != sb)  // includeEntireCategory differs
    }

    @Test func unionAndDifferenceAsUpstreamExpects() throws {
        let social = try FamilyActivitySelection(storedBase64: try DeviceCaptures.string("social-category.b64"))
        let games = try FamilyActivitySelection(storedBase64: try DeviceCaptures.string("games-category.b64"))
        let all = try FamilyActivitySelection(storedBase64: try DeviceCaptures.string("all-categories.b64"))
        #expect(social.union(games).categoryTokens.count == 2)
        #expect(all.subtracting(games).categoryTokens.count == 12)
        #expect(all.categoryTokens.isSuperset(of: games.categoryTokens))
        #expect(all.intersection(games) == games)
    }

    @Test func captureKeysAndEscapesAreAsIOSWritesThem() throws {
        let json = String(
            decoding: try #require(Base64.decode(Array(try DeviceCaptures.string("games-category.b64").utf8))),
            as: UTF8.self)
        #expect(json.contains(#"\/"#))
        for key in SelectionDecoder.knownKeys { #expect(json.contains("\"\(key)\"")) }
    }
}
