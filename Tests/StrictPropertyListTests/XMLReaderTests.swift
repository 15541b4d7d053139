import Testing

@testable import StrictPropertyList

/// Each rule of SPEC §1.2 "XML" broken alone, with the offset where reading stops.
@Suite struct XMLReaderTests {
    @Test func aMinimalDocumentReadsWithOffsetsAtStartTags() throws {
        let text = "<plist><dict><key>a</key><array><true/><integer>7</integer></array></dict></plist>"
        let node = try PropertyListReader.read(Array(text.utf8), as: .xml)
        #expect(
            node
                == PropertyListNode(
                    .dictionary([
                        PropertyListEntry(
                            key: .init(.string("a"), at: 13),
                            value: .init(
                                .array([.init(.bool(true), at: 32), .init(.integer(7), at: 39)]), at: 25))
                    ]), at: 7))
    }

    @Test func theUsualPrologueReads() {
        #expect(xmlValue(plist("<string>x</string>")) == .string("x"))
        #expect(
            xmlValue("<?xml version='1.0'?>\r\n<plist version='1.0' a = \"b\">\n<false/>\n</plist>\n\t ")
                == .bool(false))
    }

    @Test func aByteOrderMarkFails() {
        #expect(readError([0xEF, 0xBB, 0xBF] + Array("<plist><true/></plist>".utf8), .xml)?.offset == 0)
    }

    @Test func onlyWhitespaceStandsOutsideMarkup() {
        #expect(xmlError("x<plist><true/></plist>")?.offset == 0)
        #expect(xmlError("<plist> x<true/></plist>")?.offset == 8)
        #expect(xmlError("<plist><true/></plist>\u{0C}")?.offset == 22)
        #expect(xmlError("<plist><array><true/>x</array></plist>")?.offset == 21)
        #expect(xmlError("<plist><true/></plist><plist>")?.offset == 22)
    }

    @Test func theDeclarationAndDoctypeAreBounded() {
        #expect(xmlError("<?xml version=\"1.0\"")?.offset == 0)
        #expect(xmlError("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><true/></plist>")?.offset == 16)
        #expect(xmlError("<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>")?.offset == 16)
        #expect(xmlError("<?xml-stylesheet href='a'?><plist><true/></plist>")?.offset == 0)
    }

    @Test func theRootHasOneValue() {
        #expect(xmlError("<plist></plist>")?.offset == 7)
        #expect(xmlError("<plist/>")?.offset == 0)
        #expect(xmlError("<plist><true/><true/></plist>")?.offset == 14)
        #expect(xmlError("<plist><true/>")?.offset == 14)
        #expect(xmlError("<plistx><true/></plistx>")?.offset == 0)
        #expect(xmlError("<plist a=b><true/></plist>")?.offset == 9)
    }

    @Test func commentsCdataProcessingInstructionsAndOtherMarkupFail() {
        let comment = plist("<dict>\n<!-- c -->\n<key>a</key><true/></dict>")
        #expect(xmlError(comment)?.offset == offset(of: "<!--", in: comment))
        #expect(xmlError(comment)?.detail == "comments are not allowed")
        let before = "<!-- c --><plist><true/></plist>"
        #expect(xmlError(before)?.offset == 0)
        let cdata = plist("<string><![CDATA[x]]></string>")
        #expect(xmlError(cdata)?.offset == offset(of: "<![CDATA[", in: cdata))
        let instruction = plist("<array><?pi x?></array>")
        #expect(xmlError(instruction)?.offset == offset(of: "<?pi", in: instruction))
        let element = plist("<array><foo/></array>")
        #expect(xmlError(element)?.offset == offset(of: "<foo", in: element))
        let inText = plist("<string>a<b/></string>")
        #expect(xmlError(inText)?.offset == offset(of: "<b/>", in: inText))
    }

    @Test func tagsAreWrittenExactly() {
        for bad in [
            "<string a=\"b\">x</string>", "<string >x</string>", "<true />", "<String>x</String>",
            "<string>x</string >",
            "<key>a</key>", "<integer/>", "<real/>", "<date/>",
        ] {
            let text = plist(bad)
            #expect(xmlError(text) != nil, "\(bad)")
        }
        #expect(
            xmlError(plist("<string a=\"b\">x</string>"))?.offset
                == offset(of: "<string", in: plist("<string a=\"b\">x</string>")))
        for empty in ["<dict/>", "<array/>", "<string/>", "<data/>", "<dict><key/><string/></dict>"] {
            #expect(xmlError(plist(empty)) == nil, "\(empty)")
        }
    }

    @Test func dictionariesHoldKeyValuePairs() {
        let noValue = plist("<dict><key>a</key></dict>")
        #expect(xmlError(noValue)?.offset == offset(of: "</dict>", in: noValue))
        let noKey = plist("<dict><string>a</string></dict>")
        #expect(xmlError(noKey)?.offset == offset(of: "<string>", in: noKey))
        #expect(
            xmlValue(plist("<dict><key>a</key><true/><key>a</key><false/></dict>"))
                == .dictionary([
                    PropertyListEntry(key: .init(.string("a"), at: 170), value: .init(.bool(true), at: 182)),
                    PropertyListEntry(key: .init(.string("a"), at: 189), value: .init(.bool(false), at: 201)),
                ]))
    }

    @Test func textReferencesAndLineEnds() {
        #expect(xmlValue("<plist><string>&amp;&lt;&gt;&quot;&apos;</string></plist>") == .string("&<>\"'"))
        #expect(xmlValue("<plist><string>&#65;&#x42;&#X43;</string></plist>") == nil)
        #expect(xmlValue("<plist><string>&#65;&#x42;&#x1F600;&#0000233;</string></plist>") == .string("AB😀é"))
        #expect(xmlValue("<plist><string>a\rb\r\nc\n\rd&#13;</string></plist>") == .string("a\nb\nc\n\nd\r"))
        #expect(xmlValue("<plist><key>x</key></plist>") == nil)
        #expect(xmlValue("<plist><string>é😀></string></plist>") == .string("é😀>"))
    }

    @Test func onlyThePredefinedEntitiesAndAllowedCharacterReferences() {
        let entity = "<plist><string>a&nbsp;</string></plist>"
        #expect(xmlError(entity)?.offset == 16)
        for reference in [
            "&#0;", "&#x1;", "&#xFFFE;", "&#xD800;", "&#x110000;", "&#99999999999999999999;", "&#;", "&#x;", "&#65",
            "&",
        ] {
            let text = "<plist><string>\(reference)</string></plist>"
            #expect(xmlError(text)?.offset == 15, "\(reference)")
        }
    }

    @Test func rawCharactersMustBeAllowedUTF8() {
        for bad: [UInt8] in [
            [0x01], [0x0C], [0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBF, 0xBE],
            [0xC3],
        ] {
            let bytes = Array("<plist><string>a".utf8) + bad + Array("</string></plist>".utf8)
            #expect(readError(bytes, .xml)?.offset == 16, "\(bad)")
        }
        let inDoctype = Array("<!DOCTYPE ".utf8) + [0xFF] + Array("><plist><true/></plist>".utf8)
        #expect(readError(inDoctype, .xml)?.offset == 10)
    }

    @Test func dataIsCanonicalBase64WithWhitespaceIgnored() {
        #expect(xmlValue("<plist><data>\n\tAAEC\n\tAw==\r\n </data></plist>") == .data([0, 1, 2, 3]))
        #expect(xmlValue("<plist><data></data></plist>") == .data([]))
        #expect(xmlValue("<plist><data> \n </data></plist>") == .data([]))
        // Pad bits not zero: "AB==" has the low 4 bits of B set.
        #expect(xmlError("<plist><data>AB==</data></plist>")?.offset == 14)
        #expect(xmlError("<plist><data>AAB=</data></plist>")?.offset == 15)
        #expect(xmlError("<plist><data>AA</data></plist>")?.offset == 15)
        #expect(xmlError("<plist><data>A===</data></plist>")?.offset == 14)
        #expect(xmlError("<plist><data>AA=A</data></plist>")?.offset == 16)
        #expect(xmlError("<plist><data>AA==AAAA</data></plist>")?.offset == 15)
        #expect(xmlError("<plist><data>AA-_</data></plist>")?.offset == 15)
        #expect(xmlError("<plist><data>AA&#65;A</data></plist>")?.offset == 15)
    }

    @Test func integersFollowTheGrammar() {
        #expect(xmlValue("<plist><integer>9223372036854775807</integer></plist>") == .integer(.max))
        #expect(xmlValue("<plist><integer>-9223372036854775808</integer></plist>") == .integer(.min))
        #expect(xmlValue("<plist><integer>+0000000000000000042</integer></plist>") == .integer(42))
        #expect(xmlValue("<plist><integer>-0</integer></plist>") == .integer(0))
        #expect(xmlError("<plist><integer>9223372036854775808</integer></plist>")?.offset == 16)
        #expect(xmlError("<plist><integer>-9223372036854775809</integer></plist>")?.offset == 16)
        #expect(xmlError("<plist><integer>18446744073709551615</integer></plist>")?.offset == 35)
        #expect(xmlError("<plist><integer> 1</integer></plist>")?.offset == 16)
        #expect(xmlError("<plist><integer>1 </integer></plist>")?.offset == 17)
        #expect(xmlError("<plist><integer>-</integer></plist>")?.offset == 17)
        #expect(xmlError("<plist><integer>0x10</integer></plist>")?.offset == 17)
        #expect(xmlError("<plist><integer></integer></plist>")?.offset == 16)
    }

    @Test func realsFollowTheGrammar() {
        for (text, value) in [
            ("1", 1.0), ("-1.5", -1.5), ("+2.5e3", 2500), ("1E-2", 0.01), ("0.10000000000000001", 0.1),
            ("inf", .infinity),
            ("+inf", .infinity), ("-inf", -.infinity),
        ] {
            #expect(xmlValue("<plist><real>\(text)</real></plist>") == .real(value), "\(text)")
        }
        if case .real(let nan) = xmlValue("<plist><real>nan</real></plist>") {
            #expect(nan.isNaN)
        } else {
            Issue.record("nan does not read")
        }
        for bad in ["1.", ".5", "1e", "1e+", "e5", "+infinity", "-infinity", "NaN", "Inf", "0x1p3", " 1", ""] {
            #expect(xmlError("<plist><real>\(bad)</real></plist>") != nil, "\(bad)")
        }
    }

    @Test func datesFollowTheGrammar() {
        #expect(xmlValue("<plist><date>2001-01-01T00:00:00Z</date></plist>") == .date(0))
        #expect(xmlValue("<plist><date>2000-02-29T23:59:59Z</date></plist>") == .date(-86_400 * 306 - 1))
        #expect(xmlValue("<plist><date>1970-01-01T00:00:00Z</date></plist>") == .date(-978_307_200))
        #expect(xmlError("<plist><date>2001-02-29T00:00:00Z</date></plist>")?.offset == 21)
        #expect(xmlError("<plist><date>2001-13-01T00:00:00Z</date></plist>")?.offset == 18)
        #expect(xmlError("<plist><date>2001-01-01T24:00:00Z</date></plist>")?.offset == 24)
        #expect(xmlError("<plist><date>2001-01-01T00:00:60Z</date></plist>")?.offset == 30)
        #expect(xmlError("<plist><date>2001-01-01 00:00:00Z</date></plist>")?.offset == 23)
        #expect(xmlError("<plist><date>2001-01-01T00:00:00</date></plist>")?.offset == 32)
        #expect(xmlError("<plist><date>2001-01-01T00:00:00.5Z</date></plist>")?.offset == 32)
    }

    /// `levels` nested arrays, the innermost holding `inner`.
    func nested(_ levels: Int, _ inner: String = "") -> String {
        "<plist>" + String(repeating: "<array>", count: levels) + inner + String(repeating: "</array>", count: levels)
            + "</plist>"
    }

    @Test func nesting32DeepReadsAnd33Fails() {
        #expect(xmlError(nested(32)) == nil)
        #expect(xmlError(nested(33))?.offset == 7 + 32 * 7)
        // Only containers count toward the depth, as in JSON: scalars and keys add none.
        #expect(xmlError(nested(32, "<true/>")) == nil)
        #expect(xmlError(nested(31, "<dict><key>a</key><true/></dict>")) == nil)
        #expect(xmlError(nested(32, "<dict/>"))?.offset == 7 + 32 * 7)
        #expect(xmlError(nested(32, "<dict><key>a</key><true/></dict>"))?.offset == 7 + 32 * 7)
        #expect(xmlError(nested(200)) != nil)
    }

    @Test func theValueLimitCountsEveryValue() {
        let count = PropertyListLimits.maximumValues - 1
        let fits = "<plist><array>" + String(repeating: "<true/>", count: count) + "</array></plist>"
        #expect(xmlError(fits) == nil)
        let over = "<plist><array>" + String(repeating: "<true/>", count: count + 1) + "</array></plist>"
        #expect(xmlError(over)?.offset == 14 + count * 7)
    }
}
