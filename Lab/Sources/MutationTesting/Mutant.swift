/// One mutant: a single small change at one place of the reference's source.
///
/// The ``id`` is stable: it names the file, the operator and a hash of where the change is (the enclosing
/// declarations, the line's text without its indentation, which occurrence on that line) but not the line
/// number, so an edit elsewhere in the file leaves it alone and the list of equivalent mutants stays valid.
///
/// ```swift
/// // Sources/StrictJSON/JSONScanner.swift:relational:1f0c9a3e   line 120   `<` → `<=`
/// ```
public struct Mutant: Sendable, Codable, Equatable, Hashable {
    public var id: String
    /// The path relative to the package root: `Sources/StrictJSON/JSONScanner.swift`.
    public var file: String
    /// The module, the directory under `Sources/`.
    public var module: String
    public var line: Int
    public var column: Int
    public var mutationOperator: MutationOperator
    /// The text changed and what it becomes, for people (a long condition is shortened with `…`).
    public var original: String
    public var replacement: String
    /// How the schema build switches this mutant on.
    var edit: SchemaEdit
    /// The lines of the innermost declaration around the mutant (a function, closure or type), where an error it
    /// causes far from its own line (a missing `return`, a constant used before it is set) shows up.
    var scope: ClosedRange<Int>

    enum CodingKeys: String, CodingKey {
        case id, file, module, line, column
        case mutationOperator = "operator"
        case original, replacement
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        file = try c.decode(String.self, forKey: .file)
        module = try c.decode(String.self, forKey: .module)
        line = try c.decode(Int.self, forKey: .line)
        column = try c.decode(Int.self, forKey: .column)
        mutationOperator = try c.decode(MutationOperator.self, forKey: .mutationOperator)
        original = try c.decode(String.self, forKey: .original)
        replacement = try c.decode(String.self, forKey: .replacement)
        edit = SchemaEdit(start: 0, end: 0, form: .replace(""))
        scope = line...line
    }

    init(
        id: String, file: String, module: String, line: Int, column: Int, mutationOperator: MutationOperator,
        original: String, replacement: String, edit: SchemaEdit, scope: ClosedRange<Int>
    ) {
        self.id = id
        self.file = file
        self.module = module
        self.line = line
        self.column = column
        self.mutationOperator = mutationOperator
        self.original = original
        self.replacement = replacement
        self.edit = edit
        self.scope = scope
    }

    /// One line for people: `Sources/…/File.swift:120 relational `<` → `<=` (id)`.
    public var summary: String {
        "\(file):\(line) \(mutationOperator.rawValue) `\(original)` → `\(replacement)`  \(id)"
    }
}

/// Where and how the schema build puts a mutant's switch, in UTF-8 offsets of the original file.
///
/// `@@` in the texts stands for the mutant's number in the build.
struct SchemaEdit: Sendable, Equatable, Hashable {
    enum Form: Sendable, Equatable, Hashable {
        /// The bytes `start..<end` (an operator) are replaced by the text.
        case replace(String)
        /// The bytes `start..<end` (tokens) are kept and wrapped: prefix before, suffix after.
        case wrap(prefix: String, suffix: String)
    }
    var start: Int
    var end: Int
    var form: Form
}
