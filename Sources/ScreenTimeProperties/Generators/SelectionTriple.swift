import ScreenTimeReference

/// Pairs and triples of selections over a small universe for the algebra laws.
struct SelectionTriple: Sendable, CustomStringConvertible {
    var a, b, c: FamilyActivitySelection
    var description: String {
        "a \(SelectionDescription.describe(a))\nb \(SelectionDescription.describe(b))\nc \(SelectionDescription.describe(c))"
    }
}
