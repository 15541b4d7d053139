// Where a generator's choices come from: a seeded PRNG, a recorded choice list (replay and shrinking),
// or a raw byte buffer (libFuzzer input, regression files, `--replay` hex).
//
// Every choice is a number in `0...max`. The source records each choice together with its `max`, so the
// recorded run can be shrunk (as a plain `[UInt64]`), replayed, and encoded back into bytes.
//
// The rule that makes everything total: when a replayed list or a byte buffer runs out, every further choice
// is 0, and 0 is always the simplest option (stop the array, take the first alternative, the value nearest
// zero). Out-of-range replayed values are reduced modulo `max + 1`. Nothing here traps on any input.

/// The source of choices for one test case. Create one per case (or `reset` it), pass it to `Gen.generate(using:)`.
public final class ChoiceSource {
    enum Mode { case random, replay, bytes }

    // The stored properties a draw touches are `@exclusivity(unchecked)`: Swift checked every access to them at run
    // time (a class's stored `var`), which was a large share of what a property case costs (`stc check
    // auth.revocation-clears-stores`; docs/PERFORMANCE.md#decisions). No access to them spans a call out of this
    // class (`draw(upTo:random:)` hands the generator a local copy of `rng`), so no two can overlap; and a source
    // is used by one test case on one thread (it is not `Sendable`).
    @exclusivity(unchecked) var mode: Mode
    /// The PRNG used in random mode; generators with their own random distribution draw from it.
    @exclusivity(unchecked) public var rng: Xoshiro256
    @exclusivity(unchecked) var prefix: [UInt64]
    @exclusivity(unchecked) var input: [UInt8]
    @exclusivity(unchecked) var cursor: Int = 0

    /// The choices made so far, in order (only draws with more than one option are recorded).
    @exclusivity(unchecked) public private(set) var choices: [UInt64] = []
    /// The `max` of each recorded choice (same indices as `choices`).
    @exclusivity(unchecked) public private(set) var maxima: [UInt64] = []
    /// Set when generation could not produce a valid value (a filter gave up, too many choices, an
    /// explicit `reject()`); the runner discards such cases. Generation still returns a value.
    @exclusivity(unchecked) public private(set) var isInvalid = false
    /// Set when more than `maxChoices` choices were requested; further choices are all 0.
    @exclusivity(unchecked) public private(set) var didOverrun = false
    /// The most choices one case may make before every further choice becomes 0.
    public let maxChoices: Int
    /// Whether `choices` and `maxima` are kept. A source that only answers "does this input pass" (a fuzz
    /// harness: `Property.holds`) needs neither, and growing two arrays per draw was its main allocation.
    public let records: Bool
    /// Choices made so far, recorded or not (what `maxChoices` limits).
    @exclusivity(unchecked) var drawCount = 0
    /// Whether spans and integer choices are recorded as well (``structure``): on the shrinker's replays only.
    public let recordsStructure: Bool
    @exclusivity(unchecked) var recordedSpans: [ChoiceSpan] = []
    @exclusivity(unchecked) var integerTargets: [Int: UInt64] = [:]

    /// Random choices from a seed.
    public init(seed: UInt64, maxChoices: Int = 10_000) {
        mode = .random
        rng = Xoshiro256(seed: seed)
        prefix = []
        input = []
        self.maxChoices = max(0, maxChoices)
        records = true
        recordsStructure = false
        choices.reserveCapacity(64)
        maxima.reserveCapacity(64)
    }

    /// Replays a recorded choice list; past its end every choice is 0. `recordingStructure: true` also records
    /// where each generated sub-value starts and ends, for the shrinker (``structure``).
    public init(replaying choices: [UInt64], maxChoices: Int = 10_000, recordingStructure: Bool = false) {
        mode = .replay
        rng = Xoshiro256(seed: 0)
        prefix = choices
        input = []
        self.maxChoices = max(0, maxChoices)
        records = true
        recordsStructure = recordingStructure
    }

    /// Decodes choices from raw bytes (see `ChoiceSequence.encode` for the format); past the end, all 0.
    /// `recording: false` leaves `choices` and `maxima` empty (the values drawn are the same).
    public init(bytes: [UInt8], maxChoices: Int = 10_000, recording: Bool = true) {
        mode = .bytes
        rng = Xoshiro256(seed: 0)
        prefix = []
        input = bytes
        self.maxChoices = max(0, maxChoices)
        records = recording
        recordsStructure = false
    }

