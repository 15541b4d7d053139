import Foundation
import Testing

/// What a user of the package sees: a few library products they would pick, each named in the README, and the
/// internal ones plainly internal (their names start with `_`).
@Suite struct PackageGraphTests {
    @Test func aUserSeesAtMostFiveProductsEachInTheREADME() throws {
        let manifest = try PackageManifest.dump()
        let userFacing = manifest.libraryProducts.filter { !$0.hasPrefix("_") }
        #expect(!userFacing.isEmpty && userFacing.count <= 5, "\(userFacing)")
        #expect(userFacing.contains("ScreenTimeReference"))
        let readme = try String(contentsOf: PackageManifest.root.appendingPathComponent("README.md"), encoding: .utf8)
        let layout = try #require(readme.range(of: "## Layout"), "README.md has no Layout section")
        let section = readme[layout.upperBound...].prefix { $0 != "#" }
        for product in userFacing {
            #expect(section.contains("Sources/\(product)"), "README's layout does not name the product \(product)")
        }
    }

    /// Every internal product is a fuzz harness module, which Fuzz/Package.swift must be able to name, or what the
    /// lab's package (Lab/Package.swift) links: its modules and the test support.
    @Test func internalProductsAreTheFuzzHarnessesAndTheLabsOnly() throws {
        let internalProducts = try PackageManifest.dump().libraryProducts.filter { $0.hasPrefix("_") }
        let lab = ["_ScreenTimeLab", "_ScreenTimeTestSupport"]
        for product in lab { #expect(internalProducts.contains(product), "\(product)") }
        for product in internalProducts where !lab.contains(product) {
            #expect(product.hasSuffix("FuzzTargets"), "\(product)")
        }
        let manifest = try String(
            contentsOf: PackageManifest.root.appendingPathComponent("Lab/Package.swift"), encoding: .utf8)
        for product in lab {
            #expect(manifest.contains("\"\(product)\""), "Lab/Package.swift does not link \(product)")
        }
    }
}
