/// The namespace of the named properties of the reference (`SPEC.md` §1–§4). Each family's module adds its own
/// (ShieldProperties: `shield.*`; AuthorizationProperties: `auth.*`, `lifecycle.*`; ReferenceProperties: selection,
/// url, deeplink, template), and `ReferenceProperties.catalog` (module ReferenceProperties) lists them all for
/// `stc check` and `swift test`. Declared here, in the lowest of those modules, so that the structured fuzz
/// targets can link the shield and auth families without the rest of the catalog.
public enum ReferenceProperties {}
