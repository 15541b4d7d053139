import ScreenTimeReference

/// A selection with one of its stored strings.
public struct EncodedSelection: Sendable, CustomStringConvertible {
    public var selection: FamilyActivitySelection
    public var document: SelectionJSONDocument
    public var base64: String { document.base64 }
    public var description: String {
        "selection \(SelectionDescription.describe(selection))\n  written \(document.style): \(String(decoding: document.json, as: UTF8.self))"
    }
}
