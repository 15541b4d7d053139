import AuthorizationProperties
import PropertyTesting
import ShieldProperties

/// The catalog of every family (the namespace itself is declared in ShieldProperties, the lowest family module).
/// Each family also has builders that take the function under test (defaulting to the reference), so tests can
/// show that a property catches a deliberately broken implementation.
extension ReferenceProperties {
    /// Every property, in family order (selection, shield, auth, lifecycle, url, deeplink, template).
    public static let catalog = PropertyCatalog(
        selectionProperties + shieldProperties + authorizationProperties + lifecycleProperties + encodingProperties)
}
