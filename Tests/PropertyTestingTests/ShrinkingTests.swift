import PropertyTesting
import Testing

@Suite struct ShrinkingTests {
    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func noStringContainsEAcuteShrinksToEAcute(seed: UInt64) {
        let check = PropertyRunner.check(
            "no-e-acute", Gen.string(.unicode, length: 0...20),
            config: RunConfiguration(seed: seed, iterations: 5_000)
        ) { !$0.contains("é") }
        #expect(check.result.status == .failed, Comment(rawValue: check.result.report))
        #expect(check.counterexample == "é")
        #expect(check.counterexample?.unicodeScalars.map(\.value) == [0xE9], "precomposed, one scalar")
        #expect(check.result.failure?.counterexample == #""é""#)
    }

    @Test(arguments: [1, 2, 3, 99, 2024] as [UInt64])
    func arraySumShrinksToSingleThousand(seed: UInt64) {
        let check = PropertyRunner.check(
            "sum-below-1000", Gen.int(in: 0...10_000).array(count: 0...20),
            config: RunConfiguration(seed: seed, iterations: 1_000)
        ) { $0.reduce(0, +) < 1000 }
        #expect(check.counterexample == [1000], Comment(rawValue: check.result.report))
        #expect(check.result.failure?.counterexample == "[1000]")
    }

    @Test func sumOfSmallElementsNeedsRedistribution() {
        // Elements are at most 600, so the first failure has several elements; only moving value between
        // them (and then deleting the emptied one) reaches the minimum.
        let check = PropertyRunner.check(
            "sum-small-elements", Gen.int(in: 0...600).array(count: 0...30),
            config: RunConfiguration(seed: 5, iterations: 1_000)
        ) { $0.reduce(0, +) < 1000 }
        #expect(check.counterexample == [400, 600], Comment(rawValue: check.result.report))
    }

    @Test func integersShrinkTowardTheBoundNearestZero() {
        let positive = PropertyRunner.check("gt", Gen.int(in: 50...1_000_000), config: RunConfiguration(seed: 1)) {
            $0 < 777
        }
        #expect(positive.counterexample == 777)
        let negative = PropertyRunner.check("lt", Gen.int(in: -1_000_000 ... -50), config: RunConfiguration(seed: 1)) {
            $0 > -777
        }
        #expect(negative.counterexample == -777)
        let anyWidth = PropertyRunner.check("i64", Gen<Int64>.int(), config: RunConfiguration(seed: 1)) { $0 > -1_000 }
        #expect(anyWidth.counterexample == -1_000)
    }

    @Test func oneOfShrinksTowardTheFirstAlternative() {
        let gen = Gen.oneOf(Gen.int(in: 0...100).map { "small \($0)" }, Gen.int(in: 0...100).map { "other \($0)" })
        let check = PropertyRunner.check("oneof", gen, config: RunConfiguration(seed: 3)) { !$0.hasSuffix("7") }
        #expect(check.counterexample == "small 7")
    }

    @Test func mapFlatMapAndZipShrinkThroughTheChoices() {
        let gen = Gen.int(in: 1...5).flatMap { n in Gen.int(in: 0...1_000).array(count: n...n) }
            .zip(Gen.string(.lowercase, length: 0...5))
        let check = PropertyRunner.check("composed", gen, config: RunConfiguration(seed: 8)) { pair in
            !(pair.0.contains { $0 >= 500 } && pair.1.count >= 2)
        }
        #expect(check.counterexample?.0 == [500])
        #expect(check.counterexample?.1 == "aa")
    }

    @Test func alwaysFailingPropertyShrinksToSimplestAndTerminates() {
        let gen = Gen.string(.unicode, length: 0...50).array(count: 0...50)
        let check = PropertyRunner.check("always-fails", gen, config: RunConfiguration(seed: 11)) { _ in false }
        #expect(check.counterexample == [])
        #expect(check.result.failure?.choiceBytes == [])
        #expect(check.result.replayLine == #"stc check always-fails --replay """#)
    }

    @Test func shrinkStepsAreBounded() {
        // Fails unless the value is tiny, but a different way for every value; a tiny budget must still stop.
        let gen = Gen<UInt64>.int().array(count: 10...200)
        for budget in [0, 1, 10, 200] {
            let check = PropertyRunner.check(
                "bounded", gen, config: RunConfiguration(seed: 4, maxShrinkSteps: budget)
            ) { xs in xs.reduce(0) { $0 &+ $1 } % 7 == 3 }
            #expect(check.result.status == .failed)
            #expect((check.result.failure?.shrinkSteps ?? .max) <= budget)
        }
    }

    @Test func shrinkerNeverAcceptsAPassingOrLongerCase() {
        var shrinker = Shrinker(failing: ChoiceSequence(choices: [5, 5, 5], maxima: [9, 9, 9]), budget: 1_000) {
            candidate in
            // Fails only when the first choice is at least 3; the rest is irrelevant.
            let first = candidate.first ?? 0
            return ShrinkTrial(
                failed: first >= 3,
                sequence: ChoiceSequence(
                    choices: Array(candidate.prefix(3)), maxima: Array(repeating: 9, count: min(3, candidate.count))))
        }
        let best = shrinker.shrink()
        #expect(best.choices == [3])
    }
}

/// What replays record for the shrinker (``ChoiceStructure``), and that nothing else records it.
@Suite struct ChoiceStructureTests {
    let gen = Gen.zip(Gen.int(in: -5...5).array(count: 0...3), Gen.oneOf(Gen.constant(0), Gen.int(in: 1...9)))

    @Test func onlyReplaysThatAskRecordSpans() {
        let choices: [UInt64] = [1, 3, 1, 0, 0, 1, 4]
        let plain = ChoiceSource(replaying: choices)
        _ = gen.generate(using: plain)
        #expect(plain.structure.spans.isEmpty && plain.structure.integerTargets.isEmpty)
        let random = ChoiceSource(seed: 1)
        _ = gen.generate(using: random)
        #expect(random.structure.spans.isEmpty)
        let bytes = ChoiceSource(bytes: [1, 3, 1, 0, 0, 1, 4])
        _ = gen.generate(using: bytes)
        #expect(bytes.structure.spans.isEmpty)
    }

    @Test func anArrayRecordsItsElementsWithTheirFlags() {
        // [2, 0] then the second alternative, 5: "more" 1, index 3 (= 2), "more" 1, index 0 (= 0), "no more" 0,
        // branch 1, index 4 (= 5).
        let source = ChoiceSource(replaying: [1, 3, 1, 0, 0, 1, 4], recordingStructure: true)
        let (list, number) = gen.generate(using: source)
        #expect(list == [2, 0] && number == 5)
        let spans = source.structure.spans.map { [$0.start, $0.end] }
        let labels = source.structure.spans.map(\.label)
        // The outer `generate(using:)` is a span too: it holds everything.
        #expect(spans == [[0, 7], [0, 5], [0, 2], [2, 4], [5, 7]], "\(source.structure.spans)")
        #expect(labels == [.generated, .collection, .element, .element, .branch])
        #expect(source.structure.parents == [-1, 0, 1, 1, 0])
        // -5...5 has its simplest value at offset 5; 1...9 at offset 0.
        #expect(source.structure.integerTargets == [1: 5, 3: 5, 6: 0])
        #expect(ChoiceSequence(choices: source.choices, maxima: source.maxima).bytes == [1, 3, 1, 0, 0, 1, 4])
    }
}
