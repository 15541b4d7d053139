import Foundation
import MutationTesting
import _FuzzCorpus

/// A leak of ours, planted where the planted-bug patch cannot hold it: in a copy of the package whose `json` fuzz
/// target leaks 17 bytes on every input that starts with ``leakTrigger``.
///
/// It is no bug of the reference (no vector or property can see a leak), so it is not in the catalog. It shows
/// what only a real leak can: that LeakSanitizer reports where `stc fuzz run` and `stc fuzz campaign` fuzz (their
/// throughput ASan options must keep enough of an allocation's stack for it), that the fuzz binaries' one
/// suppression (`leak:swift_getTypeName`, `Sources/_FuzzCore`) does not hide a leak of ours, and how a campaign
/// keys and saves a leak. The copy is `.build/bugs/leak-package`, built into `.build/bugs/leak-fuzz` as
/// `stc fuzz run` builds (``FuzzBuildRecipe``).
extension PlantedBuilds {
    /// What an input starts with to leak.
    public static let leakTrigger = "LEAK"
    /// The `json` shim of the Fuzz package, and the end of its entry point, before which the leak goes.
    static let leakShim = "Fuzz/Sources/json/JSON.swift"
    static let leakAnchor = "    FuzzTargets.json.libFuzzerEntry(data, size)\n}"

    /// The copy of the package with the leak.
    public var leakPackage: String { scratch + "/leak-package" }
    /// The leaking `json` fuzzer.
    public var leakingFuzzer: String { scratch + "/leak-fuzz/release/json" }

    /// The product's `json` shim with the leak before its entry point's return.
    /// - Throws: ``BuildFailure`` when the shim no longer has the line the leak goes before.
    func leakingShim() throws(BuildFailure) -> String {
        let path = packageRoot + "/" + Self.leakShim
        guard let shim = try? String(contentsOfFile: path, encoding: .utf8), shim.contains(Self.leakAnchor) else {
            throw BuildFailure(
                description: "\(path) no longer ends its entry point with \(Self.leakAnchor.debugDescription): "
                    + "move PlantedBuilds.leakAnchor to where the leak goes now")
        }
        let bytes = Array(Self.leakTrigger.utf8).enumerated().map { "data[\($0.offset)] == \($0.element)" }
        let leak = """
                // Planted (the lab's PlantedBuilds+Leak.swift): 17 bytes never freed on an input starting with \
            \(Self.leakTrigger).
                if let data, size >= \(bytes.count), \(bytes.joined(separator: ", ")) {
                    let lost = UnsafeMutablePointer<UInt8>.allocate(capacity: 17)
                    lost.initialize(repeating: 1, count: 17)
                    // One bit of the address, so that the allocation is not optimized away; the pointer is lost.
                    plantedLeakBit = Int(bitPattern: lost) & 1
                }
                return FuzzTargets.json.libFuzzerEntry(data, size)
            }

            nonisolated(unsafe) var plantedLeakBit = 0
            """
        return shim.replacingOccurrences(of: Self.leakAnchor, with: leak)
    }

    /// Copies the package with the leaking shim and builds its `json` fuzzer (``leakingFuzzer``).
    /// - Parameter log: where each step's line goes.
    /// - Throws: ``BuildFailure`` when the shim has moved, the copy cannot be written or the build fails.
    public func buildLeakingFuzzer(log: (String) -> Void) throws(BuildFailure) {
        log("planting a leak into \(leakPackage)/\(Self.leakShim)")
        let shim = try leakingShim()
        do {
            try WorkCopy(packageRoot: packageRoot, directory: leakPackage).sync(replacing: [Self.leakShim: shim])
        } catch {
            throw BuildFailure(description: "cannot write the leaking copy: \(error)")
        }
        try build(
            FuzzBuildRecipe.arguments(fuzzPackage: leakPackage + "/Fuzz", product: "json")
                + ["--scratch-path", scratch + "/leak-fuzz"], environment: coverageEnvironment, log: log)
    }
}
