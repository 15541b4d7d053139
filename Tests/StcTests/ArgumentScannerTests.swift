import Testing
import _CommandSupport

@testable import stc

/// The scanner's rules on a made-up command, and the one error style of every real one.
@Suite struct ArgumentScannerTests {
    static let syntax = CommandSyntax(
        options: [.value("--seed", "S"), .value("--tag", "TAG", repeats: true), .flag("--json")],
        positionals: .atMost(1, "give one NAME"))

    /// The arguments, or the usage error's message, or "help".
    static func scan(_ arguments: [String], _ syntax: CommandSyntax = syntax) -> Result<ScannedArguments, UsageError>? {
        do {
            switch try syntax.scan(arguments) {
            case .help: return nil
            case .arguments(let scanned): return .success(scanned)
            }
        } catch {
            return .failure(error)
        }
    }

    static func isHelp(_ arguments: [String]) -> Bool { scan(arguments) == nil }

    static func error(_ arguments: [String], _ syntax: CommandSyntax = syntax) -> String? {
        guard case .failure(let error) = scan(arguments, syntax) else { return nil }
        return error.message
    }

    @Test func bothSpellingsOfAValueAreTheSame() throws {
        for arguments in [["--seed", "7", "--tag", "a", "--tag=b"], ["--seed=7", "--tag=a", "--tag", "b"]] {
            let scanned = try #require(try Self.scan(arguments)?.get())
            #expect(scanned.value("--seed") == "7")
            #expect(scanned.values("--tag") == ["a", "b"])
            #expect(!scanned.flag("--json"))
        }
    }

    @Test func aValueIsTakenVerbatimEvenWithADash() throws {
        let scanned = try #require(try Self.scan(["--seed", "-", "--tag", "--json", "--tag=", "--tag=a=b"])?.get())
        #expect(scanned.value("--seed") == "-")
        #expect(scanned.values("--tag") == ["--json", "", "a=b"])
        #expect(!scanned.flag("--json"))
        let help = try #require(try Self.scan(["--seed", "--help"])?.get(), "a value, not a request for help")
        #expect(help.value("--seed") == "--help")
    }

    @Test func aLoneDashIsAPositional() throws {
        let scanned = try #require(try Self.scan(["-", "--json"])?.get())
        #expect(scanned.positionals == ["-"])
        #expect(scanned.flag("--json"))
    }

    @Test func unknownOptions() throws {
        #expect(Self.error(["--bogus"]) == "unknown option '--bogus'")
        #expect(Self.error(["--bogus=1"]) == "unknown option '--bogus=1'")
        #expect(Self.error(["-x"]) == "unknown option '-x'")
        #expect(Self.error(["--see", "1"]) == "unknown option '--see'", "no prefix matching")
    }

    @Test func missingValue() throws {
        #expect(Self.error(["--seed"]) == "--seed needs a value (--seed S)")
        #expect(Self.error(["--json", "--tag"]) == "--tag needs a value (--tag TAG)")
    }

    @Test func aFlagGivenAValue() throws {
        #expect(Self.error(["--json=yes"]) == "--json takes no value")
        #expect(Self.error(["--json="]) == "--json takes no value")
    }

    @Test func duplicates() throws {
        #expect(Self.error(["--seed", "1", "--seed=2"]) == "--seed is given twice; give it once")
        #expect(Self.error(["--json", "--json"]) == "--json is given twice; give it once")
        #expect(Self.error(["--tag", "a", "--tag", "a"]) == nil, "repeatable")
    }

    @Test func unexpectedPositionals() throws {
        #expect(Self.error(["a", "b"]) == "unexpected argument 'b': give one NAME")
        #expect(Self.error(["x"], CommandSyntax()) == "unexpected argument 'x'")
        let two = CommandSyntax(positionals: .exactly(2, "give TARGET and FILE"))
        #expect(Self.error(["url"], two) == "give TARGET and FILE")
        #expect(Self.error(["url", "a", "b"], two) == "unexpected argument 'b': give TARGET and FILE")
        #expect(try Self.scan(["url", "a"], two)?.get().positionals == ["url", "a"])
        let any = CommandSyntax(positionals: .any)
        #expect(try Self.scan(["a", "b", "c"], any)?.get().positionals == ["a", "b", "c"])
    }

