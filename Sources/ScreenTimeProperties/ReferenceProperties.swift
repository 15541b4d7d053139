import PropertyTesting

/// The named properties of the reference (`SPEC.md` §1–§4, §8, §9), family by family: `selection.*`, `shield.*`,
/// `auth.*`, `lifecycle.*`, `url.*`, `deeplink.*`, `template.*`, `activity.*` (§8), `settings.*` (§9). Each family is an extension in a file of its
/// own, `Properties/ReferenceProperties+<Family>.swift` (`auth.*` in `+Authorization`), with builders that take
/// the function under test (a subject in `Subjects/`, defaulting to the reference), so a test can show that a
/// property catches a deliberately broken implementation. The independent oracles are in `Models/`; the
/// generators and the values they draw in `Generators/`.
///
/// ```swift
/// let result = ReferenceProperties.catalog.property(named: "shield.matches-model")?.check(RunConfiguration(seed: 7))
/// ```
public enum ReferenceProperties {
    /// Every property, in family order (selection, shield, auth, lifecycle, url, deeplink, template, activity, settings): what
    /// `stc check` and `swift test` run.
    public static let catalog = PropertyCatalog(
        selectionProperties + shieldProperties + authorizationProperties + lifecycleProperties + urlProperties
            + deepLinkProperties + templateProperties + activityProperties + settingsProperties)
}
