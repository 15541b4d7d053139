/// Set algebra on selections (ours, `SPEC.md` §1), kind by kind.
///
/// The result's `includeEntireCategory` is true iff each operand either has it true or has no category tokens
/// (the rule react-native-device-activity uses); its untokenized identifiers are empty, as in a fresh selection.
///
/// ```swift
/// let both = social.union(games)            // 2 categories
/// let rest = all.subtracting(games)         // 12 of 13
/// ```
extension FamilyActivitySelection {
    public func union(_ other: FamilyActivitySelection) -> FamilyActivitySelection {
        combined(with: other, .union)
    }

    public func intersection(_ other: FamilyActivitySelection) -> FamilyActivitySelection {
        combined(with: other, .intersection)
    }

    public func subtracting(_ other: FamilyActivitySelection) -> FamilyActivitySelection {
        combined(with: other, .difference)
    }

    public func symmetricDifference(_ other: FamilyActivitySelection) -> FamilyActivitySelection {
        combined(with: other, .symmetricDifference)
    }

    /// The four operations, by their names in the vector format.
    public enum SetOperation: String, Sendable, CaseIterable {
        case union
        case intersection
        case difference
        case symmetricDifference

        func apply<T>(_ a: Set<T>, _ b: Set<T>) -> Set<T> {
            switch self {
            case .union: return a.union(b)
            case .intersection: return a.intersection(b)
            case .difference: return a.subtracting(b)
            case .symmetricDifference: return a.symmetricDifference(b)
            }
        }
    }

    public func combined(with other: FamilyActivitySelection, _ operation: SetOperation) -> FamilyActivitySelection {
        let entire =
            (includeEntireCategory || categoryTokens.isEmpty)
            && (other.includeEntireCategory || other.categoryTokens.isEmpty)
        var result = FamilyActivitySelection(includeEntireCategory: entire)
        result.applicationTokens = operation.apply(applicationTokens, other.applicationTokens)
        result.categoryTokens = operation.apply(categoryTokens, other.categoryTokens)
        result.webDomainTokens = operation.apply(webDomainTokens, other.webDomainTokens)
        return result
    }
}
