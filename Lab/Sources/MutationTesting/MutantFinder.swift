/// Finds every mutant of one source file, applying each ``MutationOperator`` where its rule allows.
///
/// ```swift
/// let mutants = try MutantFinder.mutants(in: "func f(a: Int) -> Bool { a < 3 }", file: "Sources/M/F.swift")
/// // relational `<` → `<=`, constant `3` → `4`
/// ```
public enum MutantFinder {
    /// The mutants of `source`, in source order; `file` is the path relative to the package root
    /// (`Sources/<module>/…`), which names the module.
    public static func mutants(
        in source: String, file: String, environment: CompilationConditions = .host
    ) throws(SwiftLexerError) -> [Mutant] {
        let tokens = try SwiftLexer.tokenize(source, environment: environment)
        let structure = try SourceStructure(tokens: tokens)
        var finder = Finder(source: Array(source.utf8), tokens: tokens, structure: structure, file: file)
        finder.findAll()
        return finder.finish()
    }

    /// The module of a path `Sources/<module>/…` (the second component), or the empty string.
    public static func module(ofFile file: String) -> String {
        let parts = file.split(separator: "/")
        return parts.count > 2 && parts[0] == "Sources" ? String(parts[1]) : ""
    }
}

private struct Finder {
    let source: [UInt8]
    let t: [SwiftToken]
    let structure: SourceStructure
    let file: String
    var found: [(anchor: Int, mutant: Mutant)] = []

    init(source: [UInt8], tokens: [SwiftToken], structure: SourceStructure, file: String) {
        self.source = source
        self.t = tokens
        self.structure = structure
        self.file = file
    }

    /// Literal arguments that only size a buffer: changing them changes no result.
    static let capacityCalls: Set<String> = ["reserveCapacity"]
    static let capacityLabels: Set<String> = ["minimumCapacity", "reservingCapacity"]

    /// The source of tokens `first…last` on one line, whitespace runs collapsed, shortened past 60 characters.
    func text(_ first: Int, _ last: Int) -> String {
        let raw = String(decoding: source[t[first].start..<t[last].end], as: UTF8.self)
        let collapsed = raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        return collapsed.count > 60 ? String(collapsed.prefix(59)) + "…" : collapsed
    }

    mutating func add(
        _ op: MutationOperator, anchor: Int, original: String, replacement: String, start: Int, end: Int,
        form: SchemaEdit.Form
    ) {
        let token = t[anchor]
        let scope =
            structure.declarations.filter { $0.start <= anchor && anchor <= $0.end }.max { $0.start < $1.start }
            .map { t[$0.start].line...t[$0.end].line } ?? 1...(t.last?.line ?? 1)
        let mutant = Mutant(
            id: "", file: file, module: MutantFinder.module(ofFile: file), line: token.line, column: token.column,
            mutationOperator: op, original: original, replacement: replacement,
            edit: SchemaEdit(start: start, end: end, form: form), scope: scope)
        found.append((anchor, mutant))
    }

    mutating func findAll() {
        findOperators()
        findConditions()
        findReturns()
        findConstants()
        findBranches()
    }

    mutating func findOperators() {
        for (k, token) in t.enumerated() where token.isSpacedBinaryOperator {
            guard !structure.typeLevel[k], let flipped = MutationOperator.flipped(token.text) else { continue }
            let isBoolean = token.text == "&&" || token.text == "||"
            let close = "^" + token.text + "^"
            let open = token.text == "&&" ? "^&|" : token.text == "||" ? "^||" : "^^|"
            add(
                isBoolean ? .boolean : .relational, anchor: k, original: token.text, replacement: flipped,
                start: token.start, end: token.end, form: .replace("\(open) @@ \(close)"))
        }
    }

    /// The first token of a condition after its leading `try` and `await` (they stay in front of the switch, so
    /// that they cover it).
    func lead(_ condition: SourceStructure.Condition) -> Int? {
        var k = condition.first
        while k <= condition.last, t[k].isWord("try") || t[k].isWord("await") {
            if k + 1 <= condition.last, t[k + 1].kind == .operator, !t[k].spaceAfter { return nil }  // try? try!
            k += 1
        }
        return k <= condition.last ? k : nil
    }

    mutating func findConditions() {
        for condition in structure.conditions where condition.isSingleBoolean {
            guard let first = lead(condition) else { continue }
            // `while true`: the compiler's flow analysis knows the literal loop never ends (no `return` after
            // it); negated, the function would not compile, and a switch in its place would not either.
            if first == condition.last, t[first].isWord("true") || t[first].isWord("false") { continue }
            let shown = text(first, condition.last)
            let (start, end) = (t[first].start, t[condition.last].end)
            add(
                .negateCondition, anchor: condition.keywordToken, original: "\(condition.keyword.rawValue) \(shown)",
                replacement: "\(condition.keyword.rawValue) !(\(shown))", start: start, end: end,
                form: .wrap(prefix: "_STCMutation.negate(@@, ", suffix: ")"))
            if condition.keyword == .guard {
                add(
                    .removeGuard, anchor: condition.keywordToken, original: "guard \(shown) else",
                    replacement: "guard true else", start: start, end: end,
                    form: .wrap(prefix: "_STCMutation.on(@@) ? true : (", suffix: ")"))
            }
        }
    }

