import Foundation

/// Rewrites one source file so that each of its mutants becomes a run-time switch (a mutant schema, as mull and
/// Stryker build them): one build holds every mutant, and `STC_MUTANT=n` picks which one is on.
///
/// Rules:
/// - the rewritten file has the same lines as the original: every inserted text is on one line, so a compiler
///   error's line is the original line, and its column is mapped through ``RewrittenFile/pieces``;
/// - at one byte offset, the texts that close wrappers come before those that open them; of two wrappers
///   starting at the same place the longer opens first, and of two ending there the shorter closes first, so
///   wrappers nest as the spans they wrap do (spans from the structure never cross);
/// - a file of another module than ``SchemaRuntime/module`` gets `import StrictJSON` as its last line, which
///   Swift allows anywhere at the top level and which moves no line.
///
/// ```swift
/// let file = SchemaRewriter.rewrite(source, module: "ScreenTimeSelection", mutants: [(mutant, 12)])
/// file.text   // … if count ^^| 12 ^<^ limit { …
/// ```
public enum SchemaRewriter {
    /// A text put into the rewritten file: where it landed (line and UTF-8 columns, 1-based, end exclusive).
    public struct Piece: Sendable, Equatable {
        public var number: Int
        public var line: Int
        public var columns: Range<Int>
    }

    /// A mutant's whole switch in the rewritten file: from the start of its first text to the end of its last.
    public struct Extent: Sendable, Equatable {
        public var number: Int
        public var start: (line: Int, column: Int)
        public var end: (line: Int, column: Int)

        public static func == (a: Extent, b: Extent) -> Bool {
            a.number == b.number && a.start == b.start && a.end == b.end
        }

        func contains(line: Int, column: Int) -> Bool {
            (line, column) >= start && (line, column) < end
        }

        /// A measure of size for choosing the innermost of several extents.
        var size: Int { (end.line - start.line) * 100_000 + end.column - start.column }
    }

    public struct RewrittenFile: Sendable {
        public var text: String
        public var pieces: [Piece]
        public var extents: [Extent]
    }

    /// `source` with the switches of `mutants` (each with its number in the build) put in.
    public static func rewrite(_ source: String, module: String, mutants: [(Mutant, Int)]) -> RewrittenFile {
        let bytes = Array(source.utf8)
        struct Insertion {
            var offset: Int
            /// 0 closes a wrapper, 1 replaces, 2 opens a wrapper.
            var phase: Int
            var size: Int
            var order: Int
            var text: String
            var number: Int
            var replacedEnd: Int?
        }
        var insertions: [Insertion] = []
        for (mutant, number) in mutants {
            let edit = mutant.edit
            let size = edit.end - edit.start
            let order = MutationOperator.allCases.firstIndex(of: mutant.mutationOperator) ?? 0
            switch edit.form {
            case .replace(let text):
                insertions.append(
                    Insertion(
                        offset: edit.start, phase: 1, size: size, order: order, text: fill(text, number),
                        number: number, replacedEnd: edit.end))
            case .wrap(let prefix, let suffix):
                insertions.append(
                    Insertion(
                        offset: edit.start, phase: 2, size: size, order: order, text: fill(prefix, number),
                        number: number))
                insertions.append(
                    Insertion(
                        offset: edit.end, phase: 0, size: size, order: order, text: fill(suffix, number),
                        number: number))
            }
        }
        insertions.sort { a, b in
            if a.offset != b.offset { return a.offset < b.offset }
            if a.phase != b.phase { return a.phase < b.phase }
            // Openings: outer (longer, then later operator) first. Closings: inner first.
            if a.phase == 2 { return (a.size, a.order) > (b.size, b.order) }
            return (a.size, a.order) < (b.size, b.order)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + insertions.count * 32)
        var pieces: [Piece] = []
        var starts: [Int: (Int, Int)] = [:]
        var ends: [Int: (Int, Int)] = [:]
        var line = 1
        var column = 1
        var position = 0
        func copy(upTo offset: Int) {
            while position < offset {
                let byte = bytes[position]
                output.append(byte)
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                position += 1
            }
        }
        for insertion in insertions {
            copy(upTo: insertion.offset)
            let first = column
            output.append(contentsOf: insertion.text.utf8)
            column += insertion.text.utf8.count
            pieces.append(Piece(number: insertion.number, line: line, columns: first..<column))
            if starts[insertion.number] == nil { starts[insertion.number] = (line, first) }
            ends[insertion.number] = (line, column)
            if let replacedEnd = insertion.replacedEnd { position = replacedEnd }
        }
        copy(upTo: bytes.count)
        if module != SchemaRuntime.module, !mutants.isEmpty {
            if output.last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
            output.append(contentsOf: "import \(SchemaRuntime.module)\n".utf8)
        }
        let extents = starts.keys.sorted().map { number in
            Extent(number: number, start: starts[number]!, end: ends[number]!)
        }
        return RewrittenFile(text: String(decoding: output, as: UTF8.self), pieces: pieces, extents: extents)
    }

    static func fill(_ template: String, _ number: Int) -> String {
        template.replacingOccurrences(of: "@@", with: String(number))
    }
}
