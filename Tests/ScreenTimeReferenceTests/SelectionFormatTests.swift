import Testing

@testable import ScreenTimeReference

/// `SPEC.md` §1.1 and §1.3: the JSON formats, documents of selections and their paths, and the encode side.
@Suite struct SelectionFormatTests {
    static let token = Base64.encode(DeviceShapedSelection.token(1))
    static let selection = #"{"applicationTokens":[{"data":"\#(token)"}],"categoryTokens":[],"webDomainTokens":[]}"#
    static let bad = #"{"applicationTokens":[{"data":"AB=="}],"categoryTokens":[],"webDomainTokens":[]}"#

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func jsonIsTheStoredStringWithoutItsBase64() throws {
        let report = try SelectionDecoder.decode(Self.bytes(Self.selection), format: .json)
        #expect(report.selection.applicationTokens.count == 1)
        #expect(
            report.selection == (try FamilyActivitySelection(storedBase64: Base64.encode(Self.bytes(Self.selection)))))
    }

    @Test(arguments: [
        ("", SelectionDecodingError.Code.empty),
        ("[]", .schema),  // what a failed `rawValue` returns (field bug 10)
        ("{", .json), ("\u{FEFF}{}", .json), (Self.bad, .token), ("{}", .schema),
        // The base64 layer is not there: a stored string given as `json` is not JSON.
        ("e30=", .json),
    ])
    func jsonErrors(text: String, code: SelectionDecodingError.Code) {
        #expect(throws: SelectionDecodingError.self) { try SelectionDecoder.decode(Self.bytes(text), format: .json) }
        do {
            _ = try SelectionDecoder.decode(Self.bytes(text), format: .json)
        } catch {
            #expect(error.code == code, "\(text)")
        }
    }

    @Test func theSizeLimitHoldsForEveryByteFormat() {
        let big = [UInt8](repeating: 0x20, count: SelectionDecoder.maximumBase64Length + 1)
        for format in [SelectionFormat.json, .jsonDocument, .binaryPlist, .xmlPlist] {
            do {
                _ = try SelectionDecoder.decode(big, format: format)
                Issue.record("\(format) accepted more than 1 MiB")
            } catch {
                #expect(error.code == .tooLarge, "\(format)")
            }
        }
    }

    @Test func aDocumentIsReadSelectionBySelectionAtTheirPointers() throws {
        let document = """
            {"profiles":{"3F2A":{"name":"Work","selectedActivity":\(Self.selection)},
             "a/b~c":{"selectedActivity":\(Self.bad)}},
             "list":[1,{"x":\(Self.selection)}],"n":null}
            """
        let entries = try SelectionDecoder.decodeDocument(Self.bytes(document))
        #expect(
            entries.map(\.path) == [
                "/profiles/3F2A/selectedActivity", "/profiles/a~1b~0c/selectedActivity", "/list/1/x",
            ])
        #expect(try entries[0].result.get().selection.applicationTokens.count == 1)
        #expect(try entries[2].result.get().selection.applicationTokens.count == 1)
        guard case .failure(let error) = entries[1].result else {
            Issue.record("the bad profile decoded")
            return
        }
        #expect(error.code == .token)
        // The offset counts in the document, inside the bad selection.
        #expect(entries[1].range.contains(error.offset))
        #expect(Self.bytes(document)[error.offset] == UInt8(ascii: "\""))
    }

    @Test func theTopLevelSelectionIsAtTheEmptyPointer() throws {
        let entries = try SelectionDecoder.decodeDocument(Self.bytes(Self.selection))
        #expect(entries.map(\.path) == [""])
        #expect(
            try SelectionDecoder.decode(Self.bytes(Self.selection), format: .jsonDocument).selection.applicationTokens
                .count == 1)
    }

    @Test func aSelectionIsNotSearchedInsideAndUnknownMembersStayItsOwn() throws {
        let nested = #"{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"inner":\#(Self.selection)}"#
        let entries = try SelectionDecoder.decodeDocument(Self.bytes(#"{"a":\#(nested)}"#))
        #expect(entries.map(\.path) == ["/a"])
    }

    @Test func aDocumentWithoutSelectionsIsAnEmptyList() throws {
        #expect(try SelectionDecoder.decodeDocument(Self.bytes(#"{"a":[1,2,{"b":"c"}]}"#)).isEmpty)
        #expect(try SelectionDecoder.decodeDocument(Self.bytes("3")).isEmpty)
    }

    @Test func aKeyRepeatedOutsideTheSelectionsIsTheDocumentsSchemaErrorInsideOneItsOwn() throws {
        do {
            _ = try SelectionDecoder.decodeDocument(Self.bytes(#"{"a":\#(Self.selection),"a":1}"#))
            Issue.record("a repeated key outside the selections was accepted")
        } catch {
            #expect(error.code == .schema)
        }
        let repeatedInside =
            #"{"a":{"applicationTokens":[],"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]},"b":\#(Self.selection)}"#
        let entries = try SelectionDecoder.decodeDocument(Self.bytes(repeatedInside))
        #expect(entries.count == 2)
        if case .failure(let error) = entries[0].result {
            #expect(error.code == .schema)
        } else {
            Issue.record("no error")
        }
        #expect((try? entries[1].result.get()) != nil)
    }

    @Test func theWholeDocumentMustBeJSONWithinTheDepthLimit() {
        let deep = String(repeating: "[", count: 31) + Self.selection + String(repeating: "]", count: 31)
        #expect((try? SelectionDecoder.decodeDocument(Self.bytes(deep))) == nil)  // the tokens' objects are at 34
        let fits = String(repeating: "[", count: 28) + Self.selection + String(repeating: "]", count: 28)
        #expect((try? SelectionDecoder.decodeDocument(Self.bytes(fits)))?.count == 1)
        for text in ["", "{", #"{"a":\#(Self.selection)} x"#, "\u{FEFF}{}"] {
            do {
                _ = try SelectionDecoder.decodeDocument(Self.bytes(text))
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.code == (text.isEmpty ? .empty : .json), "\(text)")
            }
        }
    }

    /// Found by scripts/oracle-differential.py: empty containers before a selection once kept their depth, so a
    /// selection at depth 30 after 40 empty siblings was refused as too deep.
    @Test func emptyContainersBeforeASelectionAddNoDepth() throws {
        let siblings = (0..<20).map { #""e\#($0)":[],"o\#($0)":{},"# }.joined()
        let deep =
            String(repeating: #"{"a":"#, count: 28) + "{" + siblings + #""s":"# + Self.selection + "}"
            + String(repeating: "}", count: 28)
        let entries = try SelectionDecoder.decodeDocument(Self.bytes(deep))
        #expect(entries.count == 1)
        #expect((try? entries.first?.result.get()) != nil)
    }

    @Test func jsonEncodingsReadBackAsTheSameSelection() throws {
        let s = try FamilyActivitySelection(stored: Self.bytes(Self.selection), format: .json)
        for format in [SelectionFormat.base64JSON, .json, .jsonDocument] {
            #expect(try FamilyActivitySelection(stored: try s.encoded(as: format), format: format) == s, "\(format)")
        }
        #expect(try s.encoded(as: .json) == s.canonicalJSON)
        #expect(try s.encoded(as: .base64JSON) == Self.bytes(s.canonicalBase64))
    }

    @Test func detectionNamesWhatTheBytesLookLike() {
        #expect(SelectionFormat.detect(Self.bytes("bplist00…")) == .binaryPlist)
        #expect(SelectionFormat.detect(Self.bytes("  <?xml version")) == .xmlPlist)
        #expect(SelectionFormat.detect(Self.bytes("\n{\"a\":1}")) == .json)
        #expect(SelectionFormat.detect(Self.bytes("[]")) == .json)
        #expect(SelectionFormat.detect(Self.bytes(Base64.encode(Self.bytes("bplist00")))) == .base64Plist)
        #expect(SelectionFormat.detect(Self.bytes(Base64.encode(Self.bytes("<?xml")))) == .base64Plist)
        #expect(SelectionFormat.detect(Self.bytes("e30=")) == .base64JSON)
        #expect(SelectionFormat.detect([]) == .base64JSON)
    }
}
