import Foundation
import _CommandSupport
import _FuzzCorpus

/// Where things are: the package (with `Fuzz/Package.swift`), the corpus, the scratch directories.
struct FuzzWorkspace {
    /// The directory holding `Fuzz/Package.swift`, or nil when none was found.
    var packageRoot: String?
    var corpus: FuzzCorpus

    /// `--corpus DIR`, else `$STC_CORPUS`, else `<package>/corpus`, else `./corpus`. The package is `--package DIR`
    /// or the nearest directory at or above the current one that holds `Fuzz/Package.swift`.
    static func resolve(corpus corpusOption: String?, package packageOption: String?) -> FuzzWorkspace {
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        var root: String? = packageOption.map { absolute($0, in: cwd) }
        if root == nil {
            var dir = cwd
            while true {
                if fm.fileExists(atPath: (dir as NSString).appendingPathComponent("Fuzz/Package.swift")) {
                    root = dir
                    break
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir || parent.isEmpty { break }
                dir = parent
            }
        }
        let corpusRoot: String
        if let corpusOption {
            corpusRoot = absolute(corpusOption, in: cwd)
        } else if let env = ProcessInfo.processInfo.environment["STC_CORPUS"], !env.isEmpty {
            corpusRoot = absolute(env, in: cwd)
        } else if let root {
            corpusRoot = (root as NSString).appendingPathComponent("corpus")
        } else {
            corpusRoot = (cwd as NSString).appendingPathComponent("corpus")
        }
        return FuzzWorkspace(packageRoot: root, corpus: FuzzCorpus(root: corpusRoot))
    }

    static func absolute(_ path: String, in cwd: String) -> String {
        let full = path.hasPrefix("/") ? path : (cwd as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }

    func requirePackage() throws -> String {
        guard let packageRoot else {
            throw CommandFailure(
                "cannot find Fuzz/Package.swift in or above the current directory "
                    + "(run from the repository, or pass --package DIR)")
        }
        return packageRoot
    }

    func fuzzPackage() throws -> String { (try requirePackage() as NSString).appendingPathComponent("Fuzz") }

    func binary(_ target: String, variant: FuzzBuild.Variant = .fuzzing) throws -> String {
        FuzzBuild.binary(fuzzPackage: try fuzzPackage(), target: target, variant: variant)
    }

    func hasShim(_ target: String) throws -> Bool {
        FileManager.default.fileExists(
            atPath: (try fuzzPackage() as NSString).appendingPathComponent("Sources/\(target)"))
    }

    /// `<package>/.build/<kind>/<target>`, created: fuzzing output that never goes into the checked-in corpus.
    func scratch(_ kind: String, _ target: String) throws -> String {
        let dir = (try requirePackage() as NSString).appendingPathComponent(".build/\(kind)/\(target)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
