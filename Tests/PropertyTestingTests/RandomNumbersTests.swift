import PropertyTesting
import Testing

/// A seed printed by an earlier version (a replay line, `--seed N` in a CI log) must give the same cases today, so
/// the generators' outputs are pinned: the published algorithms, as computed by an independent transcription
/// (Python, arbitrary-precision integers masked to 64 bits).
@Suite struct RandomNumbersTests {
    @Test func splitMix64GivesThePublishedSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    static let xoshiroSequences: [(seed: UInt64, outputs: [UInt64])] = [
        (0, [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C]),
        (1, [0xB3F2_AF6D_0FC7_10C5, 0x853B_5596_4736_4CEA, 0x92F8_9756_082A_4514, 0x642E_1C7B_C266_A3A7]),
        (0x5EED, [0xEF33_F170_5524_4B74, 0xE1F5_9111_2FB5_051B, 0xD8AB_0564_0214_863A, 0xF985_E1F2_FB89_7B03]),
    ]

    @Test(arguments: 0..<3)
    func xoshiro256StarStarGivesThePublishedSequence(index: Int) {
        let (seed, expected) = Self.xoshiroSequences[index]
        var generator = Xoshiro256(seed: seed)
        #expect((0..<4).map { _ in generator.next() } == expected, "seed \(seed)")
    }

    /// A seeded source draws from the same sequence (through its copy of the generator, see `ChoiceSource`).
    @Test func aSeededSourceDrawsTheGeneratorsSequence() {
        let source = ChoiceSource(seed: 1)
        #expect((0..<4).map { _ in source.draw(upTo: .max) } == Self.xoshiroSequences[1].outputs)
    }

    /// A generator may draw from the source inside its own random closure: no access to the source's state is open
    /// while the closure runs (with `random(&rng)` this was a simultaneous access, a run-time trap). The closure works
    /// on a copy of the generator taken before the inner draw, and that copy is what the source keeps afterwards.
    @Test func aDrawInsideARandomClosureIsWellDefined() {
        let source = ChoiceSource(seed: 5)
        let outer = source.draw(upTo: 1000) { rng in
            rng.next(upTo: 1000) &+ source.draw(upTo: 10)
        }
        // What that means in words of the generator: the inner draw and the closure both read its first word;
        // the next draw reads its second.
        var first = Xoshiro256(seed: 5)
        var again = first
        let inner = first.next(upTo: 10)
        let expectedOuter = (again.next(upTo: 1000) + inner) % 1001
        #expect(source.choices == [inner, expectedOuter], "inner draw recorded first, then the outer one")
        #expect(outer == expectedOuter)
        #expect(source.draw(upTo: .max) == again.next(), "the source goes on from the closure's copy")
    }
}
