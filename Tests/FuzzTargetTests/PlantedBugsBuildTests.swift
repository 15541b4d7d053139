import Foundation
import StrictJSON
import Testing

/// The bug-finding benchmark's planted bugs (docs/BUG-FINDING.md) exist only in its own builds: no normal build,
/// this one included, compiles them in, and the manifest defines their condition only when asked to.
@Suite struct PlantedBugsBuildTests {
    @Test func thisBuildHasNoPlantedBug() {
        #expect(!plantedBugsCompiledIn, "swift test ran on a build with STC_PLANTED_BUGS defined")
        #expect(ProcessInfo.processInfo.environment["STC_PLANTED_BUG"] == nil)
    }

    @Test func theManifestDefinesTheConditionNowhereByDefault() throws {
        let manifest = try PackageManifest.dump()
        let defining = manifest.defines.filter { $0.value.contains("STC_PLANTED_BUGS") }.keys.sorted()
        #expect(defining.isEmpty, "defined in \(defining)")
    }

    /// With STC_PLANTED_BUGS=1 the reference's modules, and only they, get the condition.
    @Test func theBenchmarkBuildDefinesItForTheReferenceOnly() throws {
        let manifest = try PackageManifest.dump(environment: ["STC_PLANTED_BUGS": "1"])
        let defining = manifest.defines.filter { $0.value.contains("STC_PLANTED_BUGS") }.keys.sorted()
        #expect(defining == ["ScreenTimeEncoding", "ScreenTimeReference", "ScreenTimeSelection", "StrictJSON"])
    }
}