    @Test func theFirstErrorInCommandLineOrderIsReported() throws {
        #expect(Self.error(["--bogus", "--seed"]) == "unknown option '--bogus'")
        #expect(Self.error(["a", "b", "--bogus"]) == "unexpected argument 'b': give one NAME")
        #expect(Self.error(["--json=1", "a", "b"]) == "--json takes no value")
    }

    @Test func helpAnywhereBeforeTheDoubleDashWins() throws {
        for arguments in [["--help"], ["-h"], ["--bogus", "-h"], ["a", "b", "--help"], ["--seed", "1", "--help"]] {
            #expect(Self.isHelp(arguments), "\(arguments)")
        }
        let passing = CommandSyntax(passesThrough: true)
        #expect(try Self.scan(["--", "--help"], passing)?.get().passthrough == ["--help"])
        #expect(try Self.scan(["--", "-h"], CommandSyntax(positionals: .any))?.get().positionals == ["-h"])
    }

    @Test func theDoubleDashPassesThroughOnlyWhereDeclared() throws {
        let passing = CommandSyntax(
            options: [.flag("--verbose")], positionals: .atMost(1, "give one TARGET"),
            passesThrough: true)
        let scanned = try #require(
            try Self.scan(["url", "--verbose", "--", "-only_ascii=1", "--verbose", "x"], passing)?.get())
        #expect(scanned.positionals == ["url"])
        #expect(scanned.flag("--verbose"))
        #expect(scanned.passthrough == ["-only_ascii=1", "--verbose", "x"])
        #expect(try Self.scan(["url", "--"], passing)?.get().passthrough == [])
        // Elsewhere `--` ends the options, and what follows is positional (and counted as such).
        let ended = try #require(try Self.scan(["--", "--json"])?.get())
        #expect(ended.positionals == ["--json"] && !ended.flag("--json") && ended.passthrough.isEmpty)
        #expect(Self.error(["a", "--", "b"]) == "unexpected argument 'b': give one NAME")
    }

    /// Every command and subcommand reports a usage error the same way: its path, the message, the help hint.
    @Test(arguments: CommandTable.all.map(\.path))
    func everyCommandReportsUsageErrorsAlike(path: [String]) throws {
        let run = try StcBinary.run(path + ["--no-such-option"])
        let shown = (["stc"] + path).joined(separator: " ")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "\(shown): unknown option '--no-such-option'\nRun '\(shown) --help' for usage.\n")
    }

    /// The usage errors a command finds in its values, after scanning, look the same as the scanner's.
    @Test(arguments: [
        ("check", ["--seed", "x"], "--seed takes a decimal number from 0 to 18446744073709551615, not 'x'"),
        ("conformance", ["--timeout=0"], "--timeout needs a number of seconds above 0, not \"0\""),
        ("conformance add", ["--input", "{}"], "--op is required"),
        ("fuzz run", [], "give one TARGET"),
        ("fuzz merge", ["--write"], "give one TARGET"),
        ("fuzz add", ["url"], "give TARGET and FILE"),
        (
            "fuzz", ["nope"],
            "unknown subcommand 'nope'. Subcommands: list, build, modules, run, replay, add, merge, coverage, campaign."
        ),
        ("inspect", ["a", "b"], "unexpected argument 'b': give one string, file or '-', not several"),
        ("", ["nope"], "unknown command 'nope'. Commands: conformance, explore, inspect, fuzz, adapter, check."),
    ])
    func valueErrorsLookLikeScannerErrors(path: String, arguments: [String], message: String) throws {
        let words = path.split(separator: " ").map(String.init)
        let run = try StcBinary.run(words + arguments)
        let shown = (["stc"] + words).joined(separator: " ")
        #expect(run.status == 2)
        #expect(run.stderr == "\(shown): \(message)\nRun '\(shown) --help' for usage.\n")
    }
}
