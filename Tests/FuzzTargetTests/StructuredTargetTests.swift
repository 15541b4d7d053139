import Foundation
import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import Testing

@testable import _StructuredFuzzTargets

/// The structured fuzz targets (`shield`, `auth`, `settings`): which properties they run, and what their seeds hold.
@Suite struct StructuredTargetTests {
    /// The structured fuzz targets run the catalog's families: the same properties, in the same order (libFuzzer
    /// picks one by index).
    @Test func structuredTargetsRunTheirFamiliesInCatalogOrder() {
        let names = ReferenceProperties.catalog.names
        #expect(FuzzTargets.shieldFamily.map(\.name) == names.filter { $0.hasPrefix("shield.") })
        #expect(
            FuzzTargets.authFamily.map(\.name) == names.filter { $0.hasPrefix("auth.") || $0.hasPrefix("lifecycle.") })
        #expect(FuzzTargets.settingsFamily.map(\.name) == names.filter { $0.hasPrefix("settings.") })
        #expect(
            FuzzTargets.shieldFamily.count >= 10 && FuzzTargets.authFamily.count >= 8
                && FuzzTargets.settingsFamily.count >= 6)
    }
}

/// The `shield`, `auth` and `settings` seed files decode to the cases they are named after.
@Suite struct StructuredSeedTests {
    static let corpus = CorpusReplayTests.corpus

    @Test func authSeedsAreTheNamedPrograms() throws {
        let machine = ReferenceProperties.grantMachine { EnvironmentGrantSystem() }
        for seed in StructuredSeeds.auth {
            let program = machine.programs.generate(from: seed.bytes)
            #expect(program.map(\.description).joined(separator: ", ") == seed.program, "\(seed.name)")
            let file = try Data(contentsOf: Self.corpus.appendingPathComponent("auth/\(seed.name)"))
            #expect(Array(file) == seed.bytes, "corpus/auth/\(seed.name) holds the seed's bytes")
        }
    }

    @Test func shieldSeedsShowWhatTheirNamesSay() throws {
        for seed in StructuredSeeds.shield {
            let file = try Data(contentsOf: Self.corpus.appendingPathComponent("shield/\(seed.name)"))
            let scenario = Gen<ShieldScenario>.shieldScenario().generate(from: Array(file))
            #expect(seed.holds(scenario), "corpus/shield/\(seed.name) decodes to\n\(scenario)")
        }
    }

    @Test func settingsSeedsShowWhatTheirNamesSay() throws {
        for seed in StructuredSeeds.settings {
            let file = try Data(contentsOf: Self.corpus.appendingPathComponent("settings/\(seed.name)"))
            let scenario = Gen<SettingsScenario>.settingsScenario().generate(from: Array(file))
            #expect(seed.holds(scenario), "corpus/settings/\(seed.name) decodes to\n\(scenario)")
        }
    }

    /// Writes the seed files: `STC_WRITE_SEEDS=1 swift test --filter writeSeedFiles`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STC_WRITE_SEEDS"] == "1"))
    func writeSeedFiles() throws {
        let fm = FileManager.default
        for dir in ["shield", "auth", "settings"] {
            try fm.createDirectory(at: Self.corpus.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for seed in StructuredSeeds.auth {
            try Data(seed.bytes).write(to: Self.corpus.appendingPathComponent("auth/\(seed.name)"))
        }
        for seed in StructuredSeeds.shield {
            let bytes = try #require(StructuredSeeds.searchShieldSeed(seed.holds), "no bytes found for \(seed.name)")
            try Data(bytes).write(to: Self.corpus.appendingPathComponent("shield/\(seed.name)"))
        }
        for seed in StructuredSeeds.settings {
            let bytes = try #require(StructuredSeeds.searchSettingsSeed(seed.holds), "no bytes found for \(seed.name)")
            try Data(bytes).write(to: Self.corpus.appendingPathComponent("settings/\(seed.name)"))
        }
    }
}