    mutating func findReturns() {
        for site in structure.returns where site.early {
            add(
                .removeReturn, anchor: site.token, original: text(site.token, site.last), replacement: "(removed)",
                start: t[site.token].start, end: t[site.last].end,
                form: .wrap(prefix: "if !_STCMutation.on(@@) { ", suffix: " }"))
        }
    }

    mutating func findConstants() {
        for (k, token) in t.enumerated() where token.kind == .integer {
            guard !structure.fixedLiteral[k], !structure.typeLevel[k], let value = Self.value(of: token.text) else {
                continue
            }
            if k > 0, t[k - 1].isSymbol("."), !token.spaceBefore { continue }  // a tuple element: `pair.0`
            if k > 1, t[k - 1].isSymbol("("), Self.capacityCalls.contains(t[k - 2].text) { continue }
            if k > 1, t[k - 1].isSymbol(":"), Self.capacityLabels.contains(t[k - 2].text) { continue }
            add(
                .constant, anchor: k, original: token.text, replacement: Self.moved(token.text, value),
                start: token.start, end: token.end, form: .wrap(prefix: "_STCMutation.plusOne(@@, ", suffix: ")"))
        }
    }

    mutating func findBranches() {
        for body in structure.ifBodies where body.isStatement && !body.endsByLeaving && body.open + 1 < body.close {
            let (first, last) = (body.open + 1, body.close - 1)
            add(
                .emptyBranch, anchor: body.ifToken, original: "{ \(text(first, last)) }", replacement: "{ }",
                start: t[first].start, end: t[last].end, form: .wrap(prefix: "if !_STCMutation.on(@@) { ", suffix: " }")
            )
        }
    }

    /// The value of an integer literal (`0x1F`, `0b101`, `0o17`, `1_000`), if it fits 64 bits.
    static func value(of literal: String) -> UInt64? {
        let digits = literal.filter { $0 != "_" }
        if digits.hasPrefix("0x") { return UInt64(digits.dropFirst(2), radix: 16) }
        if digits.hasPrefix("0b") { return UInt64(digits.dropFirst(2), radix: 2) }
        if digits.hasPrefix("0o") { return UInt64(digits.dropFirst(2), radix: 8) }
        return UInt64(digits)
    }

    /// The literal moved up by one, in its own notation.
    static func moved(_ literal: String, _ value: UInt64) -> String {
        let next = value &+ 1
        if literal.hasPrefix("0x") {
            let hex = String(next, radix: 16, uppercase: literal.contains(where: { "ABCDEF".contains($0) }))
            return "0x" + hex
        }
        if literal.hasPrefix("0b") { return "0b" + String(next, radix: 2) }
        if literal.hasPrefix("0o") { return "0o" + String(next, radix: 8) }
        return String(next)
    }

    /// The mutants with their stable ids, in source order.
    mutating func finish() -> [Mutant] {
        let ordered = found.sorted {
            ($0.mutant.edit.start, $0.mutant.mutationOperator) < ($1.mutant.edit.start, $1.mutant.mutationOperator)
        }
        var perLine: [String: Int] = [:]
        var seen: [String: Int] = [:]
        var result: [Mutant] = []
        for (anchor, var mutant) in ordered {
            let lineText = Self.lineText(source, t[anchor])
            let occurrenceKey = "\(mutant.line)|\(mutant.mutationOperator.rawValue)|\(mutant.original)"
            let occurrence = perLine[occurrenceKey, default: 0]
            perLine[occurrenceKey] = occurrence + 1
            let path = structure.declarationPath(at: anchor).joined(separator: ".")
            let key = [
                path, lineText, mutant.mutationOperator.rawValue, mutant.original, mutant.replacement,
                String(occurrence),
            ].joined(separator: "\u{1F}")
            var id = "\(file):\(mutant.mutationOperator.rawValue):\(StableHash.hex8(key))"
            let repeats = seen[id, default: 0]
            seen[id] = repeats + 1
            if repeats > 0 { id += "-\(repeats + 1)" }
            mutant.id = id
            result.append(mutant)
        }
        return result
    }

    /// The whole line of a token, indentation and runs of spaces collapsed.
    static func lineText(_ source: [UInt8], _ token: SwiftToken) -> String {
        var start = token.start
        while start > 0, source[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = token.start
        while end < source.count, source[end] != UInt8(ascii: "\n") { end += 1 }
        return String(decoding: source[start..<end], as: UTF8.self).split(separator: " ").joined(separator: " ")
    }
}

/// FNV-1a, 64 bits: a hash that is the same in every process and on every platform (Swift's `Hasher` is
/// seeded per process).
enum StableHash {
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The first 8 hex digits of ``fnv1a(_:)``.
    static func hex8(_ text: String) -> String {
        let hex = String(fnv1a(text) >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
