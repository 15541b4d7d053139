import Conformance
import Foundation
import PropertyTesting
import ScreenTimeProperties
import _CommandSupport

/// `stc check`: runs the named properties of the reference (see `--help`).
enum CheckCommand {
    static let help = HelpPage(
        "stc check",
        usage: ["[NAME…] [--list] [--seed S] [--iterations N] [--time S] [--no-shrink] [--replay HEX] [--corpus DIR]"],
        description: """
            Runs the reference's named properties (SPEC §1–§4, §8, §9) with generated cases. NAME selects an
            exact name (selection.stable-order), a family (shield. or shield), or a glob (*-laws, url.*). With
            no NAME, every property runs.

            For each property: saved regressions in DIR/<property>/regressions/ are replayed first, then N random
            cases from the seed. A line per property says passed or failed, the cases run, cases per second and the
            seed. A failure is shrunk to a minimal counterexample, printed with the message, the one-line command
            that replays exactly that case (--replay) and the one that reruns the run (--seed), and saved as a
            regression file so that later runs (and swift test) replay it first.

            Progress goes to standard error, and only when it is a terminal.
            """,
        options: [
            .init("--list", "print the properties, one per line: NAME<TAB>summary; nothing runs"),
            .init("--seed S", "run seed (decimal, 0…18446744073709551615); default: a fresh one, printed"),
            .init("--iterations N", "random cases per property (default 100)"),
            .init(
                "--time S",
                """
                keep going for S seconds (fractions allowed): rounds of N cases per property, each round from a
                seed derived from the run seed, until the time is up or a property fails; the run stops at the
                first failure
                """),
            .init("--no-shrink", "report a failing case as generated, without shrinking it (faster, larger)"),
            .init(
                "--replay HEX",
                """
                run exactly the case these choice bytes encode (as printed after a failure); needs exactly one
                property; no regressions, no shrinking, nothing saved
                """),
            .init(
                "--corpus DIR",
                "where regressions are read and saved (default: corpus, relative to the current directory)"),
        ],
        exitCodes: [
            .init("0", "every property passed"),
            .init("1", "a property failed (or gave up: too many discarded cases)"),
            .init("2", "usage error (unknown option or property name, bad number or hex)"),
        ])

    static let command = Command(
        "check", summary: "run the reference's named properties (generated cases, shrinking, regressions)",
        syntax: CommandSyntax(
            options: [
                .flag("--list"), .value("--seed", "S"), .value("--iterations", "N"), .value("--time", "S"),
                .flag("--no-shrink"), .value("--replay", "HEX"), .value("--corpus", "DIR"),
            ],
            positionals: .any),
        help: help, run: main)

    /// What a run is asked to do, from the arguments, once each value has been checked.
    struct Options {
        var patterns: [String]
        var list: Bool
        var seed: UInt64?
        var iterations = 100
        /// Seconds to keep going for, in rounds (`--time`); `nil`: one round.
        var time: Double?
        var shrink = true
        var replay: [UInt8]?
        var corpus: String
    }