    /// Restarts in random mode with a new seed, keeping allocated storage (the runner's hot loop).
    public func reset(seed: UInt64) {
        mode = .random
        rng = Xoshiro256(seed: seed)
        cursor = 0
        drawCount = 0
        choices.removeAll(keepingCapacity: true)
        maxima.removeAll(keepingCapacity: true)
        isInvalid = false
        didOverrun = false
    }

    /// The spans and integer choices recorded so far (empty unless the source ``recordsStructure``).
    public var structure: ChoiceStructure {
        ChoiceStructure(spans: recordedSpans, integerTargets: integerTargets)
    }

    /// Where the next recorded choice goes: a span that starts here and is closed with `closeSpan(_:from:)` holds
    /// every choice drawn in between.
    @inlinable
    public var position: Int { choices.count }

    /// Records the choices drawn since `start` (a ``position``) as one span, when the source records structure;
    /// otherwise does nothing. Spans may nest; close the inner ones first.
    @inlinable
    public func closeSpan(_ label: SpanLabel, from start: Int) {
        if recordsStructure { recordSpan(label, from: start) }
    }

    @usableFromInline
    func recordSpan(_ label: SpanLabel, from start: Int) {
        if choices.count > start { recordedSpans.append(ChoiceSpan(start: start, end: choices.count, label: label)) }
    }

    /// A choice in `0...max` that is an index into `order` (see ``IntegerChoice``): the shrinker then lowers and
    /// moves it as a number rather than as an index. Otherwise as `draw(upTo:random:)`.
    @inlinable
    public func draw(in order: IntegerOrder, random: (inout Xoshiro256) -> UInt64) -> UInt64 {
        recordsStructure ? drawRecordingTarget(in: order, random: random) : draw(upTo: order.span, random: random)
    }

    @usableFromInline
    func drawRecordingTarget(in order: IntegerOrder, random: (inout Xoshiro256) -> UInt64) -> UInt64 {
        let index = choices.count
        let value = draw(upTo: order.span, random: random)
        if choices.count > index { integerTargets[index] = order.target }
        return value
    }

    /// True when choices come from the PRNG (generators may then pick values with their own bias).
    public var isRandom: Bool { mode == .random }

    /// Marks the case invalid (discarded by the runner). Generation should still return some value.
    public func reject() { isInvalid = true }

    /// A choice in `0...max`, uniformly random in random mode.
    public func draw(upTo max: UInt64) -> UInt64 {
        draw(upTo: max) { rng in rng.next(upTo: max) }
    }

    /// A choice in `0...max`. In random mode the value comes from `random` (reduced into range if needed),
    /// which lets a generator bias its distribution while still recording a plain number.
    public func draw(upTo max: UInt64, random: (inout Xoshiro256) -> UInt64) -> UInt64 {
        if max == 0 { return 0 }
        if drawCount >= maxChoices {
            didOverrun = true
            isInvalid = true
            return 0
        }
        var value: UInt64
        switch mode {
        case .random:
            // Through a local copy, so that no access to `rng` is open while the generator runs (see above).
            var generator = rng
            value = random(&generator)
            rng = generator
        case .replay:
            value = cursor < prefix.count ? prefix[cursor] : 0
            cursor += 1
        case .bytes:
            value = readBytes(for: max)
        }
        if value > max { value %= (max &+ 1) }  // max < UInt64.max here, so no overflow
        drawCount += 1
        if records {
            choices.append(value)
            maxima.append(max)
        }
        return value
    }

    /// A biased coin: true with `probability` in random mode. Recorded as a choice in `0...1` (0 = false),
    /// so shrinking drives it toward false. Probability 0 or 1 makes no choice at all.
    public func drawBool(probability: Double) -> Bool {
        if !(probability > 0) { return false }
        if probability >= 1 { return true }
        return draw(upTo: 1) { rng in rng.nextUnit() < probability ? 1 : 0 } == 1
    }

    /// Big-endian, as many bytes as `max` needs; missing bytes read as 0 (so trailing zero bytes can be dropped).
    func readBytes(for max: UInt64) -> UInt64 {
        let width = ChoiceSequence.byteWidth(max)
        var value: UInt64 = 0
        for _ in 0..<width {
            let byte: UInt8 = cursor < input.count ? input[cursor] : 0
            cursor += 1
            value = (value << 8) | UInt64(byte)
        }
        return value
    }
}
