import Foundation
import Testing

/// Every public function, initializer and subscript of the kit and of Conformance documents what it takes, gives
/// and throws: `- Parameters:` (or `- Parameter x:`) when it has parameters, `- Returns:` when it returns a value,
/// `- Throws:` when it throws. The rule of Swift's documentation markup, checked on the sources.
@Suite struct DocCommentTests {
    static let modules = ["ScreenTimeTesting", "Conformance"]

    @Test(arguments: modules) func everyPublicDeclarationDocumentsItsParametersResultAndErrors(module: String) throws {
        let sources = URL(fileURLWithPath: testDirectory + "/../../Sources/" + module).standardizedFileURL
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var missing: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            missing += PublicDeclaration.all(in: text).flatMap { d in d.missing.map { "\(file):\(d.line): \($0)" } }
        }
        #expect(missing.isEmpty, "\(missing.count) missing:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theCheckSeesWhatIsMissing() {
        let text = """
            /// Documented.
            ///
            /// - Parameters:
            ///   - a: A.
            /// - Returns: B.
            /// - Throws: C.
            @discardableResult
            public func good(_ a: Int) throws -> Int { a }
            /// Not documented.
            public static func bad(
                _ a: Int, b: () -> Void = {}
            ) throws(E) -> String { "" }
            public init(one x: Int) {}
            /// - Parameter x: X.
            public init(two x: Int) {}
            public func none() {}
            public func void(_ x: Int) -> Void {}
            /// - Parameter x: X.
            @available(
                *, deprecated,
                renamed: "void(_:)"
            )
            public func old(_ x: Int) {}
            """
        let found = PublicDeclaration.all(in: text)
        #expect(found.map(\.line) == [8, 10, 13, 15, 16, 17, 23])
        #expect(
            found.map(\.missing) == [
                [], ["- Parameters:", "- Returns:", "- Throws:"], ["- Parameters:"], [], [], ["- Parameters:"], [],
            ])
    }
}

/// A `public` (or `open`) `func`, `init` or `subscript` in a source file, with what its doc comment lacks.
struct PublicDeclaration {
    /// The line the declaration starts on, from 1.
    var line: Int
    /// The doc markup fields it needs and its comment does not have.
    var missing: [String]

    static func all(in text: String) -> [PublicDeclaration] {
        let lines = text.components(separatedBy: "\n")
        let start =
            #/^\s*(?:@[\w().:, *"]+\s+)*(?:public|open)\s+(?:(?:static|final|override|mutating|nonmutating|convenience|class)\s+)*(?:func\s|init[?!]?[(<]|subscript[(<])/#
        var found: [PublicDeclaration] = []
        for (index, line) in lines.enumerated() where line.firstMatch(of: start) != nil {
            let (parameters, tail) = signature(lines[index...].joined(separator: "\n"))
            var comment: [String] = []
            var above = index - 1
            // Attributes between the comment and the declaration, one a line or one over several lines.
            while above >= 0 {
                let line = lines[above].trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("@") {
                    above -= 1
                } else if line == ")", let at = (max(0, above - 8)..<above).last(where: { lines[$0].contains("@") }) {
                    above = at - 1
                } else {
                    break
                }
            }
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                comment.append(lines[above])
                above -= 1
            }
            let doc = comment.joined(separator: "\n")
            var missing: [String] = []
            if !parameters.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                !doc.contains("- Parameters:"), !doc.contains("- Parameter ")
            {
                missing.append("- Parameters:")
            }
            if let arrow = tail.range(of: "->") {
                let result = tail[arrow.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
                if !result.hasPrefix("Void"), !result.hasPrefix("()"), !doc.contains("- Returns:") {
                    missing.append("- Returns:")
                }
            }
            if tail.contains("throws"), !doc.contains("- Throws:") { missing.append("- Throws:") }
            found.append(PublicDeclaration(line: index + 1, missing: missing))
        }
        return found
    }

    /// The text between the declaration's first `(` and its match, and what follows up to the body's `{` (or the
    /// end of the line).
    static func signature(_ text: String) -> (parameters: String, tail: String) {
        guard let open = text.firstIndex(of: "(") else { return ("", "") }
        var depth = 0
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            default: break
            }
            if depth == 0 { break }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return ("", "") }
        let parameters = String(text[text.index(after: open)..<index])
        let rest = text[text.index(after: index)...]
        let end = rest.firstIndex { $0 == "{" || $0 == "\n" } ?? rest.endIndex
        var tail = String(rest[..<end])
        // A signature whose result goes on the next line (`-> Outcome` under `line: UInt = #line)`).
        if end < rest.endIndex, rest[end] == "\n", tail.trimmingCharacters(in: .whitespaces).isEmpty {
            let next = rest[rest.index(after: end)...]
            tail = String(next[..<(next.firstIndex { $0 == "{" || $0 == "\n" } ?? next.endIndex)])
        }
        return (parameters, tail)
    }
}
