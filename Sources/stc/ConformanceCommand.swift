import Conformance

/// `stc conformance …`: runs the vectors through the reference and the adapters (see `--help`).
enum ConformanceCommand {
    /// `arguments` exclude "stc conformance". Returns the process exit status.
    static func main(_ arguments: [String]) -> Int32 {
        ConformanceCLI.main(arguments)
    }
}
