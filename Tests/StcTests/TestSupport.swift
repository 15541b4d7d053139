// What every file of this target uses (`StcBinary`, `ConformanceFixtures`, `PackagePaths`, `TemporaryDirectory`)
// comes from the shared test-support target, imported once here for the whole target.
@_exported import _TestSupport