    /// The arguments' values, checked; a bad one is a usage error that quotes it.
    static func options(_ arguments: ScannedArguments) throws(UsageError) -> Options {
        var options = Options(
            patterns: arguments.positionals, list: arguments.flag("--list"),
            corpus: arguments.value("--corpus") ?? "corpus")
        options.shrink = !arguments.flag("--no-shrink")
        if let text = arguments.value("--time") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("--time takes a positive number of seconds, not '\(text)'")
            }
            options.time = seconds
        }
        if let text = arguments.value("--seed") {
            guard let seed = UInt64(text) else {
                throw UsageError("--seed takes a decimal number from 0 to \(UInt64.max), not '\(text)'")
            }
            options.seed = seed
        }
        if let text = arguments.value("--iterations") {
            guard let n = Int(text), n > 0 else {
                throw UsageError("--iterations takes a positive number, not '\(text)'")
            }
            options.iterations = n
        }
        if let text = arguments.value("--replay") {
            guard let bytes = parseHex(text) else {
                throw UsageError("--replay takes hex bytes (an even number of 0-9a-f), not '\(text)'")
            }
            options.replay = bytes
        }
        return options
    }

    static func parseHex(_ text: String) -> [UInt8]? {
        var digits = Array(text.utf8)
        if digits == Array("\"\"".utf8) { digits = [] }
        guard digits.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        var k = 0
        while k < digits.count {
            guard let hi = value(digits[k]), let lo = value(digits[k + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            k += 2
        }
        return bytes
    }

    /// The properties a pattern selects: an exact name, a glob (`*`, `?`, `[`), or a family given as a prefix
    /// ending in a dot (`shield.`) or as its bare name (`shield`). A partial name (`shield.limit`) selects nothing.
    static func select(_ pattern: String, from names: [String]) -> [String] {
        if names.contains(pattern) { return [pattern] }
        if pattern.contains(where: { "*?[".contains($0) }) {
            let glob = Glob(pattern)
            return names.filter { glob.matches($0) }
        }
        if pattern.hasSuffix(".") { return names.filter { $0.hasPrefix(pattern) } }
        if !pattern.contains(".") { return names.filter { $0.hasPrefix(pattern + ".") } }
        return []
    }

    /// Names close to an unknown one: sharing its family or containing it, or within a small edit distance.
    static func closeNames(to pattern: String, in names: [String]) -> [String] {
        let lowered = pattern.lowercased()
        let family = lowered.split(separator: ".").first.map(String.init) ?? lowered
        let scored = names.map { name -> (String, Int) in
            let n = name.lowercased()
            var score = editDistance(lowered, n)
            if n.contains(lowered) || lowered.contains(n) { score = min(score, 1) }
            if let tail = lowered.split(separator: ".").last, tail.count >= 3, n.contains(tail) {
                score = min(score, 2)
            }
            if n.hasPrefix(family + ".") { score = min(score, max(2, score - 6)) }
            return (name, score)
        }
        let limit = max(3, pattern.count / 3)
        return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(8).map(\.0)
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func main(_ arguments: ScannedArguments) throws -> Int32 {
        let options = try options(arguments)
        let catalog = ReferenceProperties.catalog
        let names = catalog.names

        var selected: [String] = []
        for pattern in options.patterns {
            let matches = select(pattern, from: names)
            if matches.isEmpty {
                let close = closeNames(to: pattern, in: names)
                var message = "no property named '\(pattern)'."
                message +=
                    close.isEmpty
                    ? " See stc check --list." : " Close names:\n" + close.map { "  \($0)" }.joined(separator: "\n")
                throw UsageError(message)
            }
            for name in matches where !selected.contains(name) { selected.append(name) }
        }
        if options.patterns.isEmpty { selected = names }
        let properties = selected.compactMap { catalog.property(named: $0) }

        if options.list {
            Console.out(properties.map { "\($0.name)\t\($0.summary)" }.joined(separator: "\n"))
            return 0
        }
        if options.replay != nil && properties.count != 1 {
            throw UsageError("--replay needs exactly one property name (it selects \(properties.count))")
        }
        if options.replay != nil && options.time != nil {
            throw UsageError("--replay runs one case; it does not take --time")
        }

        let seed = options.seed ?? UInt64.random(in: .min ... .max)
        let config = RunConfiguration(
            seed: seed, iterations: options.iterations, replay: options.replay,
            regressions: RegressionStore(root: options.corpus), saveFailures: options.replay == nil,
            shrink: options.shrink, command: "stc check")
        if let time = options.time { return timed(properties, config, seconds: time) }
        let progress = Console.stderrIsTerminal
        let clock = ContinuousClock()
        let started = clock.now
        var failed = 0
        var cases = 0
        for (index, property) in properties.enumerated() {
            if progress {
                FileHandle.standardError.write(
                    Data(
                        "\r\u{1B}[K[\(index + 1)/\(properties.count)] \(property.name) (\(options.iterations) cases)…"
                            .utf8))
            }
            let result = property.check(config)
            if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            cases += result.casesRun
            if !result.passed { failed += 1 }
            Console.out(result.report)
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let what = options.replay != nil ? "replayed 1 case" : "\(cases) cases"
        let passed = properties.count - failed
        Console.out(
            "\(properties.count) properties, \(passed) passed, \(failed) failed; \(what), seed \(seed), "
                + "in \(String(format: "%.2f", seconds)) s")
        return failed == 0 ? 0 : 1
    }

    /// The seed of round `round` of a `--time` run: the run seed itself for the first round.
    static func roundSeed(_ seed: UInt64, _ round: Int) -> UInt64 {
        round == 0 ? seed : SplitMix64.mix(seed &+ UInt64(round) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// `--time`: rounds of `config.iterations` cases per property until `seconds` have passed or one fails. A
    /// failure is printed as in a plain run (its seed is the round's, so its rerun line reproduces it) and ends
    /// the run; then a line per property that passed every round it ran.
    static func timed(_ properties: [Property], _ config: RunConfiguration, seconds: Double) -> Int32 {
        let clock = ContinuousClock()
        let started = clock.now
        func elapsed() -> Double {
            let d = clock.now - started
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        let progress = Console.stderrIsTerminal
        var cases = Array(repeating: 0, count: properties.count)
        var rounds = 0
        var failure: PropertyResult?
        rounds: while failure == nil {
            for (index, property) in properties.enumerated() {
                var roundConfig = config
                roundConfig.seed = roundSeed(config.seed ?? 0, rounds)
                if progress {
                    FileHandle.standardError.write(
                        Data(
                            "\r\u{1B}[K[round \(rounds + 1), \(String(format: "%.0f", elapsed())) s] \(property.name)…"
                                .utf8))
                }
                let result = property.check(roundConfig)
                cases[index] += result.casesRun
                if !result.passed {
                    failure = result
                    break
                }
                if elapsed() >= seconds { break rounds }
            }
            rounds += 1
        }
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if let failure { Console.out(failure.report) }
        for (index, property) in properties.enumerated() where cases[index] > 0 && property.name != failure?.name {
            Console.out("✓ \(property.name): passed (\(cases[index]) cases)")
        }
        let total = cases.reduce(0, +)
        Console.out(
            "\(properties.count) properties, \(failure == nil ? 0 : 1) failed; \(total) cases in "
                + "\(rounds) rounds, seed \(config.seed ?? 0), in \(String(format: "%.2f", elapsed())) s")
        return failure == nil ? 0 : 1
    }
}
