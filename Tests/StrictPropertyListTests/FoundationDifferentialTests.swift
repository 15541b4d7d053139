import Foundation
import Testing

@testable import StrictPropertyList

/// Our writers against Foundation's reader, and Foundation's writers against our reader (on Linux,
/// swift-corelibs-foundation). What Foundation does outside SPEC §1.2 is pinned by the tests at the end, and listed
/// in /work/notes-plist.md.
@Suite struct FoundationDifferentialTests {
    /// Values both sides hold faithfully in both formats: no infinities (Foundation's XML writer spells them
    /// `+infinity`), no carriage returns or forbidden scalars in strings, whole-second dates, integers in Int64.
    static let values: [PropertyListNode] = [
        dict([
            ("applicationTokens", arr([dict([("data", PropertyListNode(.data(Array(0..<128))))])])),
            ("categoryTokens", arr([])),
            ("includeEntireCategory", PropertyListNode(.bool(true))),
            ("untokenizedApplicationIdentifiers", arr([str("café"), str("日本語"), str("😀 astral 𝄞"), str("")])),
            ("webDomainTokens", arr([dict([])])),
            ("x&y<z>", str("a&b<c>d\"e'f\tg\nh")),
        ]),
        arr([
            PropertyListNode(.bool(false)), PropertyListNode(.integer(0)), PropertyListNode(.integer(255)),
            PropertyListNode(.integer(256)), PropertyListNode(.integer(65_536)),
            PropertyListNode(.integer(4_294_967_296)),
            PropertyListNode(.integer(.max)), PropertyListNode(.integer(-1)), PropertyListNode(.integer(.min)),
            PropertyListNode(.real(0)), PropertyListNode(.real(0.1)), PropertyListNode(.real(-2.5e-300)),
            PropertyListNode(.real(1e300)), PropertyListNode(.real(.pi)), PropertyListNode(.date(0)),
            PropertyListNode(.date(-978_307_200)), PropertyListNode(.date(786_000_000)), PropertyListNode(.data([])),
            PropertyListNode(.data(Array(repeating: 0xAB, count: 2000))),
            str(String(repeating: "long ascii ", count: 40)), str(String(repeating: "é", count: 300)),
        ]),
        arr([str("shared"), str("shared"), dict([("shared", str("shared"))])]),
    ]

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func foundationReadsOurOutputAsTheSameValues(format: PropertyListFormat) throws {
        for value in Self.values {
            let bytes = format == .binary ? PropertyListWriter.binary(value) : PropertyListWriter.xml(value)
            var read = PropertyListSerialization.PropertyListFormat.openStep
            let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &read)
            #expect(read == (format == .binary ? .binary : .xml))
            #expect(Self.value(fromFoundation: object) == Self.sorted(value))
        }
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func weReadFoundationOutputAsTheSameValues(format: PropertyListFormat) throws {
        for value in Self.values {
            let bytes = try PropertyListSerialization.data(
                fromPropertyList: Self.foundationObject(value), format: format == .binary ? .binary : .xml, options: 0)
            let node = try PropertyListReader.read(Array(bytes), as: format)
            #expect(Self.sorted(node) == Self.sorted(value))
        }
    }

    /// The shape `PropertyListEncoder` writes for a selection (SPEC §1.1): tokens as one-member dictionaries.
    struct Token: Codable {
        var data: Data
    }

    /// A selection-shaped value.
    struct Selection: Codable {
        var applicationTokens: [Token]
        var categoryTokens: [Token]
        var webDomainTokens: [Token]
        var includeEntireCategory: Bool
        var untokenizedApplicationIdentifiers: [String]
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func weReadWhatPropertyListEncoderWrites(format: PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .binary ? .binary : .xml
        let token = Data((0..<128).map { UInt8($0 < 12 ? 0 : $0) })
        let selection = Selection(
            applicationTokens: [Token(data: token), Token(data: token)], categoryTokens: [], webDomainTokens: [],
            includeEntireCategory: true, untokenizedApplicationIdentifiers: ["com.example.é"])
        let node = try PropertyListReader.read(Array(try encoder.encode(selection)), as: format)
        let tokenNode = dict([("data", PropertyListNode(.data(Array(token))))])
        #expect(
            Self.sorted(node)
                == Self.sorted(
                    dict([
                        ("applicationTokens", arr([tokenNode, tokenNode])), ("categoryTokens", arr([])),
                        ("webDomainTokens", arr([])), ("includeEntireCategory", PropertyListNode(.bool(true))),
                        ("untokenizedApplicationIdentifiers", arr([str("com.example.é")])),
                    ])))
    }

    // MARK: - What Foundation writes that SPEC §1.2 refuses

    @Test func foundationWritesInfinityAsPlusInfinityWhichWeRefuse() throws {
        let bytes = try PropertyListSerialization.data(
            fromPropertyList: [Double.infinity, -Double.infinity], format: .xml, options: 0)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<real>+infinity</real>"))
        #expect(text.contains("<real>-infinity</real>"))
        #expect(readError(Array(bytes), .xml)?.detail.contains("<real>") == true)
        // The binary format has no spelling, so infinities read there.
        let binary = try PropertyListSerialization.data(
            fromPropertyList: [Double.infinity], format: .binary, options: 0)
        #expect(try stripped(PropertyListReader.read(Array(binary), as: .binary)) == arr([.init(.real(.infinity))]))
    }

