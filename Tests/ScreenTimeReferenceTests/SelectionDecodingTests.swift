import Testing

@testable import ScreenTimeReference

/// A minimal valid selection's members, for building near-valid variants.
private let empty3 = #""applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]"#
private let tokenA = Base64.encode(DeviceShapedSelection.token(1))

@Suite struct SelectionDecodingTests {
    @Test func decodesMinimalAndFullShapes() throws {
        let minimal = try FamilyActivitySelection(storedBase64: b64("{\(empty3)}"))
        #expect(minimal == FamilyActivitySelection())
        let shaped = DeviceShapedSelection(
            applications: [DeviceShapedSelection.token(1), DeviceShapedSelection.token(2)],
            categories: [DeviceShapedSelection.token(3)], webDomains: [DeviceShapedSelection.token(4)],
            includeEntireCategory: true)
        let s = try FamilyActivitySelection(storedBase64: shaped.base64)
        #expect(s.applicationTokens.count == 2 && s.categoryTokens.count == 1 && s.webDomainTokens.count == 1)
        #expect(s.includeEntireCategory)
        #expect(s.applicationTokens.allSatisfy { $0.byteCount == 128 })
    }

    @Test(arguments: [
        // empty
        ("", SelectionDecodingError.Code.empty),
        // base64
        ("!!", .base64), ("e30", .base64), (" e30=", .base64), ("e30=\n", .base64), ("e3-=", .base64),
        ("e31=", .base64),
        // json
        (b64(" "), .json), (b64("{"), .json), (b64("{\(empty3),}"), .json), (b64("{\(empty3)} x"), .json),
        (b64("\u{FEFF}{\(empty3)}"), .json), (b64("{\(empty3),\"x\":NaN}"), .json),
        (b64("{\(empty3),\"x\":" + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"), .json),
        // schema
        (b64("[]"), .schema), (b64("null"), .schema), (b64("\"x\""), .schema), (b64("{}"), .schema),
        (b64(#"{"applicationTokens":[],"categoryTokens":[]}"#), .schema),
        (b64(#"{"applicationTokens":{},"categoryTokens":[],"webDomainTokens":[]}"#), .schema),
        (b64(#"{"applicationTokens":null,"categoryTokens":[],"webDomainTokens":[]}"#), .schema),
        (b64("{\(empty3),\"includeEntireCategory\":1}"), .schema),
        (b64("{\(empty3),\"includeEntireCategory\":null}"), .schema),
        (b64("{\(empty3),\"includeEntireCategory\":\"true\"}"), .schema),
        (b64("{\(empty3),\"untokenizedApplicationIdentifiers\":[1]}"), .schema),
        (b64("{\(empty3),\"untokenizedWebDomainIdentifiers\":\"a\"}"), .schema),
        (b64("{\(empty3),\"applicationTokens\":[]}"), .schema),
        (b64("{\(empty3),\"x\":{\"a\":1,\"a\":2}}"), .schema),
        (
            b64(#"{"applicationTokens":[{"data":"AA==","data":"AA=="}],"categoryTokens":[],"webDomainTokens":[]}"#),
            .schema
        ),
        // schema beats token, wherever each is
        (
            b64(#"{"applicationTokens":[1],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":0}"#),
            .schema
        ),
        // token
        (b64(#"{"applicationTokens":[1],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[{}],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[{"data":1}],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[{"data":"AA"}],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[{"data":"AB=="}],"categoryTokens":[],"webDomainTokens":[]}"#), .token),
        (b64(#"{"applicationTokens":[],"categoryTokens":[{"data":"A-_="}],"webDomainTokens":[]}"#), .token),
        (
            b64(
                #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[{"data":"\#(Base64.encode([UInt8](repeating: 7, count: 1025)))"}]}"#
            ), .token
        ),
        // json beats schema and token even when it comes later
        (b64(#"{"applicationTokens":[1],"categoryTokens":{},"webDomainTokens":[],"x":tru}"#), .json),
    ])
    func reportsEachErrorCode(input: String, code: SelectionDecodingError.Code) {
        #expect(decodeError(input) == code, "\(input.prefix(80))")
    }

    @Test func tooLargeWinsOverBase64AndEmptyWinsOverAll() {
        let huge = String(repeating: "!", count: SelectionDecoder.maximumBase64Length + 1)
        #expect(decodeError(huge) == .tooLarge)
        let atLimit = String(repeating: "A", count: SelectionDecoder.maximumBase64Length)
        #expect(decodeError(atLimit) == .json)  // 768 KiB of zero bytes: not JSON, but not too large
    }

    @Test func depthLimitIsThirtyTwo() {
        func nested(_ depth: Int) -> String {
            // top-level object is depth 1, the "x" value adds depth - 1 arrays
            "{\(empty3),\"x\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
                + "}"
        }
        #expect(decodeError(b64(nested(32))) == nil)
        #expect(decodeError(b64(nested(33))) == .json)
    }

    @Test func acceptsWhatTheSpecAccepts() throws {
        // Unknown keys are ignored, at the top and inside tokens.
        #expect(decodeError(b64("{\(empty3),\"future\":{\"a\":[1,2.5e3,null]}}")) == nil)
        #expect(
            decodeError(
                b64(#"{"applicationTokens":[{"data":"AA==","extra":true}],"categoryTokens":[],"webDomainTokens":[]}"#))
                == nil)
        // Missing includeEntireCategory and untokenized arrays decode as false / empty (assumption).
        let s = try FamilyActivitySelection(storedBase64: b64("{\(empty3)}"))
        #expect(s.includeEntireCategory == false && s.untokenizedApplicationIdentifiers.isEmpty)
        // Whitespace inside the JSON is fine; escaped slashes and unescaped slashes are the same token.
        let a = try FamilyActivitySelection(
            storedBase64: b64(
                " {\n\"applicationTokens\" : [ {\"data\":\"\(tokenA.replacingSlashes())\"} ], \"categoryTokens\":[],\"webDomainTokens\":[]}\t"
            ))
        let b = try FamilyActivitySelection(
            storedBase64: b64(
                "{\"applicationTokens\":[{\"data\":\"\(tokenA)\"}],\"categoryTokens\":[],\"webDomainTokens\":[]}"))
        #expect(a == b)
        // Token sizes 1 and 1024 are the bounds.
        #expect(
            decodeError(b64(#"{"applicationTokens":[{"data":"AA=="}],"categoryTokens":[],"webDomainTokens":[]}"#))
                == nil)
        let big = Base64.encode([UInt8](repeating: 9, count: 1024))
        #expect(
            decodeError(b64(#"{"applicationTokens":[{"data":"\#(big)"}],"categoryTokens":[],"webDomainTokens":[]}"#))
                == nil)
    }

    @Test func errorOffsetsPointAtTheProblem() {
        func error(_ s: String) -> SelectionDecodingError? {
            do {
                _ = try SelectionDecoder.decode(Array(s.utf8))
                return nil
            } catch { return error }
        }
        #expect(error("e30=!")?.offset == 3)  // the misplaced "="
        #expect(error("e30!")?.offset == 3)
        let json = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":7}"#
        #expect(error(b64(json))?.offset == json.utf8.count - 2)
        #expect(error(b64(json))?.offsetIsInJSON == true)
        let badToken = #"{"applicationTokens":[],"categoryTokens":[{"data":"AA=="},{"data":"A"}],"webDomainTokens":[]}"#
        let e = error(b64(badToken))
        #expect(e?.code == .token)
        #expect(e?.offset == 66)  // the second token's data string
        #expect(e?.detail.contains("categoryTokens[1]") == true)
    }

    /// The reader keeps where each token is in a scratch buffer sized for one token per 15 bytes of JSON (the
    /// shortest is `{"data":"AA=="}`): the densest documents must keep every token, on both paths.
    @Test func theDensestTokenArraysKeepEveryToken() throws {
        // 4-character base64 of two distinct bytes: 65,536 distinct tokens are possible.
        func data(_ i: Int) -> String { Base64.encode([UInt8(i >> 8), UInt8(i & 0xFF)]) }
        for count in [1, 2, 15, 16, 17, 300] {
            let array = (0..<count).map { #"{"data":"\#(data($0))"}"# }.joined(separator: ",")
            for kind in ["applicationTokens", "categoryTokens", "webDomainTokens"] {
                let others = ["applicationTokens", "categoryTokens", "webDomainTokens"].filter { $0 != kind }
                let json = #"{"\#(kind)":[\#(array)],"\#(others[0])":[],"\#(others[1])":[]}"#
                let report = try SelectionDecoder.decodeJSON(Array(json.utf8))
                let decoded = [
                    report.selection.applicationTokens.count, report.selection.categoryTokens.count,
                    report.selection.webDomainTokens.count,
                ]
                #expect(decoded.reduce(0, +) == count, "\(count) \(kind)")
                let direct = try SelectionDecoder.canonicalForm(of: Array(Base64.encode(Array(json.utf8)).utf8))
                #expect(
                    direct.applicationCount + direct.categoryCount + direct.webDomainCount == count,
                    "\(count) \(kind) (direct)")
            }
            // All three arrays at their densest, in one document.
            let all = #"{"applicationTokens":[\#(array)],"categoryTokens":[\#(array)],"webDomainTokens":[\#(array)]}"#
            let report = try SelectionDecoder.decodeJSON(Array(all.utf8))
            #expect(
                report.selection.applicationTokens.count == count && report.selection.categoryTokens.count == count
                    && report.selection.webDomainTokens.count == count)
            #expect(
                report.writtenTokenCounts[.webDomain] == count
                    && report.tokenByteCounts[.category] == Array(repeating: 2, count: count))
        }
    }

    @Test func unknownKeysAreReportedInDocumentOrder() throws {
        let json =
            #"{"zeta":1,"applicationTokens":[],"\u0061lpha":{"beta":2,"categoryTokens":3},"categoryTokens":[],"#
            + #""caf\u00e9":[],"cafe\u0301":null,"webDomainTokens":[],"applicationTokenz":true}"#
        let report = try SelectionDecoder.decodeJSON(Array(json.utf8))
        // Escapes decoded, NFC and NFD kept apart, known keys and nested keys left out.
        #expect(
            report.unknownKeys.map { Array($0.utf8) }
                == ["zeta", "alpha", "caf\u{E9}", "cafe\u{301}", "applicationTokenz"].map { Array($0.utf8) })
        #expect(try SelectionDecoder.decodeJSON(Array(#"{\#(empty3)}"#.utf8)).unknownKeys.isEmpty)
    }

    @Test func duplicatesCollapseAndReportCounts() throws {
        let t = DeviceShapedSelection.token(5)
        let shaped = DeviceShapedSelection(applications: [t, t, t, DeviceShapedSelection.token(6)])
        let report = try SelectionDecoder.decode(Array(shaped.base64.utf8))
        #expect(report.selection.applicationTokens.count == 2)
        #expect(report.writtenTokenCounts[.application] == 4)
        #expect(report.duplicateCount(of: .application) == 2)
        #expect(report.tokenByteCounts[.application] == [128, 128])
    }

    @Test func decodingIsTotalOnMutationsOfAValidString() {
        // Every single-byte change and every truncation of a valid stored string gets a result or a typed error.
        let valid = Array(
            DeviceShapedSelection(
                applications: [DeviceShapedSelection.token(1)], categories: [DeviceShapedSelection.token(2)]
            ).base64.utf8)
        var codes: Set<String> = []
        for i in stride(from: 0, to: valid.count, by: 7) {
            for replacement: UInt8 in [0, UInt8(ascii: "A"), UInt8(ascii: "="), UInt8(ascii: "/"), 0xFF] {
                var mutated = valid
                mutated[i] = replacement
                do {
                    _ = try SelectionDecoder.decode(mutated)
                    codes.insert("ok")
                } catch { codes.insert(error.code.rawValue) }
            }
            do {
                _ = try SelectionDecoder.decode(Array(valid[..<i]))
                codes.insert("ok")
            } catch { codes.insert(error.code.rawValue) }
        }
        #expect(codes.isSuperset(of: ["ok", "base64", "json"]), "\(codes)")
    }
}
