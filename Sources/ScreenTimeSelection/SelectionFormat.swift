/// The ways apps store a selection (`SPEC.md` §1.1), by their wire names.
///
/// Rule: each format is read strictly, with a typed error and a byte offset; `base64-json` is the stored string
/// of `SPEC.md` §1, the others hold the same selection as JSON bytes, a JSON document with selections inside
/// (§1.3), or a property list (§1.2). Source: Apple: PropertyListEncoder, JSONEncoder; Field notes.
///
/// ```swift
/// let report = try SelectionDecoder.decode(Array(plistData), format: .binaryPlist)
/// let stored = selection.encoded(as: .xmlPlist)   // what PropertyListEncoder(.xml) would keep
/// ```
public enum SelectionFormat: String, Sendable, CaseIterable {
    /// Base64 text of the selection's JSON (the React Native wrapper's format; `SPEC.md` §1).
    case base64JSON = "base64-json"
    /// The JSON bytes of one selection (`@AppStorage` through a `RawRepresentable`).
    case json
    /// The JSON bytes of any document holding selections, each read on its own (`SPEC.md` §1.3).
    case jsonDocument = "json-document"
    /// A binary property list, `bplist00` (`PropertyListEncoder`'s default).
    case binaryPlist = "binary-plist"
    /// An XML property list (`PropertyListEncoder` with `outputFormat = .xml`).
    case xmlPlist = "xml-plist"
    /// Base64 text of a binary or an XML property list.
    case base64Plist = "base64-plist"

    /// Whether the stored value is base64 text (`base64` on the wire) rather than bytes (`data`).
    public var isBase64Text: Bool { self == .base64JSON || self == .base64Plist }

    /// Whether the format is a property list (its syntax error is `plist`, not `json`).
    public var isPropertyList: Bool { self == .binaryPlist || self == .xmlPlist || self == .base64Plist }

    /// How `stc inspect` names the format.
    public var displayName: String {
        switch self {
        case .base64JSON: "base64 of JSON"
        case .json: "JSON"
        case .jsonDocument: "JSON document"
        case .binaryPlist: "binary property list"
        case .xmlPlist: "XML property list"
        case .base64Plist: "base64 of a property list"
        }
    }

    /// The format stored bytes look like, for `stc inspect` (a guess that names what reading will check, never
    /// a rule of decoding: every decode names its format).
    ///
    /// Rule: `bplist` first is a binary list; `<?xml` or `<plist` after whitespace an XML list; `{` or `[`
    /// after whitespace JSON (`json` when the top level is a selection, otherwise `json-document`, decided by
    /// the caller that has read it); base64 text whose decoded bytes start with `bplist` or `<` is base64 of a
    /// property list; anything else base64 of JSON, so that its error is today's. Source: Definition.
    ///
    /// - Parameter bytes: The stored value.
    /// - Returns: The format to read it as.
    public static func detect(_ bytes: [UInt8]) -> SelectionFormat {
        if bytes.starts(with: Array("bplist".utf8)) { return .binaryPlist }
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        if i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "<"): return .xmlPlist
            case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
            default: break
            }
        }
        // "YnBsaXN0" is base64 of "bplist"; "PD" of "<?" and "<p".
        if bytes.starts(with: Array("YnBsaXN0".utf8)) || bytes.starts(with: Array("PD".utf8)) { return .base64Plist }
        return .base64JSON
    }
}
