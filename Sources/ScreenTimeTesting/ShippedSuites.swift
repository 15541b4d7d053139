import Conformance
import ShippedVectors

/// The conformance vectors this package ships: every suite of `corpus/conformance/` (`SPEC.md` §5), built into
/// the library (``ShippedVectors``), so a user's test target reaches them without a path.
///
/// ```swift
/// let suites = try ShippedSuites.load()   // 11 suites
/// ```
public enum ShippedSuites {
    /// The shipped suites, decoded strictly (`SuiteLoader`).
    ///
    /// - Returns: Every shipped suite, in file-name order.
    /// - Throws: ``SuiteLoadFailure`` when a built-in suite does not decode (a broken build of this package).
    public static func load() throws(SuiteLoadFailure) -> [Suite] {
        try ShippedVectors.suites()
    }
}
