/// The statement structure of one Swift file, found from its tokens: what the mutation operators need and no
/// more (conditions of `if`/`guard`/`while`, `if` bodies, `return` statements and whether each is early, the
/// type-level parts where `==` is a requirement and not an operator, and the enclosing declarations).
///
/// Rules (The Swift Programming Language, "Statements"): a statement ends at `;` or at a line break, unless the
/// line ends with a binary operator, `,`, an opening bracket, `.`, `return`, `try`, `await`, `as` or `is`, or the
/// next line starts with a binary operator, `.` or `:` (a formatted chain or ternary) or with `else`. The body of
/// an `if`, `while`, `for` or `switch` is the first `{` of its header outside brackets (the language forbids a
/// trailing closure there), a `guard`'s is the `{` after its `else`.
///
/// ```swift
/// let structure = try SourceStructure(tokens: SwiftLexer.tokenize(source))
/// structure.returns.filter(\.early)   // the returns that leave a body which is not the function's end
/// ```
public struct SourceStructure: Sendable {
    /// The condition of an `if`, `guard` or `while`.
    public struct Condition: Sendable, Equatable {
        public enum Keyword: String, Sendable { case `if`, `guard`, `while` }
        public var keyword: Keyword
        /// The keyword's token and the condition's first and last tokens.
        public var keywordToken: Int
        public var first: Int
        public var last: Int
        /// One Boolean expression: no `,` clauses, no `let`/`var`/`case` binding, no `#available`.
        public var isSingleBoolean: Bool
    }

    /// The then-body of an `if`.
    public struct IfBody: Sendable, Equatable {
        public var ifToken: Int
        public var open: Int
        public var close: Int
        /// A statement, not an `if` expression (`let x = if …`), whose branches must produce a value.
        public var isStatement: Bool
        /// Its last statement leaves: `return`, `throw`, `break`, `continue`, `fallthrough`, `fatalError(…)`.
        public var endsByLeaving: Bool
    }

    /// A `return` statement.
    public struct Return: Sendable, Equatable {
        public var token: Int
        /// The last token of the returned expression (the `return` itself when bare).
        public var last: Int
        /// Leaves early: removing it lets the function go on (it is the last statement of an `if` body, a
        /// `case` body, a loop body or a `do` block that some statement follows, or of a loop body), rather than
        /// being the function's last statement or a `guard`'s required exit.
        public var early: Bool
    }

    /// A function, accessor, closure or type declaration: `name` spans `start…end` (tokens).
    public struct Declaration: Sendable, Equatable {
        public var name: String
        public var start: Int
        public var end: Int
    }

    public private(set) var conditions: [Condition] = []
    public private(set) var ifBodies: [IfBody] = []
    public private(set) var returns: [Return] = []
    public private(set) var declarations: [Declaration] = []
    /// Per token: in a type-level part (generic `where` clause, `typealias`, an operator's name), where `==`
    /// and `<` are not the operators.
    public private(set) var typeLevel: [Bool]
    /// Per token: an integer literal that may not change (an enum case's raw value).
    public private(set) var fixedLiteral: [Bool]

    /// Analyzes `tokens`; unbalanced brackets are a ``SwiftLexerError``.
    public init(tokens: [SwiftToken]) throws(SwiftLexerError) {
        typeLevel = Array(repeating: false, count: tokens.count)
        fixedLiteral = Array(repeating: false, count: tokens.count)
        var parser = try StructureParser(tokens: tokens)
        parser.parseList(from: 0, to: tokens.count, kind: .file, parent: nil)
        conditions = parser.conditions
        ifBodies = parser.ifBodies
        declarations = parser.declarations
        for index in parser.typeLevel { typeLevel[index] = true }
        for index in parser.fixedLiteral { fixedLiteral[index] = true }
        returns = parser.returnSites.map { site in
            Return(token: site.token, last: site.last, early: parser.isEarly(statement: site.statement))
        }
    }

