import Foundation

/// The libFuzzer settings of a fuzzing run that are not the target's own (its `-max_len` is ``FuzzTarget/maxLength``).
public enum FuzzDefaults {
    /// `-timeout` in seconds: every target is linear, so anything this slow is a bug.
    public static let timeout = 5

    /// The libFuzzer flags of a fuzzing run (`stc fuzz run`, and the fuzz figures of the lab's `lab bench`): the
    /// input size, the timeout, and the dictionary when there is one.
    public static func flags(maxLen: Int, dictionary: String) -> [String] {
        ["-max_len=\(maxLen)", "-timeout=\(timeout)"]
            + (FileManager.default.fileExists(atPath: dictionary) ? ["-dict=\(dictionary)"] : [])
    }

    /// ASan options `stc fuzz run` and `stc fuzz campaign` add (each unless the user's `ASAN_OPTIONS` sets it).
    /// Neither changes what ASan and LeakSanitizer detect here:
    /// - `malloc_context_size=2`: two frames of stack are recorded at each malloc and free, not ASan's 30, work
    ///   every execution would pay for. Two is the fewest with which LeakSanitizer reports a leak at all: it takes
    ///   a leak whose caller (the frame under the allocator's) is unknown for memory it cannot judge, and keeps
    ///   quiet, so with 0 or 1 no leak is ever reported. A heap report's "allocated by"/"freed by" stacks and a
    ///   leak's stack are cut to two frames; `stc fuzz replay T FILE --binary` (default options) shows them whole.
    /// - `quarantine_size_mb=16`, below ASan's default: freed memory waits in a smaller FIFO before reuse, so the
    ///   allocator keeps touching warm memory instead of faulting in fresh pages. The queue still holds what many
    ///   executions free, so a use after free within an execution is caught as before.
    /// Why these values and not others: docs/PERFORMANCE.md#decisions.
    public static let throughputASanDefaults = [("malloc_context_size", "2"), ("quarantine_size_mb", "16")]

    /// The user's `ASAN_OPTIONS` with each of ``throughputASanDefaults`` added that they do not set themselves.
    public static func throughputASanOptions(_ user: String?) -> String {
        let given = (user ?? "").split(whereSeparator: { $0 == ":" || $0 == "," || $0 == " " }).map(String.init)
        let added = throughputASanDefaults.filter { name, _ in !given.contains { $0.hasPrefix(name + "=") } }
        return (given + added.map { "\($0)=\($1)" }).joined(separator: ":")
    }
}
