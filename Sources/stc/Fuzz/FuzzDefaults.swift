import Foundation

/// The libFuzzer settings of a fuzzing run that are not the target's own (its `-max_len` is ``FuzzTarget/maxLength``).
enum FuzzDefaults {
    /// `-timeout` in seconds: every target is linear, so anything this slow is a bug.
    static let timeout = 5

    /// The libFuzzer flags of a fuzzing run (`stc fuzz run`, and `stc bench`'s fuzz figures): the input size, the
    /// timeout, and the dictionary when there is one.
    static func flags(maxLen: Int, dictionary: String) -> [String] {
        ["-max_len=\(maxLen)", "-timeout=\(timeout)"]
            + (FileManager.default.fileExists(atPath: dictionary) ? ["-dict=\(dictionary)"] : [])
    }
}