    /// The names of the declarations around token `index`, outermost first: `["Base64", "encode"]`.
    public func declarationPath(at index: Int) -> [String] {
        declarations.filter { $0.start <= index && index <= $0.end }.sorted { $0.start < $1.start }.map(\.name)
    }
}

/// What a list of statements is the body of.
enum StatementListKind {
    case file, type, function, ifBody, elseBody, guardElse, loop, caseBody, plain
}

struct StructureParser {
    let t: [SwiftToken]
    /// For each bracket, the index of its partner; -1 for other tokens.
    var partner: [Int]

    struct List {
        var kind: StatementListKind
        var parent: Int?
        var statements: [Int] = []
    }
    struct Statement {
        var list: Int
        var index: Int
        var start: Int
    }
    struct ReturnSite {
        var token: Int
        var last: Int
        var statement: Int
    }

    var lists: [List] = []
    var statements: [Statement] = []
    var returnSites: [ReturnSite] = []
    var conditions: [SourceStructure.Condition] = []
    var ifBodies: [SourceStructure.IfBody] = []
    var declarations: [SourceStructure.Declaration] = []
    var typeLevel: [Int] = []
    var fixedLiteral: [Int] = []

    static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "static", "final", "override",
        "mutating", "nonmutating", "lazy", "weak", "unowned", "convenience", "required", "indirect", "nonisolated",
        "dynamic", "optional", "prefix", "postfix", "infix", "consuming", "borrowing", "isolated", "distributed",
    ]
    static let leavingWords: Set<String> = ["return", "throw", "break", "continue", "fallthrough"]
    static let leavingCalls: Set<String> = ["fatalError", "preconditionFailure"]

    init(tokens: [SwiftToken]) throws(SwiftLexerError) {
        t = tokens
        partner = Array(repeating: -1, count: tokens.count)
        var stack: [Int] = []
        for (i, token) in tokens.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "(", "[", "{": stack.append(i)
            case ")", "]", "}":
                guard let open = stack.popLast(), Self.closing(tokens[open].text) == token.text else {
                    throw SwiftLexerError(message: "unbalanced '\(token.text)'", line: token.line)
                }
                partner[open] = i
                partner[i] = open
            default: break
            }
        }
        if let open = stack.last {
            throw SwiftLexerError(message: "unclosed '\(tokens[open].text)'", line: tokens[open].line)
        }
    }

    static func closing(_ open: String) -> String { open == "(" ? ")" : open == "[" ? "]" : "}" }

    func word(_ i: Int, _ w: String) -> Bool { i < t.count && t[i].isWord(w) }
    func symbol(_ i: Int, _ s: String) -> Bool { i < t.count && t[i].isSymbol(s) }
    func isOpener(_ i: Int) -> Bool { t[i].kind == .punctuation && ["(", "[", "{"].contains(t[i].text) }

    // MARK: lists and statements

    /// Parses statements from `a` to `b`; a case body stops at the next `case` or `default` label, and the index
    /// where parsing stopped is returned.
    @discardableResult
    mutating func parseList(from a: Int, to b: Int, kind: StatementListKind, parent: Int?) -> Int {
        lists.append(List(kind: kind, parent: parent))
        let list = lists.count - 1
        var i = a
        while i < b {
            if symbol(i, ";") {
                i += 1
                continue
            }
            if kind == .caseBody, word(i, "case") || word(i, "default") { return i }
            let statement = statements.count
            statements.append(Statement(list: list, index: lists[list].statements.count, start: i))
            lists[list].statements.append(statement)
            let end = parseStatement(at: i, limit: b, statement: statement, listKind: kind)
            i = max(end, i + 1)
        }
        return b
    }

    /// Parses the statement starting at `i`; returns the index after it.
    mutating func parseStatement(at start: Int, limit b: Int, statement s: Int, listKind: StatementListKind) -> Int {
        var i = start
        // Modifiers, `private(set)`, a statement label, `class` before a member.
        while i < b, t[i].kind == .identifier {
            let text = t[i].text
            if Self.modifiers.contains(text), i + 1 < b {
                if t[i + 1].kind == .identifier {
                    i += 1
                    continue
                }
                // `private(set) var`, `nonisolated(unsafe) let`: a parenthesized word, then the declaration.
                if symbol(i + 1, "("), partner[i + 1] == i + 3, i + 4 < b, t[i + 4].kind == .identifier {
                    i += 4
                    continue
                }
            }
            if text == "class", i + 1 < b,
                ["func", "var", "let", "subscript", "override", "final", "static"].contains(t[i + 1].text)
            {
                i += 1
                continue
            }
            if symbol(i + 1, ":"), i + 2 < b, ["for", "while", "repeat", "do", "if", "switch"].contains(t[i + 2].text) {
                i += 2
                continue
            }
            break
        }
        guard i < b else { return b }
        guard t[i].kind == .identifier else { return scanExpression(from: i, limit: b, statement: s) }
        switch t[i].text {
        case "if": return parseIf(at: i, limit: b, statement: s, isStatement: true)
        case "guard": return parseGuard(at: i, limit: b, statement: s)
        case "while":
            let brace = scanCondition(from: i + 1, limit: b, statement: s, stopAtElse: false)
            recordCondition(.while, keyword: i, first: i + 1, last: brace - 1)
            return parseBody(at: brace, kind: .loop, statement: s)
        case "for":
            let brace = scanCondition(from: i + 1, limit: b, statement: s, stopAtElse: false)
            return parseBody(at: brace, kind: .loop, statement: s)
        case "repeat":
            guard symbol(i + 1, "{") else { return scanExpression(from: i + 1, limit: b, statement: s) }
            let end = parseBody(at: i + 1, kind: .loop, statement: s)
            guard word(end, "while") else { return end }
            return scanExpression(from: end + 1, limit: b, statement: s)
        case "switch": return parseSwitch(at: i, limit: b, statement: s)
        case "do":
            guard symbol(i + 1, "{") else { return scanExpression(from: i, limit: b, statement: s) }
            var end = parseBody(at: i + 1, kind: .plain, statement: s)
            while word(end, "catch") {
                let brace = scanCondition(from: end + 1, limit: b, statement: s, stopAtElse: false)
                end = parseBody(at: brace, kind: .plain, statement: s)
            }
            return end
        case "defer":
            guard symbol(i + 1, "{") else { return i + 1 }
            return parseBody(at: i + 1, kind: .plain, statement: s)
        case "return": return parseReturn(at: i, limit: b, statement: s)
        case "func", "init", "deinit", "subscript": return parseFunction(at: i, limit: b, statement: s)
        case "struct", "class", "enum", "extension", "protocol", "actor":
            return parseType(at: i, limit: b, statement: s)
        case "var", "let": return parseVariable(at: i, limit: b, statement: s)
        case "case" where listKind == .type:
            // An enum case: its raw values are fixed by the language to be literals.
            let end = scanExpression(from: i + 1, limit: b, statement: s)
            for k in i..<end where t[k].kind == .integer { fixedLiteral.append(k) }
            return end
        case "typealias", "associatedtype", "import", "operator":
            let end = scanExpression(from: i + 1, limit: b, statement: s)
            typeLevel.append(contentsOf: i..<end)
            return end
        case "precedencegroup":
            var k = i + 1
            while k < b, !symbol(k, "{") { k += 1 }
            let end = k < b ? partner[k] + 1 : b
            typeLevel.append(contentsOf: i..<end)
            return end
        default: return scanExpression(from: i, limit: b, statement: s)
        }
    }

    /// Parses the block opening at `brace` (when there is one) as a list of `kind`; returns the index after it.
    mutating func parseBody(at brace: Int, kind: StatementListKind, statement s: Int) -> Int {
        guard brace < t.count, symbol(brace, "{"), partner[brace] > brace else { return brace }
        parseList(from: brace + 1, to: partner[brace], kind: kind, parent: s)
        return partner[brace] + 1
    }

    mutating func recordCondition(_ keyword: SourceStructure.Condition.Keyword, keyword k: Int, first: Int, last: Int) {
        guard first <= last else { return }
        var single = true
        var i = first
        while i <= last {
            if symbol(i, ",") { single = false }
            if isOpener(i), partner[i] > i {
                i = partner[i] + 1
                continue
            }
            i += 1
        }
        var lead = first
        while lead <= last, word(lead, "try") || word(lead, "await") { lead += 1 }
        if word(lead, "let") || word(lead, "var") || word(lead, "case") || t[lead].kind == .pound { single = false }
        conditions.append(.init(keyword: keyword, keywordToken: k, first: first, last: last, isSingleBoolean: single))
    }

    mutating func parseIf(at i: Int, limit b: Int, statement s: Int, isStatement: Bool) -> Int {
        let brace = scanCondition(from: i + 1, limit: b, statement: s, stopAtElse: false)
        recordCondition(.if, keyword: i, first: i + 1, last: brace - 1)
        guard brace < b, symbol(brace, "{") else { return brace }
        let close = partner[brace]
        let listIndex = lists.count
        parseList(from: brace + 1, to: close, kind: .ifBody, parent: s)
        let bodyStatements = lists[listIndex].statements
        ifBodies.append(
            .init(
                ifToken: i, open: brace, close: close, isStatement: isStatement,
                endsByLeaving: bodyStatements.last.map { leaves(statements[$0].start) } ?? false))
        var end = close + 1
        if word(end, "else") {
            if word(end + 1, "if") {
                end = parseIf(at: end + 1, limit: b, statement: s, isStatement: isStatement)
            } else {
                end = parseBody(at: end + 1, kind: .elseBody, statement: s)
            }
        }
        return end
    }

    func leaves(_ start: Int) -> Bool {
        guard t[start].kind == .identifier else { return false }
        return Self.leavingWords.contains(t[start].text)
            || (Self.leavingCalls.contains(t[start].text) && symbol(start + 1, "("))
    }

    mutating func parseGuard(at i: Int, limit b: Int, statement s: Int) -> Int {
        let elseToken = scanCondition(from: i + 1, limit: b, statement: s, stopAtElse: true)
        recordCondition(.guard, keyword: i, first: i + 1, last: elseToken - 1)
        guard word(elseToken, "else") else { return elseToken }
        return parseBody(at: elseToken + 1, kind: .guardElse, statement: s)
    }

    mutating func parseSwitch(at i: Int, limit b: Int, statement s: Int) -> Int {
        let brace = scanCondition(from: i + 1, limit: b, statement: s, stopAtElse: false)
        guard brace < b, symbol(brace, "{") else { return brace }
        let close = partner[brace]
        var k = brace + 1
        while k < close {
            if word(k, "default") || word(k, "case") {
                // The label ends at its first `:` outside brackets.
                var colon = k + 1
                while colon < close, !symbol(colon, ":") {
                    if isOpener(colon), partner[colon] > colon {
                        scanNested(from: colon + 1, to: partner[colon], statement: s)
                        colon = partner[colon] + 1
                    } else {
                        colon += 1
                    }
                }
                k = parseList(from: colon + 1, to: close, kind: .caseBody, parent: s)
            } else {
                k += 1  // not a label (a directive's leftover): skip
            }
        }
        return close + 1
    }

    mutating func parseReturn(at i: Int, limit b: Int, statement s: Int) -> Int {
        var end = i + 1
        if end < b, !symbol(end, "}"), !startsStatement(end) || continues(end) {
            end = scanExpression(from: end, limit: b, statement: s)
        }
        returnSites.append(ReturnSite(token: i, last: end - 1, statement: s))
        return end
    }

    mutating func parseFunction(at i: Int, limit b: Int, statement s: Int) -> Int {
        let name: String
        if word(i, "func"), i + 1 < b {
            name = t[i + 1].text
            typeLevel.append(i + 1)
        } else {
            name = t[i].text
        }
        var k = i + 1
        var whereStart: Int?
        while k < b {
            if k > i + 1, startsStatement(k), !continues(k) { break }
            if symbol(k, "{") { break }
            if word(k, "where") { whereStart = k }
            if whereStart == nil, isOpener(k), partner[k] > k {
                scanNested(from: k + 1, to: partner[k], statement: s)
                k = partner[k] + 1
                continue
            }
            k += 1
        }
        if let whereStart { typeLevel.append(contentsOf: whereStart..<k) }
        guard k < b, symbol(k, "{") else { return k }
        declarations.append(.init(name: name, start: i, end: partner[k]))
        return parseBody(at: k, kind: .function, statement: s)
    }

    mutating func parseType(at i: Int, limit b: Int, statement s: Int) -> Int {
        var k = i + 1
        var name = ""
        // The name: a word, or a dotted path of words (`extension Outer.Inner`); `where` is not part of it.
        while k < b, t[k].kind == .identifier, !word(k, "where") {
            name += t[k].text
            k += 1
            guard symbol(k, "."), k + 1 < b else { break }
            name += "."
            k += 1
        }
        var whereStart: Int?
        while k < b, !symbol(k, "{") {
            if startsStatement(k), !continues(k) { return k }
            if word(k, "where") { whereStart = k }
            k += 1
        }
        if let whereStart { typeLevel.append(contentsOf: whereStart..<k) }
        guard k < b else { return k }
        declarations.append(.init(name: name, start: i, end: partner[k]))
        return parseBody(at: k, kind: .type, statement: s)
    }

    static let accessorWords: Set<String> = ["get", "set", "willSet", "didSet", "_read", "_modify", "init"]

    mutating func parseVariable(at i: Int, limit b: Int, statement s: Int) -> Int {
        let name = i + 1 < b ? t[i + 1].text : "_"
        var k = i + 1
        while k < b {
            if k > i + 1, startsStatement(k), !continues(k) { return k }
            if t[k].isSymbol("=") {
                return scanExpression(from: k + 1, limit: b, statement: s)
            }
            if symbol(k, "{") {
                declarations.append(.init(name: name, start: i, end: partner[k]))
                parseAccessors(open: k, statement: s)
                return partner[k] + 1
            }
            if isOpener(k), partner[k] > k {
                k = partner[k] + 1
                continue
            }
            k += 1
        }
        return k
    }

    mutating func parseAccessors(open: Int, statement s: Int) {
        let close = partner[open]
        guard open + 1 < close, t[open + 1].kind == .identifier, Self.accessorWords.contains(t[open + 1].text)
        else {
            parseList(from: open + 1, to: close, kind: .function, parent: s)
            return
        }
        var k = open + 1
        while k < close {
            if symbol(k, "{"), partner[k] > k {
                parseList(from: k + 1, to: partner[k], kind: .function, parent: s)
                k = partner[k] + 1
            } else {
                k += 1
            }
        }
    }

    mutating func parseClosure(open: Int, statement s: Int) {
        let close = partner[open]
        var k = open + 1
        var signatureEnd: Int?
        // A signature: optional capture list, parameters, effects, result type, then `in`.
        var scan = k
        while scan < close {
            if word(scan, "in") {
                signatureEnd = scan
                break
            }
            if scan > open + 1, t[scan].newlineBefore { break }
            if symbol(scan, "{") || t[scan].isSymbol("=") { break }
            if t[scan].kind == .identifier,
                ["return", "if", "guard", "let", "var", "for", "while", "switch", "try", "await"].contains(
                    t[scan].text)
            {
                break
            }
            if isOpener(scan), partner[scan] > scan {
                scan = partner[scan] + 1
                continue
            }
            scan += 1
        }
        if let signatureEnd { k = signatureEnd + 1 }
        declarations.append(.init(name: "{closure}", start: open, end: close))
        parseList(from: k, to: close, kind: .function, parent: s)
    }

    // MARK: expressions

    /// Whether token `k` begins a line.
    func startsStatement(_ k: Int) -> Bool { t[k].newlineBefore }

    /// A line break before token `k` that does not end the statement (see ``SourceStructure``).
    func continues(_ k: Int) -> Bool {
        guard k > 0 else { return false }
        let prev = t[k - 1]
        let next = t[k]
        if prev.kind == .operator && prev.spaceBefore { return true }
        if prev.kind == .punctuation && [",", "(", "[", ".", ":"].contains(prev.text) { return true }
        if prev.kind == .identifier && ["return", "throw", "try", "await", "as", "is"].contains(prev.text) {
            return true
        }
        if next.kind == .operator && next.spaceBefore && next.spaceAfter { return true }
        if next.kind == .punctuation && [".", ":"].contains(next.text) { return true }
        if next.kind == .identifier && ["else", "catch", "where", "throws", "rethrows", "async"].contains(next.text) {
            return true
        }
        return false
    }

    /// Scans an expression statement from `i` to its end; closures and `if`/`switch` expressions in it are parsed.
    mutating func scanExpression(from i: Int, limit b: Int, statement s: Int) -> Int {
        var k = i
        while k < b {
            if k > i, startsStatement(k), !continues(k) { return k }
            if symbol(k, ";") { return k }
            k = scanTerm(at: k, limit: b, statement: s)
        }
        return b
    }

    /// Scans a condition or header up to the `{` of its body (or, for a `guard`, the `else`); returns its index.
    mutating func scanCondition(from i: Int, limit b: Int, statement s: Int, stopAtElse: Bool) -> Int {
        var k = i
        while k < b {
            if symbol(k, "{") { return k }
            if stopAtElse, word(k, "else") { return k }
            k = scanTerm(at: k, limit: b, statement: s)
        }
        return b
    }

    /// One step over an expression: a bracketed group (its contents scanned), a closure, an `if` or `switch`
    /// expression, or one token.
    mutating func scanTerm(at k: Int, limit b: Int, statement s: Int) -> Int {
        if symbol(k, "{"), partner[k] > k {
            parseClosure(open: k, statement: s)
            return partner[k] + 1
        }
        if isOpener(k), partner[k] > k {
            scanNested(from: k + 1, to: partner[k], statement: s)
            return partner[k] + 1
        }
        if word(k, "if") { return parseIf(at: k, limit: b, statement: s, isStatement: false) }
        if word(k, "switch") { return parseSwitch(at: k, limit: b, statement: s) }
        return k + 1
    }

    /// Inside brackets everything is expression: only closures and `if`/`switch` expressions need parsing.
    mutating func scanNested(from a: Int, to b: Int, statement s: Int) {
        var k = a
        while k < b { k = scanTerm(at: k, limit: b, statement: s) }
    }

    // MARK: early returns

    /// A statement leaves early when removing it lets its function go on: walking out from it, some enclosing
    /// body is a loop, or some enclosing statement has a statement after it, before a function body is reached.
    func isEarly(statement start: Int) -> Bool {
        var s = start
        var first = true
        while true {
            let statement = statements[s]
            let list = lists[statement.list]
            let isLast = statement.index == list.statements.count - 1
            if first {
                // A `return` with statements after it: dead code follows; leave it alone.
                guard isLast else { return false }
            } else if !isLast {
                return true
            }
            switch list.kind {
            case .file, .type, .function, .guardElse: return false
            case .loop: return true
            default: break
            }
            guard let parent = list.parent else { return false }
            s = parent
            first = false
        }
    }
}
