import Testing

@testable import StrictPropertyList

/// Writer → reader gives the same values, in both formats (SPEC §1.1 "Canonical output per format").
@Suite struct RoundTripTests {
    /// Values both formats hold faithfully.
    static let samples: [PropertyListNode] = [
        dict([
            ("applicationTokens", arr([dict([("data", PropertyListNode(.data(Array(0..<128))))])])),
            ("categoryTokens", arr([])),
            ("includeEntireCategory", PropertyListNode(.bool(true))),
            ("nested", dict([("deeper", dict([("deepest", arr([str("x"), str("x"), dict([])]))]))])),
            ("untokenizedApplicationIdentifiers", arr([str("café"), str("日本語"), str("😀 astral 𝄞"), str("")])),
            ("webDomainTokens", arr([])),
        ]),
        arr([
            PropertyListNode(.bool(false)), PropertyListNode(.bool(true)), PropertyListNode(.integer(0)),
            PropertyListNode(.integer(255)), PropertyListNode(.integer(256)), PropertyListNode(.integer(65_535)),
            PropertyListNode(.integer(65_536)), PropertyListNode(.integer(4_294_967_295)),
            PropertyListNode(.integer(4_294_967_296)), PropertyListNode(.integer(.max)), PropertyListNode(.integer(-1)),
            PropertyListNode(.integer(.min)),
        ]),
        arr([
            PropertyListNode(.real(0)), PropertyListNode(.real(-0.0)), PropertyListNode(.real(0.1)),
            PropertyListNode(.real(1e300)), PropertyListNode(.real(-2.5e-300)),
            PropertyListNode(.real(.leastNonzeroMagnitude)),
            PropertyListNode(.real(.infinity)), PropertyListNode(.real(-.infinity)), PropertyListNode(.real(.pi)),
            PropertyListNode(.date(0)), PropertyListNode(.date(-978_307_200)), PropertyListNode(.date(786_000_000)),
            PropertyListNode(.date(-63_113_904_000)),
        ]),
        str("a&b<c>d\"e'f\rg\r\nh\ti\nj"),
        str(String(repeating: "long ascii ", count: 40)),
        str(String(repeating: "é", count: 300)),
        PropertyListNode(.data([])),
    ]

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func samplesReadBack(format: PropertyListFormat) throws {
        for sample in Self.samples {
            let bytes = format == .binary ? PropertyListWriter.binary(sample) : PropertyListWriter.xml(sample)
            let back = try PropertyListReader.read(bytes, as: format)
            #expect(stripped(back) == sample)
        }
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func dataOf0To2000BytesReadsBack(format: PropertyListFormat) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for count in 0...2000 {
            let bytes: [UInt8] = (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let node = arr([PropertyListNode(.data(bytes))])
            let written = format == .binary ? PropertyListWriter.binary(node) : PropertyListWriter.xml(node)
            #expect(try stripped(PropertyListReader.read(written, as: format)) == node)
        }
    }

    @Test func nanReadsBackAsNaN() throws {
        for format in PropertyListFormat.allCases {
            let node = PropertyListNode(.real(.nan))
            let bytes = format == .binary ? PropertyListWriter.binary(node) : PropertyListWriter.xml(node)
            guard case .real(let value) = try PropertyListReader.read(bytes, as: format).value else {
                Issue.record("not a real")
                continue
            }
            #expect(value.isNaN)
        }
    }

    @Test func binaryOnlyValuesReadBack() throws {
        let node = arr([
            PropertyListNode(.unsignedInteger(.max)), PropertyListNode(.uid(0)), PropertyListNode(.uid(300)),
            PropertyListNode(.uid(.max)), PropertyListNode(.date(0.25)), PropertyListNode(.unsignedInteger(3)),
        ])
        let back = try stripped(PropertyListReader.read(PropertyListWriter.binary(node), as: .binary))
        #expect(
            back
                == arr([
                    PropertyListNode(.unsignedInteger(.max)), PropertyListNode(.uid(0)), PropertyListNode(.uid(300)),
                    PropertyListNode(.uid(.max)), PropertyListNode(.date(0.25)), PropertyListNode(.integer(3)),
                ]))
    }

