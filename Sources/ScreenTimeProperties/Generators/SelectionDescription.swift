import ScreenTimeReference

/// Short readable descriptions of selections for counterexamples.
public enum SelectionDescription {
    public static func describe(_ s: FamilyActivitySelection) -> String {
        var parts = [
            "apps \(TokenUniverse.labels(s.applicationTokens))",
            "cats \(TokenUniverse.labels(s.categoryTokens))",
            "webs \(TokenUniverse.labels(s.webDomainTokens))",
            "entire \(s.includeEntireCategory)",
        ]
        let untokenized = [
            s.untokenizedApplicationIdentifiers, s.untokenizedCategoryIdentifiers, s.untokenizedWebDomainIdentifiers,
        ]
        if untokenized.contains(where: { !$0.isEmpty }) {
            parts.append("untokenized \(untokenized.map { $0.sorted().map(\.value) })")
        }
        return "{" + parts.joined(separator: "; ") + "}"
    }
}
