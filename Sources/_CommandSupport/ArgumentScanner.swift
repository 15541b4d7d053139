/// An option of a command, declared once: its name, the placeholder of its value (none for a flag), and whether
/// it may be given more than once.
public struct Option: Sendable, Hashable {
    /// The name with its dashes: `--seed`.
    public let name: String
    /// The value's placeholder as the help texts write it (`S`, `DIR`); `nil` for a flag, which takes no value.
    public let placeholder: String?
    /// May be given more than once; each value is kept, in command-line order.
    public let repeats: Bool

    public var takesValue: Bool { placeholder != nil }

    public static func flag(_ name: String) -> Option { Option(name: name, placeholder: nil, repeats: false) }

    public static func value(_ name: String, _ placeholder: String, repeats: Bool = false) -> Option {
        Option(name: name, placeholder: placeholder, repeats: repeats)
    }
}

/// How many positional arguments a command takes.
public struct Positionals: Sendable {
    /// The fewest it takes.
    public let min: Int
    /// The most it takes; `nil` for any number.
    public let max: Int?
    /// What the command takes, in its own words: the usage error for too few, and said after an unexpected
    /// argument.
    public let hint: String?

    public static let none = Positionals(min: 0, max: 0, hint: nil)
    public static let any = Positionals(min: 0, max: nil, hint: nil)

    public static func atMost(_ max: Int, _ hint: String) -> Positionals { Positionals(min: 0, max: max, hint: hint) }
    public static func exactly(_ count: Int, _ hint: String) -> Positionals {
        Positionals(min: count, max: count, hint: hint)
    }
}

/// What a command takes: its options, its positionals, and whether what follows `--` is passed through.
///
/// ``scan(_:)`` is the one argument scanner of `stc`, and its rules hold for every command and subcommand:
/// - an option that takes a value accepts `--opt value` and `--opt=value` alike, and takes the value verbatim,
///   even when it starts with `-` (`--input -` means standard input);
/// - a flag given `=value`, an unknown option, a missing value, a non-repeatable option given twice, and more
///   or fewer positionals than the command takes are each a ``UsageError``;
/// - `-h` or `--help` anywhere before `--` asks for the help, whatever else is wrong with the arguments;
/// - an argument starting with `-` is an option, except `-` alone (standard input, a positional);
/// - `--` ends the options: what follows is passed through when ``passesThrough`` (only `stc fuzz run`, to
///   libFuzzer), and is positional otherwise.
public struct CommandSyntax: Sendable {
    public let options: [Option]
    public let positionals: Positionals
    public let passesThrough: Bool

    public init(options: [Option] = [], positionals: Positionals = .none, passesThrough: Bool = false) {
        precondition(Set(options.map(\.name)).count == options.count, "an option is declared twice")
        precondition(options.allSatisfy { $0.name.hasPrefix("--") && !$0.name.contains("=") })
        self.options = options
        self.positionals = positionals
        self.passesThrough = passesThrough
    }

    private static let helpNames: Set<String> = ["-h", "--help"]

    /// What scanning found: a request for the help, or the arguments.
    public enum Scan {
        case help
        case arguments(ScannedArguments)
    }

    /// Scans the arguments after the command's name. A request for the help wins over a usage error; otherwise
    /// the first usage error, in command-line order, is thrown.
    public func scan(_ arguments: [String]) throws(UsageError) -> Scan {
        var scanned = ScannedArguments(syntax: self)
        var firstError: UsageError?
        func fail(_ message: String) {
            if firstError == nil { firstError = UsageError(message) }
        }
        func addPositional(_ argument: String) {
            if let max = positionals.max, scanned.positionals.count == max {
                fail("unexpected argument '\(argument)'" + (positionals.hint.map { ": \($0)" } ?? ""))
            }
            scanned.positionals.append(argument)
        }
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--" {
                let rest = Array(arguments[i...])
                if passesThrough { scanned.passthrough = rest } else { rest.forEach(addPositional) }
                break
            }
            if Self.helpNames.contains(argument) { return .help }
            guard argument.hasPrefix("-"), argument != "-" else {
                addPositional(argument)
                continue
            }
            let equals = argument.firstIndex(of: "=")
            let name = equals.map { String(argument[..<$0]) } ?? argument
            guard let option = options.first(where: { $0.name == name }) else {
                fail("unknown option '\(argument)'")
                continue
            }
            if option.takesValue {
                let value: String
                if let equals {
                    value = String(argument[argument.index(after: equals)...])
                } else if i < arguments.count {
                    value = arguments[i]
                    i += 1
                } else {
                    fail("\(name) needs a value (\(name) \(option.placeholder ?? ""))")
                    continue
                }
                if !option.repeats, scanned.valuesByName[name] != nil { fail("\(name) is given twice; give it once") }
                scanned.valuesByName[name, default: []].append(value)
            } else {
                if equals != nil {
                    fail("\(name) takes no value")
                    continue
                }
                if scanned.flags.contains(name) { fail("\(name) is given twice; give it once") }
                scanned.flags.insert(name)
            }
        }
        if scanned.positionals.count < positionals.min { fail(positionals.hint ?? "too few arguments") }
        if let firstError { throw firstError }
        return .arguments(scanned)
    }
}

/// The arguments of one command line, as ``CommandSyntax/scan(_:)`` found them. Asking for an option the
/// syntax does not declare is a programming error and traps.
public struct ScannedArguments: Sendable {
    public let syntax: CommandSyntax
    fileprivate(set) var valuesByName: [String: [String]] = [:]
    fileprivate(set) var flags: Set<String> = []
    public fileprivate(set) var positionals: [String] = []
    /// What followed `--`, for a command that passes it through.
    public fileprivate(set) var passthrough: [String] = []

    fileprivate init(syntax: CommandSyntax) { self.syntax = syntax }

    /// The value of an option that is not repeatable, or `nil` when it is absent.
    public func value(_ name: String) -> String? {
        precondition(declared(name)?.repeats == false, "\(name) is not a declared single-value option")
        return valuesByName[name]?.first
    }

    /// Every value of an option, in command-line order.
    public func values(_ name: String) -> [String] {
        precondition(declared(name)?.takesValue == true, "\(name) is not a declared option with a value")
        return valuesByName[name] ?? []
    }

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool {
        precondition(declared(name)?.takesValue == false, "\(name) is not a declared flag")
        return flags.contains(name)
    }

    private func declared(_ name: String) -> Option? { syntax.options.first { $0.name == name } }
}

/// A usage error: the command line is wrong. Every command reports it the same way, on standard error:
/// `stc <command path>: <message>`, then `Run 'stc <command path> --help' for usage.`, and exits 2.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A command could not do its work (a file it cannot read, a build that failed, a child process): reported as
/// `stc <command path>: <message>` on standard error, without the usage hint, and exit 2.
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