    @Test func theBinaryWriterWritesEachStringAndDataOnce() {
        let node = dict([
            ("a", str("a")), ("b", arr([str("a"), PropertyListNode(.data([1])), PropertyListNode(.data([1]))])),
        ])
        let bytes = PropertyListWriter.binary(node)
        // dict, "a", "b", array, data: 5 objects.
        #expect(bigEndian(5, 8) == Array(bytes[(bytes.count - 24)..<(bytes.count - 16)]))
        // Canonically equivalent strings with different scalars are distinct objects.
        let composed = arr([str("\u{E9}"), str("e\u{301}")])
        let composedBytes = PropertyListWriter.binary(composed)
        #expect(bigEndian(3, 8) == Array(composedBytes[(composedBytes.count - 24)..<(composedBytes.count - 16)]))
        if case .array(let elements) = try? PropertyListReader.read(composedBytes, as: .binary).value {
            #expect(
                elements.map { Array(($0.value.stringValue ?? "").unicodeScalars) } == [["\u{E9}"], ["e", "\u{301}"]])
        } else {
            Issue.record("does not read back")
        }
    }

    @Test func theBinaryWriterUsesTheSmallestSizes() {
        let small = PropertyListWriter.binary(PropertyListNode(.bool(true)))
        #expect(
            small == Array("bplist00".utf8) + [0x09, 8] + [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1, 8) + bigEndian(0, 8)
                + bigEndian(9, 8))
        let many = arr((0..<300).map { PropertyListNode(.integer(Int64($0))) })
        let bytes = PropertyListWriter.binary(many)
        #expect(bytes[bytes.count - 26] == 2)  // offsets reach past 255
        #expect(bytes[bytes.count - 25] == 2)  // 301 objects
        #expect(bytes[8] == 0xAF)
        #expect(Array(bytes[9..<12]) == [0x11, 0x01, 0x2C])
    }

    @Test func theXMLWriterLayout() {
        let node = dict([
            ("a", arr([PropertyListNode(.data([1, 2, 3])), PropertyListNode(.data([]))])), ("b", dict([])),
            ("c", str("x&y<z>")), ("d", arr([])), ("e", PropertyListNode(.integer(-5))),
            ("f", PropertyListNode(.real(1.5))),
            ("g", PropertyListNode(.date(0))), ("h", PropertyListNode(.bool(false))), ("i", str("")),
        ])
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<array>
            \t\t<data>
            \t\tAQID
            \t\t</data>
            \t\t<data>
            \t\t</data>
            \t</array>
            \t<key>b</key>
            \t<dict/>
            \t<key>c</key>
            \t<string>x&amp;y&lt;z&gt;</string>
            \t<key>d</key>
            \t<array/>
            \t<key>e</key>
            \t<integer>-5</integer>
            \t<key>f</key>
            \t<real>1.5</real>
            \t<key>g</key>
            \t<date>2001-01-01T00:00:00Z</date>
            \t<key>h</key>
            \t<false/>
            \t<key>i</key>
            \t<string></string>
            </dict>
            </plist>

            """
        #expect(String(decoding: PropertyListWriter.xml(node), as: UTF8.self) == expected)
    }

    @Test func whatXMLCannotHoldIsDocumentedAsNotReadingBack() throws {
        // A scalar XML forbids is written as a reference the reader refuses, not dropped silently.
        let bytes = PropertyListWriter.xml(str("a\u{0}b"))
        #expect(String(decoding: bytes, as: UTF8.self).contains("<string>a&#0;b</string>"))
        #expect(readError(bytes, .xml) != nil)
        // Dates keep whole seconds only.
        #expect(
            try PropertyListReader.read(PropertyListWriter.xml(PropertyListNode(.date(1.75))), as: .xml).value
                == .date(1))
        #expect(
            try PropertyListReader.read(PropertyListWriter.xml(PropertyListNode(.date(-0.5))), as: .xml).value
                == .date(-1))
    }
}

extension PropertyListValue {
    /// The text of a string value.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
