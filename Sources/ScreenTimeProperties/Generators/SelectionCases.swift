import ScreenTimeReference

// The case types the selection properties generate: a selection with a stored string of it, two JSON texts of
// one selection, and the triples of the algebra laws.

/// A selection with one of its stored strings.
public struct EncodedSelection: Sendable, CustomStringConvertible {
    public var selection: FamilyActivitySelection
    public var document: SelectionJSONDocument
    public var base64: String { document.base64 }
    public var description: String {
        "selection \(SelectionDescription.describe(selection))\n  written \(document.style): \(String(decoding: document.json, as: UTF8.self))"
    }
}

/// Two JSON texts of one selection.
struct TwoEncodings: Sendable, CustomStringConvertible {
    var selection: FamilyActivitySelection
    var first: SelectionJSONDocument
    var second: SelectionJSONDocument
    var description: String {
        "selection \(SelectionDescription.describe(selection))\n  first (\(first.style)):  \(String(decoding: first.json, as: UTF8.self))\n  second (\(second.style)): \(String(decoding: second.json, as: UTF8.self))"
    }
}

/// Pairs and triples of selections over a small universe for the algebra laws.
struct SelectionTriple: Sendable, CustomStringConvertible {
    var a, b, c: FamilyActivitySelection
    var description: String {
        "a \(SelectionDescription.describe(a))\nb \(SelectionDescription.describe(b))\nc \(SelectionDescription.describe(c))"
    }
}
