import Exploration
import Foundation
import ScreenTimeProperties
import Testing
import _FuzzCorpus

@testable import BugFinding

/// The catalog names exactly the bugs planted in the reference, each where the benchmark can reach it.
@Suite struct PlantedBugCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let referenceModules = ["StrictJSON", "ScreenTimeSelection", "ScreenTimeEncoding", "ScreenTimeReference"]

    /// `case identifier = "name"` of StrictJSON's PlantedBug.
    static func plantedCases() throws -> [(identifier: String, name: String)] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Sources/StrictJSON/PlantedBug.swift"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "case", words[2] == "=" else { return nil }
            return (String(words[1]), String(words[3].dropFirst().dropLast()))
        }
    }

    /// Every Swift file of the reference's modules: path and text.
    static func referenceSources() throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for module in referenceModules {
            let directory = root.appendingPathComponent("Sources/" + module)
            for path in FileManager.default.subpaths(atPath: directory.path) ?? [] where path.hasSuffix(".swift") {
                let url = directory.appendingPathComponent(path)
                files.append(("Sources/\(module)/\(path)", try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func theCatalogListsExactlyThePlantedBugs() throws {
        let planted = try Self.plantedCases().map(\.name).sorted()
        #expect(planted.count >= 19)
        #expect(PlantedBugCatalog.all.map(\.name).sorted() == planted)
        #expect(Set(PlantedBugCatalog.all.map(\.name)).count == PlantedBugCatalog.all.count)
    }

    @Test func everyPlantedBugHasASiteInTheReference() throws {
        let sources = try Self.referenceSources()
        for (identifier, name) in try Self.plantedCases() {
            let sites = sources.filter { $0.text.contains("PlantedBug.isActive(.\(identifier))") }
            #expect(!sites.isEmpty, "\(name) (.\(identifier)) is planted nowhere")
        }
    }

    /// A planted line outside `#if STC_PLANTED_BUGS` would be in every build.
    @Test func everyPlantedLineIsInsideTheBenchmarkCondition() throws {
        for (path, text) in try Self.referenceSources() {
            var planted: [Bool] = []  // per open #if: whether this branch is the STC_PLANTED_BUGS one
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("#if") {
                    planted.append(line.contains("STC_PLANTED_BUGS") && !line.contains("!"))
                } else if line.hasPrefix("#else") || line.hasPrefix("#elseif"), !planted.isEmpty {
                    planted[planted.count - 1] = false
                } else if line.hasPrefix("#endif"), !planted.isEmpty {
                    planted.removeLast()
                } else if line.contains("PlantedBug"), !line.hasPrefix("//") {
                    #expect(
                        planted.contains(true), "\(path):\(number + 1) uses PlantedBug outside #if STC_PLANTED_BUGS")
                }
            }
            #expect(planted.isEmpty, "\(path): unbalanced #if")
        }
    }

    @Test func everyFieldBugClassAndTheIssuesExtrasArePlanted() {
        #expect(Set(PlantedBugCatalog.all.compactMap(\.fieldBug)) == Set((1...8).map { "7.\($0)" }))
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
            #expect(FuzzTargets.named(bug.fuzzTarget) != nil, "\(bug.name): no fuzz target \(bug.fuzzTarget)")
            for family in bug.explore {
                #expect(
                    ExploredOperations.all.contains { $0.name == family || $0.name.hasPrefix(family + ".") },
                    "\(bug.name): nothing to explore in \(family)")
            }
            let harness = Self.root.appendingPathComponent("Fuzz/Naive/Sources/" + bug.naive).path
            #expect(FileManager.default.fileExists(atPath: harness), "\(bug.name): no \(harness)")
        }
    }

    @Test func theNaivePackageBuildsEveryHarnessItHas() throws {
        let manifest = try String(
            contentsOf: Self.root.appendingPathComponent("Fuzz/Naive/Package.swift"), encoding: .utf8)
        let directories = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Fuzz/Naive/Sources").path
        ).filter { !$0.hasPrefix(".") }.sorted()
        for directory in directories { #expect(manifest.contains("\"\(directory)\""), "\(directory) is not built") }
        #expect(Set(PlantedBugCatalog.all.map(\.naive)) == Set(directories))
    }
}
