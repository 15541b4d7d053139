import Foundation
import Testing
import _TestSupport

@testable import ScreenTimeReference

/// `SelectionDecoder.canonicalForm(of:)` writes the canonical form straight from the token texts it read. It
/// must give exactly what decoding into a selection gives (its `canonicalBase64`, its token counts and
/// `includeEntireCategory`), and fail exactly as decoding fails (code, offset, detail), on every input.
@Suite struct SelectionDirectCanonicalTests {
    /// The outcome of both paths, as comparable text.
    static func outcomes(_ stored: [UInt8]) -> (direct: String, viaSelection: String) {
        let direct: String
        do {
            let form = try SelectionDecoder.canonicalForm(of: stored)
            #expect(try SelectionDecoder.canonicalBase64(of: stored) == form.base64)
            direct =
                "ok \(form.base64) \(form.applicationCount) \(form.categoryCount) \(form.webDomainCount) \(form.includeEntireCategory)"
        } catch {
            direct = "error \(error.code) at \(error.offset): \(error.detail)"
        }
        let viaSelection: String
        do {
            let x = try SelectionDecoder.decode(stored).selection
            viaSelection =
                "ok \(x.canonicalBase64) \(x.applicationTokens.count) \(x.categoryTokens.count) \(x.webDomainTokens.count) \(x.includeEntireCategory)"
        } catch {
            viaSelection = "error \(error.code) at \(error.offset): \(error.detail)"
        }
        return (direct, viaSelection)
    }

    static func expectSame(_ stored: [UInt8], _ what: @autoclosure () -> String) {
        let (direct, viaSelection) = outcomes(stored)
        #expect(direct == viaSelection, "\(what())")
    }

    @Test func deviceShapedSelectionsWithDuplicatesAndEveryTokenSize() {
        for seed in 1...60 as ClosedRange<UInt64> {
            let n = Int(seed)
            var s = DeviceShapedSelection(
                applications: (0..<(n % 7)).map { DeviceShapedSelection.token($0 + n) },
                categories: (0..<(n % 5)).map {
                    DeviceShapedSelection.token(100 + $0, length: 1 + (n * 37 + $0) % 300)
                },
                webDomains: (0..<(n % 4)).map { DeviceShapedSelection.token(200 + $0, length: 1 + $0) }, seed: seed)
            // Duplicates (written twice, as a no-op pick can), and identifiers with escapes and repeats.
            if let first = s.applications.first { s.applications.append(first) }
            if s.categories.count > 1 { s.categories.append(s.categories[1]) }
            s.includeEntireCategory = seed % 3 == 0 ? nil : seed % 2 == 0
            if seed % 4 == 0 {
                s.extraMembers = [#""untokenizedApplicationIdentifiers":["b","a\/é","b","caf\u00e9"]"#]
            }
            Self.expectSame(Array(s.base64.utf8), "seed \(seed): \(s.json)")
        }
    }

    @Test func tokenTextsWrittenInEveryWayJSONAllows() {
        // The same token written plainly, with `\/`, with `\u` escapes, and as the general path reads them.
        let data = Base64.encode(DeviceShapedSelection.token(7))
        let variants = [
            data, data.replacingSlashes(),
            data.replacingOccurrences(of: "A", with: #"\u0041"#),
            data.replacingOccurrences(of: "/", with: #"\u002f"#),
        ]
        for (i, a) in variants.enumerated() {
            for b in variants {
                let json =
                    #"{"applicationTokens":[{"data":"\#(a)"},{"data":"\#(b)"}],"categoryTokens":[{"data":"\#(b)"}, {"x":1,"data":"\#(a)"}],"webDomainTokens":[],"includeEntireCategory":true}"#
                Self.expectSame(Array(b64(json).utf8), "variant \(i): \(json)")
            }
        }
    }

    @Test func failuresAreTheSame() {
        let good = Base64.encode(DeviceShapedSelection.token(1))
        let jsons = [
            "", "{}", "[]", "{", #"{"applicationTokens":[]}"#,
            #"{"applicationTokens":[{"data":"AAA"}],"categoryTokens":[],"webDomainTokens":[]}"#,
            #"{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[]}"#,
            #"{"applicationTokens":[{"data":"\#(good)"},{"data":1}],"categoryTokens":[],"webDomainTokens":[]}"#,
            #"{"applicationTokens":[{"data":"\#(good)"}],"categoryTokens":[{"dat":"AAAA"}],"webDomainTokens":[]}"#,
            #"{"applicationTokens":[{"data":"\#(good)"}],"categoryTokens":[],"webDomainTokens":[],"categoryTokens":[]}"#,
            #"{"applicationTokens":[{"data":"AB=="}],"categoryTokens":[],"webDomainTokens":[]} x"#,
            #"{"applicationTokens":[{"data":"\#(String(repeating: "A", count: 1372))"}],"categoryTokens":[],"webDomainTokens":[]}"#,
        ]
        for json in jsons { Self.expectSame(Array(b64(json).utf8), json) }
        for stored in ["", "!!!!", "AAA", "AB==", String(repeating: "A", count: 8)] {
            Self.expectSame(Array(stored.utf8), stored)
        }
    }

    /// Every checked-in corpus file of the selection targets, as a stored string and (JSON targets) as JSON.
    @Test func corpusFilesGiveTheSameOnBothPaths() throws {
        let root = PackagePaths.root
        var count = 0
        for target in ["selection-decode", "selection-differential", "selection-json"] {
            let directory = root.appendingPathComponent("corpus/\(target)")
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
                else { continue }
                let bytes = [UInt8](data)
                Self.expectSame(
                    target == "selection-json" ? Array(Base64.encode(bytes).utf8) : bytes, "\(target)/\(file)")
                count += 1
            }
        }
        #expect(count > 50)
    }
}
