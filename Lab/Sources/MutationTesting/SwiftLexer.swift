/// A token of Swift source, as much as the mutator needs to know of it.
///
/// Comments and whitespace are not tokens; a whole string literal (interpolations included) is one token, so
/// nothing inside a string is ever a mutation site.
public struct SwiftToken: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A name or a keyword (keywords are told apart by their text): `if`, `count`, `` `default` ``, `$0`.
        case identifier
        /// An integer literal: `42`, `0xFF`, `0b1010`, `1_000`.
        case integer
        /// Any other number literal: `1.5`, `1e9`.
        case number
        /// A whole string literal, raw and multi-line ones included, from its first delimiter to its last.
        case string
        /// A run of operator characters: `<`, `<=`, `&&`, `->`, `..<`, `!`.
        case `operator`
        /// `(` `)` `[` `]` `{` `}` `,` `:` `;` `.` and a lone `#`, `@` or `\`.
        case punctuation
        /// `#available`, `#selector`, `#file`…: a pound keyword other than a compilation directive.
        case pound
    }

    public let kind: Kind
    public let text: String
    /// UTF-8 offsets of the token in the file: `start..<end`.
    public let start: Int
    public let end: Int
    /// 1-based line and UTF-8 column of the first byte.
    public let line: Int
    public let column: Int
    /// Whitespace (or the start of the file) right before the first byte / right after the last.
    public let spaceBefore: Bool
    public let spaceAfter: Bool
    /// A line break between the previous token and this one.
    public let newlineBefore: Bool

    /// Whether this is `text` as an operator or punctuation token.
    func isSymbol(_ symbol: String) -> Bool { (kind == .operator || kind == .punctuation) && text == symbol }

    /// Whether this is the word `word` (a keyword or contextual keyword, never a backticked name).
    func isWord(_ word: String) -> Bool { kind == .identifier && text == word }

    /// A binary operator as the formatter writes every one: whitespace on both sides. `<` in `Array<Int>` and
    /// `->`'s parts never qualify.
    var isSpacedBinaryOperator: Bool { kind == .operator && spaceBefore && spaceAfter }
}

/// Why a file could not be read as Swift.
public struct SwiftLexerError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var description: String { "line \(line): \(message)" }
}

/// A small Swift lexer that finds mutation sites safely.
///
/// Rules (The Swift Programming Language, "Lexical Structure"):
/// - comments are skipped: `//` to the end of the line, `/* … */` nested to any depth;
/// - a string literal is one token: `"…"`, multi-line `"""…"""`, raw `#"…"#` (any number of `#`), with escapes
///   and interpolations `\( … )` (`\#( … )` in raw strings) lexed as code, so a `)` or `"` inside an
///   interpolation does not end anything early;
/// - `#if`/`#elseif`/`#else`/`#endif` lines are read by the lexer, not tokens: only the branch the compiler
///   would build here is tokenized (``CompilationConditions``);
/// - attributes (`@inline(__always)`, `@available(iOS 16, *)`) are skipped with their arguments;
/// - operators are maximal runs of operator characters, so `->`, `...`, `..<` are single tokens.
///
/// ```swift
/// let tokens = try SwiftLexer.tokenize("if a < b { f(\"x < y\") }")
/// // if, a, <, b, {, f, (, "x < y", ), }
/// ```
public struct SwiftLexer {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0
    var tokens: [SwiftToken] = []
    var lastEmittedEnd = 0
    var sawNewline = false
    var conditions: [ConditionFrame] = []
    let environment: CompilationConditions

    struct ConditionFrame {
        /// Some earlier branch of this construct was taken.
        var taken: Bool
        /// The current branch is the one compiled.
        var active: Bool
        let line: Int
    }

    init(_ source: String, environment: CompilationConditions) {
        bytes = Array(source.utf8)
        self.environment = environment
    }

    /// The tokens of `source` that the compiler would see in a build with `environment`.
    public static func tokenize(_ source: String, environment: CompilationConditions = .host) throws(SwiftLexerError)
        -> [SwiftToken]
    {
        var lexer = SwiftLexer(source, environment: environment)
        try lexer.run()
        return lexer.tokens
    }

