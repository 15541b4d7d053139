import Conformance

/// The conformance vectors this package ships: every suite of `corpus/conformance/` (`SPEC.md` §5).
///
/// ```swift
/// let suites = try ShippedSuites.load()   // 11 suites
/// ```
public enum ShippedSuites {
    /// Reads the shipped suites, strictly (`SuiteLoader`).
    public static func load() throws(SuiteLoadFailure) -> [Suite] {
        // Replaced by the embedded suites once that module merges: until then the suites are read from this
        // repository's corpus/conformance, found from this source file's own path.
        var root = #filePath
        for _ in 0..<3 { root = TestFilePath.directory(of: root) }
        return try SuiteLoader.load(paths: [root + "/corpus/conformance"])
    }
}
