import Testing

@testable import StrictPropertyList

/// The deviations of /work/notes-plist.md §4: inputs Linux Foundation accepts (or crashes or hangs on) that SPEC
/// §1.2 refuses. Foundation's side was measured out of process (a set traps it, the DAG does not finish), so these
/// tests pin only ours: every one is a `plist` error, quickly.
@Suite struct DeviationTests {
    /// An XML document with the usual prologue around `inner`.
    static func xml(_ inner: String) -> [UInt8] { Array(plist(inner).utf8) }

    /// A binary list of raw `objects` (1-byte references and offsets unless given).
    static func binary(_ objects: [[UInt8]], referenceSize: Int = 1, offsetSize: Int = 1) -> [UInt8] {
        var list = HandBuiltBinaryList(objects)
        list.referenceSize = referenceSize
        list.offsetSize = offsetSize
        return list.bytes
    }

    static let refusedXML: [(String, [UInt8])] = [
        ("comment inside <dict>", xml("<dict><!-- c --><key>a</key><true/></dict>")),
        ("comment before <plist>", Array("<!-- c --><plist><true/></plist>".utf8)),
        ("CDATA in <string>", xml("<string><![CDATA[a<b]]></string>")),
        ("processing instruction in <array>", xml("<array><?pi x?><true/></array>")),
        ("undeclared entity", xml("<string>a&nbsp;b</string>")),
        (
            "entity from an internal subset",
            Array("<!DOCTYPE plist [<!ENTITY e \"EE\">]><plist><string>&e;</string></plist>".utf8)
        ),
        ("attribute on <string>", xml("<string a=\"b\">x</string>")),
        ("space in a tag", xml("<string >x</string>")),
        ("<true />", xml("<true />")),
        ("byte order mark", [0xEF, 0xBB, 0xBF] + xml("<true/>")),
        ("base64 pad bits not zero", xml("<data>AB==</data>")),
        ("base64 without padding", xml("<data>AA</data>")),
        ("base64 URL-safe alphabet", xml("<data>AA-_</data>")),
        ("base64 junk character", xml("<data>AA*A</data>")),
        ("base64 after padding", xml("<data>AA==AAAA</data>")),
        ("integer with a leading space", xml("<integer> 1</integer>")),
        ("integer in hex", xml("<integer>0x10</integer>")),
        ("integer above Int64.max", xml("<integer>18446744073709551615</integer>")),
        ("real +infinity", xml("<real>+infinity</real>")),
        ("real 1.", xml("<real>1.</real>")),
        ("real .5", xml("<real>.5</real>")),
        ("date 2001-02-29", xml("<date>2001-02-29T00:00:00Z</date>")),
        ("date second 60", xml("<date>2001-01-01T00:00:60Z</date>")),
        ("nesting 33", xml(String(repeating: "<array>", count: 33) + String(repeating: "</array>", count: 33))),
        ("raw U+0001", xml("<string>a\u{1}b</string>")),
        ("&#0;", xml("<string>a&#0;b</string>")),
        ("&#xFFFE;", xml("<string>&#xFFFE;</string>")),
        ("raw CR kept by Foundation is fine, but U+FFFE raw is not", xml("<string>a\u{FFFE}b</string>")),
        ("text after </plist>", xml("<true/>") + Array("junk".utf8)),
        ("a second value after </plist>", xml("<true/>") + Array("<true/>".utf8)),
        ("<key> as a value", xml("<key>a</key>")),
        ("no <plist> root", Array("<dict/>".utf8)),
        ("two DOCTYPEs", Array("<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>".utf8)),
        ("<?xml-stylesheet?>", Array("<?xml-stylesheet href='a'?><plist><true/></plist>".utf8)),
        ("whitespace before the declaration", Array(" ".utf8) + xml("<true/>")),
    ]

    static let refusedBinary: [(String, [UInt8])] = [
        ("null 0x00", binary([[0x00]])),
        ("set 0xC1 (traps Linux Foundation)", binary([[0xC1, 1], [0x51, 0x61]])),
        ("ASCII byte 0x80", binary([[0x53, 0x41, 0x80, 0x41]])),
        ("lone surrogate", binary([[0x61, 0xD8, 0x3D]])),
        ("integer key", binary([[0xD1, 1, 2], [0x10, 1], [0x09]])),
        ("data key", binary([[0xD1, 1, 2], [0x41, 1], [0x09]])),
        ("nesting 33", binary((0..<33).map { $0 == 32 ? [0xA0] : [0xA1, UInt8($0 + 1)] })),
        ("16-byte integer, high half nonzero", binary([[0x14] + bigEndian(1, 8) + bigEndian(0, 8)])),
        ("reference size 3", binary([[0xA1, 0, 0, 1], [0x09]], referenceSize: 3)),
        ("offset size 3", binary([[0x09]], offsetSize: 3)),
        ("header bplist01", Array("bplist01".utf8) + binary([[0x09]]).dropFirst(8)),
    ]

    @Test func everyXMLDeviationIsRefused() {
        for (name, bytes) in Self.refusedXML {
            #expect(readError(bytes, .xml) != nil, "\(name)")
        }
    }

    @Test func everyBinaryDeviationIsRefused() {
        for (name, bytes) in Self.refusedBinary {
            #expect(readError(bytes, .binary) != nil, "\(name)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theSharedReferenceBombThatHangsFoundationIsRefusedQuickly() {
        var objects: [[UInt8]] = (0..<30).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x78])
        #expect(readError(Self.binary(objects), .binary)?.detail.contains("values") == true)
    }

    @Test func whatBothAccept() {
        #expect(readError(Self.xml("<real>inf</real>"), .xml) == nil)
        #expect(readError(Self.xml("<dict><key>a</key><true/><key>a</key><false/></dict>"), .xml) == nil)
        #expect(readError(Self.binary([[0x80, 0x05]]), .binary) == nil)
        #expect(readError(Self.xml("<string>a]]>b</string>"), .xml) == nil)
    }
}
