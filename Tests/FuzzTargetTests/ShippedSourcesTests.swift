import Foundation
import Testing

/// The product's sources are the product: no planted bug and no lab module in them. The bug-finding benchmark's
/// plants live in Lab/Plants/planted-bugs.patch, applied only to a copy the lab builds (docs/BUG-FINDING.md), and
/// the lab's modules in Lab/Package.swift.
@Suite struct ShippedSourcesTests {
    /// The words a planted site needs: the condition that compiled plants in once, and the switch they read.
    static let plantWords = ["STC_PLANTED_BUGS", "PlantedBug.isActive", "enum PlantedBug"]

    @Test func noFileUnderSourcesHoldsPlantedCode() throws {
        let sources = PackageManifest.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "found only \(files.count) Swift files under \(sources.path)")
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for word in Self.plantWords where text.contains(word) {
                Issue.record("Sources/\(file) holds '\(word)': planted code belongs in Lab/Plants/planted-bugs.patch")
            }
        }
    }

    @Test func theManifestDefinesNoCompilationCondition() throws {
        let manifest = try PackageManifest.dump()
        let defining = manifest.defines.filter { !$0.value.isEmpty }.keys.sorted()
        #expect(defining.isEmpty, "defined in \(defining)")
    }

    /// The lab's modules (Lab/Package.swift) are not targets of the product: a package that depends on it never
    /// compiles them.
    @Test func theManifestHasNoLabModule() throws {
        let manifest = try PackageManifest.dump()
        let lab = try FileManager.default.contentsOfDirectory(
            atPath: PackageManifest.root.appendingPathComponent("Lab/Sources").path)
        #expect(lab.contains("Benchmarking") && lab.contains("MutationTesting"), "\(lab)")
        for module in lab { #expect(!manifest.regularTargets.contains(module), "\(module) is a target of the product") }
    }
}
