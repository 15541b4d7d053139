import PropertyTesting

/// The named properties of the reference (`SPEC.md` §1–§4), family by family: `selection.*`, `shield.*`,
/// `auth.*`, `lifecycle.*`, `url.*`, `deeplink.*`, `template.*`. Each family is an extension in
/// `Properties/ReferenceProperties+<Family>.swift`, with builders that take the function under test (defaulting to the
/// reference), so a test can show that a property catches a deliberately broken implementation.
///
/// ```swift
/// let result = ReferenceProperties.catalog.property(named: "shield.matches-model")?.check(RunConfiguration(seed: 7))
/// ```
public enum ReferenceProperties {
    /// Every property, in family order (selection, shield, auth, lifecycle, url, deeplink, template): what
    /// `stc check` and `swift test` run.
    public static let catalog = PropertyCatalog(
        selectionProperties + shieldProperties + authorizationProperties + lifecycleProperties + encodingProperties)
}
