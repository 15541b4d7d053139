import Foundation
import Testing
import _FuzzCorpus
import _TestSupport

/// The fuzz targets are defined once: each `FuzzTarget` in its harness module's list, its shim in
/// `Fuzz/Sources/<name>/`, its corpus in `corpus/<name>/`. Everything else (Fuzz/Package.swift's dependencies,
/// stc's lists and settings, CI) is derived from those and from Package.swift's module table. These tests fail
/// when the pieces disagree anywhere, or when a list creeps back in.
@Suite struct FuzzTargetListTests {
    static let root = PackagePaths.root

    static func directories(in path: String) -> [String] {
        let base = root.appendingPathComponent(path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: base.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }

    /// The Swift source of a target's shim (all files of its directory, in name order).
    static func shim(_ name: String) throws -> String {
        let directory = root.appendingPathComponent("Fuzz/Sources/\(name)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        return try files.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }.joined(
            separator: "\n")
    }

    @Test func everyShimHasATargetAndEveryTargetAShim() {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count, "two targets share a name: \(names)")
        #expect(Self.directories(in: "Fuzz/Sources") == names.sorted(), "Fuzz/Sources/ against FuzzTargets.all")
        for name in names {
            #expect(
                name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" },
                "\(name): lower-case letters, digits and -")
        }
    }

    /// A shim imports the module that declares its target, and nothing else of the root package (Fuzz/Package.swift
    /// links what the shim imports), and calls that very target: `FuzzTargets.<name in lower camel case>`.
    @Test(arguments: FuzzTargets.all.map(\.name))
    func theShimRunsItsTargetAndImportsItsModule(name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let text = try Self.shim(name)
        let imports = text.split(separator: "\n").filter { $0.hasPrefix("import _") }.map {
            $0.dropFirst("import ".count)
        }
        #expect(
            imports == [Substring(target.module)],
            "Fuzz/Sources/\(name) imports \(imports); \(name) is declared in \(target.module)")
        #expect(target.module.hasPrefix("_") && target.module.hasSuffix("FuzzTargets"), "\(target.module)")
        let calls = text.ranges(of: /FuzzTargets\.(\w+)\.libFuzzerEntry/).map { text[$0] }
        #expect(calls.count == 1, "Fuzz/Sources/\(name): \(calls)")
        let member = calls.first.map { $0.dropFirst("FuzzTargets.".count).prefix { $0 != "." } } ?? ""
        #expect(
            member.lowercased() == name.replacingOccurrences(of: "-", with: ""),
            "Fuzz/Sources/\(name) runs FuzzTargets.\(member)")
    }

    @Test func everyCorpusDirectoryBelongsToATarget() {
        let targets = Set(FuzzTargets.all.map(\.name))
        // corpus/conformance holds the vectors.
        for directory in Self.directories(in: "corpus") where directory != "conformance" {
            #expect(
                targets.contains(directory), "corpus/\(directory)/ has no fuzz target (and no property writes there)")
        }
    }

    @Test func everyTargetStatesItsInputSize() {
        for target in FuzzTargets.all {
            #expect((64...65_536).contains(target.maxLength), "\(target.name): maxLength \(target.maxLength)")
        }
    }

    /// Every harness module is offered as a product, so that Fuzz/Package.swift can link it, and is in the fuzz tier.
    @Test func everyHarnessModuleIsAnInternalProduct() throws {
        let manifest = try PackageManifest.dump()
        for module in Set(FuzzTargets.all.map(\.module)) {
            #expect(manifest.libraryProducts.contains(module), "\(module) is not a product of the root package")
            #expect(manifest.regularTargets.contains(module), "\(module) is not a module of the root package")
        }
    }

    /// No list of modules outside Package.swift's table: the fuzz manifest and the CI fuzz step name none in their
    /// code (comments may), they read them from the shims and from `stc fuzz modules`.
    @Test func theFuzzManifestAndTheCIFuzzStepNameNoModule() throws {
        let modules = try PackageManifest.dump().regularTargets
        for file in ["Fuzz/Package.swift", "scripts/ci-fuzz.sh"] {
            let code = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8).split(
                separator: "\n"
            )
            .filter { line in
                let start = line.drop { $0 == " " }
                return !start.hasPrefix("//") && !start.hasPrefix("#")
            }
            let words = Set(code.flatMap { $0.split { !($0.isLetter || $0.isNumber || $0 == "_") } }.map(String.init))
            for module in modules where words.contains(module) {
                Issue.record("\(file) names the module \(module): read it from the manifest (stc fuzz modules) instead")
            }
        }
    }
}
