import Foundation
import Testing

@Suite struct CheckCommandTests {
    /// A fresh, empty corpus directory so runs neither read nor write the repository's corpus; the caller removes it.
    static func temporaryCorpus() throws -> URL {
        TemporaryDirectory.make("stc-check")
    }

    @Test func listsAtLeast25PropertiesNameTabSummary() throws {
        let run = try StcBinary.run(["check", "--list"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count >= 25)
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 2 && !fields[0].isEmpty && !fields[1].isEmpty, "\(line)")
            #expect(fields.first?.contains(".") == true)
        }
        #expect(lines.contains { $0.hasPrefix("selection.canonical-fixed-point\t") })
        #expect(lines.contains { $0.hasPrefix("auth.voiding\t") })
    }

    @Test func onePropertyPassesWithExitZero() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run([
            "check", "selection.stable-order", "--iterations", "100", "--seed", "3", "--corpus", corpus.path,
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ selection.stable-order: passed (seed 3; 100 cases"))
        #expect(run.stdout.contains("cases/s"))
        #expect(run.stdout.contains("1 properties, 1 passed, 0 failed"))
        #expect(run.stderr.isEmpty, "no progress on a pipe: \(run.stderr)")
    }

    /// `--time`: rounds of N cases per property, each from its own seed, until the time is up.
    @Test func timeRunsRoundsUntilTheTimeIsUp() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run([
            "check", "url", "--iterations", "10", "--seed", "3", "--time", "0.5", "--corpus", corpus.path,
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ url.round-trip: passed ("))
        let summary = try #require(run.stdout.split(separator: "\n").last)
        #expect(summary.hasPrefix("4 properties, 0 failed; "), "\(summary)")
        let rounds = summary.split(separator: " ").firstIndex(of: "rounds,").map {
            summary.split(separator: " ")[$0 - 1]
        }
        #expect(rounds.flatMap { Int($0) }.map { $0 > 1 } == true, "\(summary)")
    }

    /// Round seeds: the run seed first, then seeds derived from it, so that a failure's rerun line reproduces it.
    @Test func timedRoundsStartFromTheRunSeed() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let timed = try StcBinary.run([
            "check", "selection.stable-order", "--iterations", "5", "--seed", "7", "--time", "0.2", "--corpus",
            corpus.path,
        ])
        #expect(timed.status == 0, "\(timed.stdout)\(timed.stderr)")
        #expect(timed.stdout.contains("seed 7"))
    }

    @Test func replayDoesNotTakeTime() throws {
        let run = try StcBinary.run(["check", "url.round-trip", "--replay", "00", "--time", "1"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--replay runs one case; it does not take --time"))
    }

    @Test func prefixesAndGlobsSelectFamilies() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let family = try StcBinary.run(["check", "url.", "--list"])
        #expect(family.status == 0)
        #expect(family.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("url.") })
        let glob = try StcBinary.run(["check", "*-laws", "--iterations", "20", "--seed", "1", "--corpus", corpus.path])
        #expect(glob.status == 0)
        #expect(glob.stdout.contains("selection.algebra-laws") && glob.stdout.contains("shield.store-union-laws"))
    }

    @Test func unknownNameExitsTwoWithCloseNames() throws {
        let run = try StcBinary.run(["check", "shield.limit"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no property named 'shield.limit'"))
        #expect(run.stderr.contains("shield.limits"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try StcBinary.run(["check", "--iterations", "zero"]).status == 2)
        #expect(try StcBinary.run(["check", "--seed"]).status == 2)
        #expect(try StcBinary.run(["check", "--bogus"]).status == 2)
        #expect(try StcBinary.run(["check", "--replay", "0g"]).status == 2)
        #expect(try StcBinary.run(["check", "--replay", "00"]).status == 2, "replay needs exactly one property")
        let help = try StcBinary.run(["check", "--help"])
        #expect(help.status == 0)
        for option in ["--list", "--seed", "--iterations", "--replay", "--corpus", "Exit codes"] {
            #expect(help.stdout.contains(option))
        }
        #expect(try StcBinary.run(["--help"]).stdout.contains("check"))
    }

    /// Same seed and iterations, same output, apart from the timing figures.
    @Test func seededRunsAreReproducible() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        func normalized() throws -> String {
            let run = try StcBinary.run(["check", "--iterations", "50", "--seed", "1", "--corpus", corpus.path])
            #expect(run.status == 0, "\(run.stdout)")
            return run.stdout
                .replacingOccurrences(of: #"\d+ cases/s"#, with: "N cases/s", options: .regularExpression)
                .replacingOccurrences(of: #"in [0-9.]+ s"#, with: "in T s", options: .regularExpression)
        }
        let first = try normalized()
        #expect(first.split(separator: "\n").count >= 26)
        #expect(try normalized() == first)
    }

    @Test func replayRunsOneCase() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let run = try StcBinary.run(["check", "url.round-trip", "--replay", "0102ff", "--corpus", corpus.path])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("replayed 1 case"))
    }

    /// A saved regression is replayed before the random cases (a passing one is simply counted).
    @Test func savedRegressionsAreReplayedFirst() throws {
        let corpus = try Self.temporaryCorpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let directory = corpus.appendingPathComponent("template.total/regressions")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("0000000000000001"))
        let run = try StcBinary.run([
            "check", "template.total", "--iterations", "10", "--seed", "5", "--corpus", corpus.path,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.contains("1 regressions replayed"))
    }
}
