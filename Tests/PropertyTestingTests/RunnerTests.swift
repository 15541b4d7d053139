import Foundation
import PropertyTesting
import Testing

/// A fresh temporary corpus root per test.
func temporaryCorpus() -> RegressionStore {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pbt-\(UInt64.random(in: .min ... .max))")
        .path
    return RegressionStore(root: dir)
}

@Suite struct RunnerTests {
    let sumGen = Gen.int(in: 0...10_000).array(count: 0...20)

    @Test func sameSeedSameRunSameCounterexample() {
        let config = RunConfiguration(seed: 77, iterations: 500, shrink: false)
        let a = PropertyRunner.check("seeded", sumGen, config: config) { $0.reduce(0, +) < 20_000 }
        let b = PropertyRunner.check("seeded", sumGen, config: config) { $0.reduce(0, +) < 20_000 }
        #expect(a.result.status == .failed)
        #expect(a.counterexample == b.counterexample)
        #expect(a.result.failure?.origin == b.result.failure?.origin)
        #expect(a.result.failure?.choiceBytes == b.result.failure?.choiceBytes)
        let other = PropertyRunner.check(
            "seeded", sumGen, config: RunConfiguration(seed: 78, iterations: 500, shrink: false)
        ) { $0.reduce(0, +) < 20_000 }
        #expect(other.counterexample != a.counterexample)
    }

    @Test func reportCarriesSeedAndReplayLines() throws {
        let check = PropertyRunner.check(
            "sum.below-1000", sumGen, config: RunConfiguration(seed: 12345, iterations: 200)
        ) {
            $0.reduce(0, +) < 1000
        }
        let report = check.result.report
        #expect(report.contains("seed 12345"))
        #expect(report.contains("[1000]"))
        #expect(report.contains("stc check sum.below-1000 --seed 12345 --iterations 200"))
        let replayLine = try #require(check.result.replayLine)
        #expect(report.contains(replayLine))
        #expect(replayLine.hasPrefix("stc check sum.below-1000 --replay "))
    }

    @Test func printedChoiceSequenceReplaysTheSameValue() throws {
        let check = PropertyRunner.check(
            "replayable", Gen.string(.unicode, length: 0...10).array(count: 0...5),
            config: RunConfiguration(seed: 9)
        ) { strings in
            strings.joined().unicodeScalars.count < 7
        }
        let hex = try #require(check.result.replayLine?.split(separator: " ").last.map(String.init))
        let bytes = try #require(Hex.decode(hex))
        let value = Gen.string(.unicode, length: 0...10).array(count: 0...5).generate(from: bytes)
        #expect(value == check.counterexample)
        // Through the runner: replay mode runs exactly that case, no shrinking, no random cases.
        let replayed = PropertyRunner.check(
            "replayable", Gen.string(.unicode, length: 0...10).array(count: 0...5),
            config: RunConfiguration(replay: bytes)
        ) { strings in
            strings.joined().unicodeScalars.count < 7
        }
        #expect(replayed.result.failure?.origin == .replay)
        #expect(replayed.counterexample == check.counterexample)
    }

    @Test func savedRegressionIsReplayedFirst() throws {
        let store = temporaryCorpus()
        defer { try? FileManager.default.removeItem(atPath: store.root) }
        // A needle random testing will essentially never hit in 100 cases.
        let gen = Gen.int(in: 0...1_000_000_000)
        let needle = 123_456_789
        let body: (Int) -> Bool = { $0 != needle }
        let clean = PropertyRunner.check("needle", gen, config: RunConfiguration(seed: 1, regressions: store), body)
        #expect(clean.result.passed)

        // Save the needle's choice bytes as a regression (as `stc` would after a fuzzer found it).
        let source = ChoiceSource(replaying: [UInt64(needle)])
        _ = gen.generate(using: source)
        let path = try store.save(
            ChoiceSequence(choices: source.choices, maxima: source.maxima).bytes, property: "needle")
        #expect(path.hasPrefix(store.directory(for: "needle")))

        let next = PropertyRunner.check("needle", gen, config: RunConfiguration(seed: 2, regressions: store), body)
        #expect(next.result.status == .failed)
        #expect(next.result.failure?.origin == .regression(path))
        #expect(next.result.casesRun == 0, "found before any random case")
        #expect(next.result.regressionsReplayed == 1)
        #expect(next.counterexample == needle)
    }

