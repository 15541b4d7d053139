/// What a build defines, for deciding which branch of a `#if` the compiler compiles.
///
/// Rule (The Swift Programming Language, "Compiler Control Statements"): a condition is a combination with `!`,
/// `&&`, `||` and parentheses of flags (`DEBUG`; an undefined flag is false) and platform conditions
/// (`os(Linux)`, `arch(x86_64)`, `canImport(Glibc)`, `compiler(>=6)`, `swift(>=5.9)`, `hasFeature(X)`,
/// `targetEnvironment(simulator)`).
///
/// ```swift
/// try CompilationConditions.host.evaluate("canImport(Glibc) && !SOME_FLAG", line: 1)  // true on Linux
/// ```
public struct CompilationConditions: Sendable {
    /// Flags given with `-D` (and `DEBUG`, which debug builds define).
    public var flags: Set<String>
    public var os: String
    public var arch: String
    public var importableModules: Set<String>

    public init(flags: Set<String>, os: String, arch: String, importableModules: Set<String>) {
        self.flags = flags
        self.os = os
        self.arch = arch
        self.importableModules = importableModules
    }

    /// A debug build on this machine (the mutation build is a debug build).
    public static var host: CompilationConditions {
        #if os(Linux)
            let os = "Linux"
            let modules: Set<String> = ["Glibc", "Foundation", "FoundationEssentials", "Dispatch", "Testing", "XCTest"]
        #elseif os(macOS)
            let os = "macOS"
            let modules: Set<String> = [
                "Darwin", "Foundation", "FoundationEssentials", "Dispatch", "Testing", "XCTest",
            ]
        #else
            let os = "unknown"
            let modules: Set<String> = ["Foundation"]
        #endif
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "unknown"
        #endif
        return CompilationConditions(flags: ["DEBUG"], os: os, arch: arch, importableModules: modules)
    }

    /// The value of a `#if`/`#elseif` condition; a syntax error is a ``SwiftLexerError`` at `line`.
    public func evaluate(_ condition: String, line: Int) throws(SwiftLexerError) -> Bool {
        var parser = ConditionParser(text: Array(condition.utf8), conditions: self, line: line)
        let value = try parser.disjunction()
        parser.skipSpaces()
        guard parser.atEnd else {
            throw SwiftLexerError(message: "cannot read #if condition '\(condition)'", line: line)
        }
        return value
    }

    func platform(_ name: String, _ argument: String) -> Bool {
        switch name {
        case "os": return argument == os
        case "arch": return argument == arch
        case "canImport": return importableModules.contains(argument)
        // This toolchain is newer than any version a condition here names.
        case "compiler", "swift": return argument.hasPrefix(">=")
        default: return false  // hasFeature, hasAttribute, targetEnvironment, _endian…: not in these builds
        }
    }
}

/// Recursive descent over a condition: `||` binds loosest, then `&&`, then `!`.
private struct ConditionParser {
    let text: [UInt8]
    let conditions: CompilationConditions
    let line: Int
    var position = 0

    var atEnd: Bool { position >= text.count }

    mutating func skipSpaces() {
        while position < text.count, text[position] == UInt8(ascii: " ") || text[position] == UInt8(ascii: "\t") {
            position += 1
        }
    }

    mutating func take(_ symbol: String) -> Bool {
        skipSpaces()
        let s = Array(symbol.utf8)
        guard position + s.count <= text.count, Array(text[position..<position + s.count]) == s else { return false }
        position += s.count
        return true
    }

    func error() -> SwiftLexerError {
        SwiftLexerError(message: "cannot read #if condition '\(String(decoding: text, as: UTF8.self))'", line: line)
    }

    mutating func disjunction() throws(SwiftLexerError) -> Bool {
        var value = try conjunction()
        while take("||") { value = try conjunction() || value }
        return value
    }

    mutating func conjunction() throws(SwiftLexerError) -> Bool {
        var value = try unary()
        while take("&&") { value = try unary() && value }
        return value
    }

    mutating func unary() throws(SwiftLexerError) -> Bool {
        if take("!") { return try !unary() }
        if take("(") {
            let value = try disjunction()
            guard take(")") else { throw error() }
            return value
        }
        skipSpaces()
        let start = position
        while position < text.count, isNameByte(text[position]) { position += 1 }
        guard position > start else { throw error() }
        let name = String(decoding: text[start..<position], as: UTF8.self)
        if name == "true" { return true }
        if name == "false" { return false }
        guard take("(") else { return conditions.flags.contains(name) }
        let argumentStart = position
        while position < text.count, text[position] != UInt8(ascii: ")") { position += 1 }
        guard position < text.count else { throw error() }
        let argument = String(decoding: text[argumentStart..<position], as: UTF8.self).filter { $0 != " " }
        position += 1
        return conditions.platform(name, argument)
    }

    func isNameByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_")
    }
}
