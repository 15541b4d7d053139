// `import ReferenceProperties` brings every property family and every fuzz target: the shield and auth families
// and the structured targets that run them live in modules of their own (which the `shield` and `auth` fuzz
// binaries link without the rest of the catalog: libFuzzer scans every coverage counter after each execution).
@_exported import AuthorizationProperties
@_exported import ShieldProperties
@_exported import StructuredFuzzTargets