    var emitting: Bool { conditions.allSatisfy(\.active) }

    func peek(_ offset: Int = 0) -> UInt8 {
        let i = position + offset
        return i < bytes.count ? bytes[i] : 0
    }

    func fail(_ message: String) -> SwiftLexerError { SwiftLexerError(message: message, line: line) }

    mutating func run() throws(SwiftLexerError) {
        while position < bytes.count {
            let c = peek()
            if c == UInt8(ascii: "\n") {
                newline()
                continue
            }
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                position += 1
                continue
            }
            if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                skipLineComment()
                continue
            }
            if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                try skipBlockComment()
                continue
            }
            if c == UInt8(ascii: "#"), atLineStart(), let directive = directiveWord() {
                try handleDirective(directive)
                continue
            }
            let start = position
            let startLine = line
            let startColumn = position - lineStart + 1
            let kind = try lexToken()
            guard let kind else { continue }  // an attribute, skipped
            emit(kind, start: start, line: startLine, column: startColumn)
        }
        if let open = conditions.last { throw SwiftLexerError(message: "#if without #endif", line: open.line) }
    }

    mutating func newline() {
        position += 1
        line += 1
        lineStart = position
        sawNewline = true
    }

    func isSpace(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
    }

    mutating func emit(_ kind: SwiftToken.Kind, start: Int, line startLine: Int, column: Int) {
        guard emitting else {
            sawNewline = sawNewline || bytes[start..<position].contains(UInt8(ascii: "\n"))
            return
        }
        let token = SwiftToken(
            kind: kind, text: String(decoding: bytes[start..<position], as: UTF8.self), start: start, end: position,
            line: startLine, column: column, spaceBefore: start == 0 || isSpace(bytes[start - 1]),
            spaceAfter: position >= bytes.count || isSpace(bytes[position]),
            newlineBefore: sawNewline || tokens.isEmpty)
        tokens.append(token)
        sawNewline = false
        lastEmittedEnd = position
    }

    // MARK: comments

    mutating func skipLineComment() {
        while position < bytes.count, peek() != UInt8(ascii: "\n") { position += 1 }
    }

    mutating func skipBlockComment() throws(SwiftLexerError) {
        let startLine = line
        var depth = 0
        repeat {
            if position >= bytes.count {
                throw SwiftLexerError(message: "unterminated /* comment", line: startLine)
            }
            if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                position += 2
            } else if peek() == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
            } else if peek() == UInt8(ascii: "\n") {
                newline()
            } else {
                position += 1
            }
        } while depth > 0
    }

    // MARK: compilation directives

    func atLineStart() -> Bool {
        var i = position - 1
        while i >= lineStart {
            if bytes[i] != UInt8(ascii: " ") && bytes[i] != UInt8(ascii: "\t") { return false }
            i -= 1
        }
        return true
    }

    func directiveWord() -> String? {
        var i = position + 1
        while i < bytes.count, isIdentifierByte(bytes[i]) { i += 1 }
        let word = String(decoding: bytes[(position + 1)..<i], as: UTF8.self)
        return ["if", "elseif", "else", "endif"].contains(word) ? word : nil
    }

    /// Reads a directive line; the condition ends at the end of the line or at a comment.
    mutating func handleDirective(_ word: String) throws(SwiftLexerError) {
        position += 1 + word.utf8.count
        var conditionBytes: [UInt8] = []
        while position < bytes.count, peek() != UInt8(ascii: "\n") {
            if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") { break }
            if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                try skipBlockComment()
                continue
            }
            conditionBytes.append(peek())
            position += 1
        }
        skipLineComment()
        sawNewline = true
        let condition = String(decoding: conditionBytes, as: UTF8.self)
        switch word {
        case "if":
            let value = try environment.evaluate(condition, line: line)
            conditions.append(ConditionFrame(taken: value, active: value, line: line))
        case "elseif":
            guard var frame = conditions.popLast() else { throw fail("#elseif without #if") }
            let value = try environment.evaluate(condition, line: line)
            frame.active = !frame.taken && value
            frame.taken = frame.taken || value
            conditions.append(frame)
        case "else":
            guard var frame = conditions.popLast() else { throw fail("#else without #if") }
            frame.active = !frame.taken
            frame.taken = true
            conditions.append(frame)
        default:
            guard conditions.popLast() != nil else { throw fail("#endif without #if") }
        }
    }

    // MARK: tokens

    func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c >= 0x80
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    static let operatorBytes = Set("/=-+!*%<>&|^~?".utf8)

    /// Lexes one token at `position`; `nil` for an attribute (skipped).
    mutating func lexToken() throws(SwiftLexerError) -> SwiftToken.Kind? {
        let c = peek()
        if c == UInt8(ascii: "\"") || (c == UInt8(ascii: "#") && rawStringHashes() != nil) {
            try skipString()
            return .string
        }
        if c == UInt8(ascii: "#"), peek(1) == UInt8(ascii: "/") || extendedRegexHashes() != nil {
            try skipExtendedRegex()
            return .string
        }
        if c == UInt8(ascii: "@"), isIdentifierByte(peek(1)), !isDigit(peek(1)) {
            try skipAttribute()
            return nil
        }
        if c == UInt8(ascii: "#"), isIdentifierByte(peek(1)) {
            position += 1
            while position < bytes.count, isIdentifierByte(peek()) { position += 1 }
            return .pound
        }
        if c == UInt8(ascii: "`") {
            position += 1
            while position < bytes.count, peek() != UInt8(ascii: "`"), peek() != UInt8(ascii: "\n") { position += 1 }
            guard peek() == UInt8(ascii: "`") else { throw fail("unterminated backticked name") }
            position += 1
            return .identifier
        }
        if c == UInt8(ascii: "$") || (isIdentifierByte(c) && !isDigit(c)) {
            position += 1
            while position < bytes.count, isIdentifierByte(peek()) { position += 1 }
            return .identifier
        }
        if isDigit(c) { return lexNumber() }
        if c == UInt8(ascii: "."), peek(1) == UInt8(ascii: ".") {
            while peek() == UInt8(ascii: ".") || Self.operatorBytes.contains(peek()) { position += 1 }
            return .operator
        }
        if Self.operatorBytes.contains(c) {
            while position < bytes.count, Self.operatorBytes.contains(peek()) {
                // A comment starts a new thing even right after an operator.
                if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*") {
                    break
                }
                position += 1
            }
            return .operator
        }
        position += 1
        return .punctuation
    }

    mutating func lexNumber() -> SwiftToken.Kind {
        var isInteger = true
        if peek() == UInt8(ascii: "0"), [UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "b")].contains(peek(1)) {
            let hex = peek(1) == UInt8(ascii: "x")
            position += 2
            while position < bytes.count, isIdentifierByte(peek()) {
                // Hexadecimal floats have a `p` exponent and may have a fraction.
                if hex, peek() == UInt8(ascii: "p") || peek() == UInt8(ascii: "P") {
                    isInteger = false
                    position += 1
                    if peek() == UInt8(ascii: "-") || peek() == UInt8(ascii: "+") { position += 1 }
                    continue
                }
                position += 1
            }
            if hex, peek() == UInt8(ascii: "."), isIdentifierByte(peek(1)), !isIdentifierStart(peek(1)) {
                isInteger = false
                position += 1
                while position < bytes.count, isIdentifierByte(peek()) { position += 1 }
            }
            return isInteger ? .integer : .number
        }
        while position < bytes.count, isDigit(peek()) || peek() == UInt8(ascii: "_") { position += 1 }
        if peek() == UInt8(ascii: "."), isDigit(peek(1)) {
            isInteger = false
            position += 1
            while position < bytes.count, isDigit(peek()) || peek() == UInt8(ascii: "_") { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "-") || peek() == UInt8(ascii: "+") { position += 1 }
            while position < bytes.count, isDigit(peek()) || peek() == UInt8(ascii: "_") { position += 1 }
        }
        return isInteger ? .integer : .number
    }

    func isIdentifierStart(_ c: UInt8) -> Bool { isIdentifierByte(c) && !isDigit(c) }

    /// `@name` and, right after it, a parenthesized argument list.
    mutating func skipAttribute() throws(SwiftLexerError) {
        position += 1
        while position < bytes.count, isIdentifierByte(peek()) { position += 1 }
        guard peek() == UInt8(ascii: "(") else { return }
        try skipBalancedCode(opening: UInt8(ascii: "("), closing: UInt8(ascii: ")"))
    }

    /// Skips from an opening bracket at `position` to just past its closing bracket, lexing what is between as
    /// code (strings and comments inside may hold brackets).
    mutating func skipBalancedCode(opening: UInt8, closing: UInt8) throws(SwiftLexerError) {
        let startLine = line
        var depth = 0
        while position < bytes.count {
            let c = peek()
            if c == UInt8(ascii: "\n") {
                newline()
                continue
            }
            if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                skipLineComment()
                continue
            }
            if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                try skipBlockComment()
                continue
            }
            if c == UInt8(ascii: "\"") || (c == UInt8(ascii: "#") && rawStringHashes() != nil) {
                try skipString()
                continue
            }
            position += 1
            if c == opening {
                depth += 1
            } else if c == closing {
                depth -= 1
                if depth == 0 { return }
            }
        }
        throw SwiftLexerError(message: "unbalanced \(Character(Unicode.Scalar(opening)))", line: startLine)
    }

    /// The number of `#` before a `"` at `position`, when a raw string starts here.
    func rawStringHashes() -> Int? {
        var n = 0
        while peek(n) == UInt8(ascii: "#") { n += 1 }
        return n > 0 && peek(n) == UInt8(ascii: "\"") ? n : nil
    }

    func extendedRegexHashes() -> Int? {
        var n = 0
        while peek(n) == UInt8(ascii: "#") { n += 1 }
        return n > 0 && peek(n) == UInt8(ascii: "/") ? n : nil
    }

    /// `#/ … /#` (any number of `#`): skipped whole, as a string.
    mutating func skipExtendedRegex() throws(SwiftLexerError) {
        let hashes = extendedRegexHashes() ?? 0
        let startLine = line
        position += hashes + 1
        while position < bytes.count {
            if peek() == UInt8(ascii: "/"), (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                position += 1 + hashes
                return
            }
            if peek() == UInt8(ascii: "\n") { newline() } else { position += 1 }
        }
        throw SwiftLexerError(message: "unterminated regex literal", line: startLine)
    }

    /// Skips a string literal starting at `position` (its opening `#`s or `"`).
    mutating func skipString() throws(SwiftLexerError) {
        let startLine = line
        var hashes = 0
        while peek() == UInt8(ascii: "#") {
            hashes += 1
            position += 1
        }
        let multiline =
            peek() == UInt8(ascii: "\"") && peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        position += multiline ? 3 : 1
        func closesHere(_ lexer: SwiftLexer) -> Bool {
            let quotes = multiline ? 3 : 1
            for k in 0..<quotes where lexer.peek(k) != UInt8(ascii: "\"") { return false }
            for k in 0..<hashes where lexer.peek(quotes + k) != UInt8(ascii: "#") { return false }
            return true
        }
        while position < bytes.count {
            let c = peek()
            if c == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                position += 1 + hashes
                if peek() == UInt8(ascii: "(") {
                    try skipBalancedCode(opening: UInt8(ascii: "("), closing: UInt8(ascii: ")"))
                } else if peek() == UInt8(ascii: "\n") {
                    newline()  // a line continuation in a multi-line string
                } else {
                    position += 1
                }
                continue
            }
            if c == UInt8(ascii: "\"") && closesHere(self) {
                position += (multiline ? 3 : 1) + hashes
                return
            }
            if c == UInt8(ascii: "\n") {
                guard multiline else { break }
                newline()
                continue
            }
            position += 1
        }
        throw SwiftLexerError(message: "unterminated string literal", line: startLine)
    }
}