    @Test func failuresAreSavedOnceAndFoundFirstNextTime() throws {
        let store = temporaryCorpus()
        defer { try? FileManager.default.removeItem(atPath: store.root) }
        let first = PropertyRunner.check("sum", sumGen, config: RunConfiguration(seed: 3, regressions: store)) {
            $0.reduce(0, +) < 1000
        }
        let saved = try #require(first.result.failure?.savedRegression)
        let content = try #require(FileManager.default.contents(atPath: saved))
        #expect([UInt8](content) == first.result.failure?.choiceBytes)
        #expect((saved as NSString).lastPathComponent == FNV1a64.hex([UInt8](content)))

        let second = PropertyRunner.check("sum", sumGen, config: RunConfiguration(seed: 4, regressions: store)) {
            $0.reduce(0, +) < 1000
        }
        #expect(second.result.failure?.origin == .regression(saved))
        #expect(second.counterexample == [1000])
        #expect(second.result.failure?.savedRegression == saved, "same content, same file, not rewritten")
        let files = try FileManager.default.contentsOfDirectory(atPath: store.directory(for: "sum"))
        #expect(files == [(saved as NSString).lastPathComponent], "one file, no temporaries left")
    }

    @Test func saveNeverOverwrites() throws {
        let store = temporaryCorpus()
        defer { try? FileManager.default.removeItem(atPath: store.root) }
        let path = try store.save([1, 2, 3], property: "p")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(try store.save([1, 2, 3], property: "p") == path)
        let again = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.modificationDate] as? Date == again[.modificationDate] as? Date)
        #expect(try store.save([], property: "p") != path)
        #expect(store.load(property: "p").count == 2)
        #expect(RegressionStore.directoryName(for: "../etc/x y") == "_.._etc_x_y")
    }

    @Test func statisticsCountCasesAndDiscards() {
        let gen = Gen.int(in: 0...99).filter(maxTries: 1) { $0 % 2 == 0 }
        let check = PropertyRunner.check("stats", gen, config: RunConfiguration(seed: 5, iterations: 300)) { _ in true }
        #expect(check.result.passed)
        #expect(check.result.casesRun == 300)
        #expect(check.result.discarded > 50)
        #expect(check.result.casesPerSecond > 0)
        let assumed = PropertyRunner.check(
            "assume", Gen.int(in: 0...9), config: RunConfiguration(seed: 5, iterations: 100),
            failureMessage: { n in
                try assume(n > 4)
                return nil
            })
        #expect(assumed.result.discarded > 0 && assumed.result.casesRun == 100)
    }

    @Test func givesUpWhenEverythingIsDiscarded() {
        let check = PropertyRunner.check(
            "never", Gen.int(in: 0...9).filter(maxTries: 2) { $0 > 10 },
            config: RunConfiguration(seed: 1, iterations: 10, maxDiscards: 20)
        ) { _ in true }
        #expect(check.result.status == .gaveUp)
        #expect(check.result.issue != nil)
    }

    @Test func throwingAndMessageFormsReportTheReason() {
        struct Boom: Error {}
        let thrown = PropertyRunner.check(
            "throws", Gen.int(in: 0...100), config: RunConfiguration(seed: 1),
            failureMessage: { n in
                if n >= 10 { throw Boom() }
                return nil
            })
        #expect(thrown.counterexample == 10)
        #expect(thrown.result.failure?.message.contains("Boom") == true)
        let message = PropertyRunner.check(
            "message", Gen.int(in: 0...100), config: RunConfiguration(seed: 1),
            failureMessage: { n in n >= 10 ? "too big: \(n)" : nil })
        #expect(message.result.failure?.message == "too big: 10")
    }

    @Test func customDescriber() {
        let check = PropertyRunner.check(
            "described", Gen.int(in: 0...100), config: RunConfiguration(seed: 1),
            describe: { "n=\($0)" }
        ) { $0 < 3 }
        #expect(check.result.failure?.counterexample == "n=3")
    }

    @Test func namedPropertiesInACatalog() {
        let catalog = PropertyCatalog([
            Property("ints.nonnegative", summary: "ints in 0...9 are >= 0", Gen.int(in: 0...9)) { $0 >= 0 },
            Property(
                "ints.small", summary: "planted failure", Gen.int(in: 0...9),
                failureMessage: { $0 < 5 ? nil : "got \($0)" }),
        ])
        #expect(catalog.names == ["ints.nonnegative", "ints.small"])
        let config = RunConfiguration(seed: 1, iterations: 50)
        #expect(catalog.property(named: "ints.nonnegative")?.check(config).passed == true)
        let failing = catalog.property(named: "ints.small")?.check(config)
        #expect(failing?.failure?.counterexample == "5")
        #expect(failing?.failure?.message == "got 5")
        #expect(catalog.property(named: "missing") == nil)
        #expect(catalog.runAll(config, matching: "ints.").count == 2)
        // Byte-in form for fuzz harnesses and corpus replay.
        let small = catalog.property(named: "ints.small")
        #expect(small?.holds([]) == true)
        #expect(small?.holds([9]) == false)
    }

    @Test func speed() {
        let check = PropertyRunner.check(
            "speed", Gen.int(in: 0...1_000).array(count: 0...5),
            config: RunConfiguration(seed: 1, iterations: 20_000)
        ) { $0.count <= 5 }
        #expect(check.result.passed)
        // Debug builds are far slower than release; this only guards against pathological regressions.
        #expect(check.result.casesPerSecond > 5_000, "\(check.result.casesPerSecond) cases/s")
    }
}
