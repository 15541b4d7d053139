import Exploration
import Foundation
import ScreenTimeProperties
import Testing
import _FuzzCorpus
import _TestSupport

@testable import BugFinding

/// The catalog names exactly the bugs the plants' patch plants in the reference, each where the benchmark can
/// reach it, and the patch still applies to the product's sources.
@Suite struct PlantedBugCatalogTests {
    /// The product package: the lab's parent directory.
    static let root = PackagePaths.root
    static let referenceModules = [
        "StrictJSON", "ScreenTimeSelection", "ScreenTimeEncoding", "ScreenTimeActivity", "ScreenTimeReference",
    ]
    static let patch = PlantedBuilds(packageRoot: root.path).patch

    /// The planted text of each file the patch writes (it fails the test when the patch no longer applies).
    static func plantedSources() throws -> [String: String] { try patch.applied(to: root.path) }

    /// `case identifier = "name"` of the planted StrictJSON's PlantedBug.
    static func plantedCases() throws -> [(identifier: String, name: String)] {
        let text = try #require(try plantedSources()["Sources/StrictJSON/PlantedBug.swift"])
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "case", words[2] == "=" else { return nil }
            return (String(words[1]), String(words[3].dropFirst().dropLast()))
        }
    }

    @Test func thePatchAppliesAndTouchesTheReferenceOnly() throws {
        let files = try Self.plantedSources().keys.sorted()
        #expect(files.count >= 10, "\(files)")
        for file in files {
            #expect(
                Self.referenceModules.contains { file.hasPrefix("Sources/\($0)/") },
                "\(file): the plants belong in the reference's modules")
        }
    }

    /// The product's own sources hold none of it: the patch adds what the planted build has.
    @Test func theProductsSourcesHaveNoPlantedCode() throws {
        for file in try Self.patch.files() {
            let path = Self.root.appendingPathComponent(file).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            #expect(!text.contains("PlantedBug"), "\(file) already holds planted code")
        }
    }

    @Test func theCatalogListsExactlyThePlantedBugs() throws {
        let planted = try Self.plantedCases().map(\.name).sorted()
        #expect(planted.count >= 30)
        #expect(PlantedBugCatalog.all.map(\.name).sorted() == planted)
        #expect(Set(PlantedBugCatalog.all.map(\.name)).count == PlantedBugCatalog.all.count)
    }

    @Test func everyPlantedBugHasASiteInTheReference() throws {
        let sources = try Self.plantedSources()
        for (identifier, name) in try Self.plantedCases() {
            let sites = sources.filter { $0.value.contains("PlantedBug.isActive(.\(identifier))") }
            #expect(!sites.isEmpty, "\(name) (.\(identifier)) is planted nowhere")
        }
    }

    @Test func everyFieldBugClassAndTheIssuesExtrasArePlanted() {
        #expect(Set(PlantedBugCatalog.all.compactMap(\.fieldBug)) == Set((1...22).map { "7.\($0)" }))
        let extras = PlantedBugCatalog.all.filter { $0.fieldBug == nil }.map(\.name).sorted()
        #expect(
            extras == [
                "auth.stale-grant-accepted", "json.overlong-utf8-accepted", "shield.category-reason-wrong-category",
                "shield.limit-off-by-one", "template.replaced-text-rescanned",
            ])
    }

    /// Each hammer's subject exists: the property patterns select properties, the fuzz targets and explored
    /// operations exist, the naive harness has a directory.
    @Test func everyHammerCanReachItsBug() {
        let properties = ReferenceProperties.catalog.names
        for bug in PlantedBugCatalog.all {
            for pattern in bug.checks {
                #expect(properties.contains { $0.hasPrefix(pattern + ".") }, "\(bug.name): no property \(pattern).*")
            }
            if let target = bug.fuzzTarget {
                #expect(FuzzTargets.named(target) != nil, "\(bug.name): no fuzz target \(target)")
            }
            for family in bug.explore {
                #expect(
                    ExploredOperations.all.contains { $0.name == family || $0.name.hasPrefix(family + ".") },
                    "\(bug.name): nothing to explore in \(family)")
            }
            let harness = Self.root.appendingPathComponent("Lab/Naive/Sources/" + bug.naive).path
            #expect(FileManager.default.fileExists(atPath: harness), "\(bug.name): no \(harness)")
        }
    }

    @Test func theNaivePackageBuildsEveryHarnessItHas() throws {
        let manifest = try String(
            contentsOf: Self.root.appendingPathComponent("Lab/Naive/Package.swift"), encoding: .utf8)
        let directories = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Lab/Naive/Sources").path
        ).filter { !$0.hasPrefix(".") }.sorted()
        for directory in directories { #expect(manifest.contains("\"\(directory)\""), "\(directory) is not built") }
        #expect(Set(PlantedBugCatalog.all.map(\.naive)) == Set(directories))
    }
}
