import ScreenTimeReference

/// How one JSON text of a selection is written: everything that may vary without changing the selection.
public struct SelectionJSONStyle: Sendable, Hashable, CustomStringConvertible {
    /// Whitespace written around every separator.
    public var whitespace: String = ""
    /// Write `/` as `\/` (JSONEncoder does).
    public var escapeSlashes: Bool = true
    /// Write every non-ASCII scalar as `\uXXXX` (surrogate pairs above the BMP).
    public var asciiOnly: Bool = false
    /// Leave out `includeEntireCategory` when false, and empty `untokenized*` arrays (older encodings).
    public var omitOptional: Bool = false
    /// Unknown top-level members added (ignored by decoders).
    public var unknownMembers: Int = 0
    /// An extra member in each token object (ignored).
    public var tokenExtraMember: Bool = false

    public init() {}

    public var description: String {
        var parts: [String] = []
        if !whitespace.isEmpty { parts.append("whitespace \(String(reflecting: whitespace))") }
        if !escapeSlashes { parts.append("raw slashes") }
        if asciiOnly { parts.append("\\u escapes") }
        if omitOptional { parts.append("optional members omitted") }
        if unknownMembers > 0 { parts.append("\(unknownMembers) unknown member(s)") }
        if tokenExtraMember { parts.append("extra member in tokens") }
        return parts.isEmpty ? "compact" : parts.joined(separator: ", ")
    }
}
