import AuthorizationProperties
import PropertyTesting
import ShieldProperties

/// The named properties of the whole reference (`SPEC.md` §1–§4), runnable by name from `stc check` and from
/// `swift test`. Each family also has builders that take the function under test (defaulting to the reference),
/// so tests can show that a property catches a deliberately broken implementation.
extension ReferenceProperties {
    /// Every property, in family order (selection, shield, auth, lifecycle, url, deeplink, template).
    public static let catalog = PropertyCatalog(
        selectionProperties + shieldProperties + authorizationProperties + lifecycleProperties + encodingProperties)
}
