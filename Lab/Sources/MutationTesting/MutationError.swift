/// Why a mutation run could not judge the mutants.
///
/// ```swift
/// do { _ = try MutationRun(options).run { _ in } } catch .cleanRunFailed(let what, let log) { … }
/// ```
public enum MutationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read or written.
    case io(String)
    /// A source of the reference is not Swift the lexer can read.
    case lexer(file: String, SwiftLexerError)
    /// The list of equivalent mutants has a bad line.
    case equivalents(file: String, line: Int, message: String)
    /// The schema build failed with errors no mutant explains (or kept failing): the build itself is broken.
    case buildFailed(errors: [String], log: String)
    /// The program without any mutant on did not pass: nothing can be judged against it.
    case cleanRunFailed(what: String, log: String)
    /// A child process could not be started.
    case spawn(String)
    /// A `--filter` selects no mutant (a misspelt module or path).
    case noMutantSelected(filter: String)

    public var description: String {
        switch self {
        case .io(let message): return message
        case .lexer(let file, let error): return "\(file): \(error)"
        case .equivalents(let file, let line, let message): return "\(file):\(line): \(message)"
        case .buildFailed(let errors, let log):
            let shown = errors.prefix(10).joined(separator: "\n  ")
            return "the schema build failed with errors no mutant explains (log: \(log)):\n  \(shown)"
        case .cleanRunFailed(let what, let log):
            return "the clean run (no mutant on) failed: \(what) (log: \(log))"
        case .spawn(let message): return "cannot start a process: \(message)"
        case .noMutantSelected(let filter):
            return "no mutant of the reference is in '\(filter)' (give a module, StrictJSON, or a path prefix, "
                + "Sources/StrictJSON/JSONWriter.swift)"
        }
    }
}
