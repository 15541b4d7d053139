import ScreenTimeReference

/// Two JSON texts of one selection.
struct TwoEncodings: Sendable, CustomStringConvertible {
    var selection: FamilyActivitySelection
    var first: SelectionJSONDocument
    var second: SelectionJSONDocument
    var description: String {
        "selection \(SelectionDescription.describe(selection))\n  first (\(first.style)):  \(String(decoding: first.json, as: UTF8.self))\n  second (\(second.style)): \(String(decoding: second.json, as: UTF8.self))"
    }
}
