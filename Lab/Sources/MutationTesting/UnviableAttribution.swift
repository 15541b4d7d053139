import Foundation

/// An error the compiler reported, at a place in the package.
public struct CompilerError: Sendable, Equatable, Hashable {
    /// Relative to the package root: `Sources/StrictJSON/JSONScanner.swift`.
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}

/// Which mutants a failed schema build's errors belong to: those are unviable (they do not compile), and the
/// build is retried without them.
///
/// Rules, for an error at a line and column of a rewritten file, the first that finds any mutant:
/// 1. the mutants whose inserted text covers the column;
/// 2. the innermost mutant whose switch (first inserted text to last) spans the place;
/// 3. every mutant with inserted text on that line;
/// 4. the `empty-branch` and `remove-return` mutants whose innermost declaration holds the line: the errors
///    they cause show up away from them (a missing `return` at the function's end, a constant used before it is
///    set at its use).
/// An error none of these explains is reported as such: the schema build is broken, not a mutant.
///
/// ```swift
/// let errors = UnviableAttribution.errors(inLog: log, root: "/work/copy")
/// let (unviable, unexplained) = UnviableAttribution.attribute(errors, files: rewritten, mutants: byNumber)
/// ```
public enum UnviableAttribution {
    /// The errors in a build log: lines `PATH:LINE:COLUMN: error: MESSAGE` for Swift files under `root` (paths
    /// made relative to it), each once, in log order.
    public static func errors(inLog log: String, root: String) -> [CompilerError] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var seen: Set<CompilerError> = []
        var result: [CompilerError] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let marker = line.range(of: ": error: ") else { continue }
            let location = line[..<marker.lowerBound]
            let message = String(line[marker.upperBound...])
            let parts = location.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, let lineNumber = Int(parts[parts.count - 2]),
                let column = Int(parts[parts.count - 1])
            else { continue }
            var path = parts.dropLast(2).joined(separator: ":")
            guard path.hasSuffix(".swift") else { continue }
            if path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.count)) }
            let error = CompilerError(file: path, line: lineNumber, column: column, message: message)
            if seen.insert(error).inserted { result.append(error) }
        }
        return result
    }

    /// The mutants (by number) the errors make unviable, each with the first error that did, and the errors
    /// that no mutant explains.
    public static func attribute(
        _ errors: [CompilerError], files: [String: SchemaRewriter.RewrittenFile], mutants: [Int: Mutant]
    ) -> (unviable: [Int: CompilerError], unexplained: [CompilerError]) {
        var unviable: [Int: CompilerError] = [:]
        var unexplained: [CompilerError] = []
        for error in errors {
            let found = culprits(of: error, file: files[error.file], mutants: mutants)
            if found.isEmpty {
                unexplained.append(error)
            } else {
                for number in found where unviable[number] == nil { unviable[number] = error }
            }
        }
        return (unviable, unexplained)
    }

    static func culprits(
        of error: CompilerError, file: SchemaRewriter.RewrittenFile?, mutants: [Int: Mutant]
    ) -> [Int] {
        guard let file else { return [] }
        let onLine = file.pieces.filter { $0.line == error.line }
        let covering = onLine.filter { $0.columns.contains(error.column) }.map(\.number)
        if !covering.isEmpty { return unique(covering) }
        let spanning = file.extents.filter { $0.contains(line: error.line, column: error.column) }
        if let innermost = spanning.min(by: { $0.size < $1.size }) { return [innermost.number] }
        if !onLine.isEmpty { return unique(onLine.map(\.number)) }
        let farReaching = file.extents.map(\.number).filter { number in
            guard let mutant = mutants[number] else { return false }
            return [.emptyBranch, .removeReturn].contains(mutant.mutationOperator) && mutant.scope.contains(error.line)
        }
        return unique(farReaching)
    }

    static func unique(_ numbers: [Int]) -> [Int] {
        var seen: Set<Int> = []
        return numbers.filter { seen.insert($0).inserted }
    }
}