    @Test func foundationWritesForbiddenControlCharactersRawWhichWeRefuse() throws {
        let bytes = try PropertyListSerialization.data(fromPropertyList: ["a\u{1}b"], format: .xml, options: 0)
        #expect(Array(bytes).contains(0x01))
        #expect(readError(Array(bytes), .xml)?.detail.contains("not allowed in XML") == true)
    }

    @Test func foundationWritesCarriageReturnsRawWhichReadAsLineFeeds() throws {
        let bytes = try PropertyListSerialization.data(fromPropertyList: ["a\rb"], format: .xml, options: 0)
        #expect(Array(bytes).contains(0x0D))
        #expect(try PropertyListReader.read(Array(bytes), as: .xml).value.arrayStrings == ["a\nb"])
    }

    @Test func foundationWritesUInt64AboveInt64MaxAsTwentyDigitsWhichWeRefuse() throws {
        let bytes = try PropertyListSerialization.data(fromPropertyList: [UInt64.max], format: .xml, options: 0)
        #expect(String(decoding: bytes, as: UTF8.self).contains("<integer>18446744073709551615</integer>"))
        #expect(readError(Array(bytes), .xml) != nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: [UInt64.max], format: .binary, options: 0)
        #expect(
            try stripped(PropertyListReader.read(Array(binary), as: .binary)) == arr([.init(.unsignedInteger(.max))]))
    }

    @Test func foundationWrapsLongDataWhichWeRead() throws {
        let bytes = try PropertyListSerialization.data(
            fromPropertyList: [Data(repeating: 7, count: 200)], format: .xml, options: 0)
        #expect(
            try PropertyListReader.read(Array(bytes), as: .xml).value.arrayData == [[UInt8](repeating: 7, count: 200)])
    }

    // MARK: - Conversions

    /// `node` with offsets cleared and dictionary members sorted by key (Foundation keeps no order).
    static func sorted(_ node: PropertyListNode) -> PropertyListNode {
        switch node.value {
        case .array(let elements):
            return PropertyListNode(.array(elements.map(sorted)))
        case .dictionary(let members):
            let entries = members.map {
                PropertyListEntry(key: PropertyListNode($0.key.value), value: sorted($0.value))
            }
            return PropertyListNode(
                .dictionary(
                    entries.sorted { $0.keyText.unicodeScalars.lexicographicallyPrecedes($1.keyText.unicodeScalars) }))
        default:
            return PropertyListNode(node.value)
        }
    }

    /// The Foundation object of `node`.
    static func foundationObject(_ node: PropertyListNode) -> Any {
        switch node.value {
        case .dictionary(let members):
            var result: [String: Any] = [:]
            for member in members { result[member.keyText] = foundationObject(member.value) }
            return result
        case .array(let elements): return elements.map(foundationObject)
        case .string(let text): return text
        case .data(let bytes): return Data(bytes)
        case .bool(let flag): return flag
        case .integer(let number): return number
        case .unsignedInteger(let number): return number
        case .real(let number): return number
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .uid: return "uid"
        }
    }

    /// The node of what Foundation read, with dictionary members sorted by key.
    static func value(fromFoundation object: Any) -> PropertyListNode? {
        if type(of: object) == Bool.self, let flag = object as? Bool { return PropertyListNode(.bool(flag)) }
        if let text = object as? String { return PropertyListNode(.string(text)) }
        if let data = object as? Data { return PropertyListNode(.data(Array(data))) }
        if let date = object as? Date { return PropertyListNode(.date(date.timeIntervalSinceReferenceDate)) }
        if let number = object as? NSNumber {
            let type = String(cString: number.objCType)
            if type == "d" || type == "f" { return PropertyListNode(.real(number.doubleValue)) }
            if type == "c" || type == "B" { return PropertyListNode(.bool(number.boolValue)) }
            return PropertyListNode(.integer(number.int64Value))
        }
        if let array = object as? [Any] {
            var elements: [PropertyListNode] = []
            for element in array {
                guard let node = value(fromFoundation: element) else { return nil }
                elements.append(node)
            }
            return PropertyListNode(.array(elements))
        }
        if let dictionary = object as? [AnyHashable: Any] {
            var members: [PropertyListEntry] = []
            for (key, element) in dictionary {
                guard let text = key.base as? String, let node = value(fromFoundation: element) else { return nil }
                members.append(PropertyListEntry(key: str(text), value: node))
            }
            return sorted(PropertyListNode(.dictionary(members)))
        }
        return nil
    }
}

extension PropertyListValue {
    /// The strings of an array of strings.
    var arrayStrings: [String]? {
        guard case .array(let elements) = self else { return nil }
        return elements.compactMap { $0.value.stringValue }
    }

    /// The bytes of an array of data.
    var arrayData: [[UInt8]]? {
        guard case .array(let elements) = self else { return nil }
        return elements.compactMap {
            if case .data(let bytes) = $0.value { return bytes }
            return nil
        }
    }
}
