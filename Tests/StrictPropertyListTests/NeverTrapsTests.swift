import Testing

@testable import StrictPropertyList

/// SPEC §1.2: the readers answer a value or an error for every input, and never trap. Mutations of valid lists
/// reach deep into both readers; the process surviving is the test, and every error offset lies within the input.
@Suite struct NeverTrapsTests {
    /// A small deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    }

    /// `bytes` with one to four random edits: a byte changed, a byte inserted or removed, or a cut.
    static func mutate(_ bytes: [UInt8], _ generator: inout Generator) -> [UInt8] {
        var result = bytes
        for _ in 0...generator.below(4) {
            let position = generator.below(result.count)
            switch generator.below(5) {
            case 0, 1: if !result.isEmpty { result[position] = UInt8(truncatingIfNeeded: generator.next()) }
            case 2: result.insert(UInt8(truncatingIfNeeded: generator.next()), at: min(position, result.count))
            case 3: if !result.isEmpty { result.remove(at: position) }
            default: result = Array(result.prefix(position))
            }
        }
        return result
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func mutatedListsNeverTrap(format: PropertyListFormat) {
        var generator = Generator(state: format == .binary ? 1 : 2)
        var outcomes = (read: 0, refused: 0)
        for sample in RoundTripTests.samples + FoundationDifferentialTests.values {
            let bytes = format == .binary ? PropertyListWriter.binary(sample) : PropertyListWriter.xml(sample)
            for _ in 0..<300 {
                let mutated = Self.mutate(bytes, &generator)
                if let error = readError(mutated, format) {
                    outcomes.refused += 1
                    #expect(error.offset >= 0 && error.offset <= mutated.count)
                } else {
                    outcomes.read += 1
                }
            }
        }
        #expect(outcomes.refused > 0)
    }

    @Test func randomBytesNeverTrap() {
        var generator = Generator(state: 3)
        for length in 0..<600 {
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if length >= 8, generator.below(2) == 0 { bytes.replaceSubrange(0..<8, with: Array("bplist00".utf8)) }
            for format in PropertyListFormat.allCases {
                if let error = readError(bytes, format) { #expect(error.offset <= bytes.count) }
            }
        }
    }

    @Test func aLargeSharedStringIsDecodedOnce() {
        // A 200 000-byte string referenced 2^20 - 1 times: linear because the leaf is decoded once.
        let count = PropertyListLimits.maximumValues - 1
        var array: [UInt8] = [0xAF, 0x12] + bigEndian(UInt64(count), 4)
        for _ in 0..<count { array += [0, 1] }
        var list = HandBuiltBinaryList([
            array, [0x5F, 0x12] + bigEndian(200_000, 4) + [UInt8](repeating: 0x61, count: 200_000),
        ])
        list.referenceSize = 2
        list.offsetSize = 4
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(readError(list.bytes, .binary) == nil) }
        #expect(elapsed < .seconds(30))
    }

    @Test func aLargeXMLTextReadsInLinearTime() {
        let text = String(repeating: "a&amp;é😀\r\n", count: 60_000)
        let document = plist(
            "<array><string>\(text)</string><data>\(String(repeating: "AAAA\n", count: 60_000))</data></array>")
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(xmlError(document) == nil) }
        #expect(elapsed < .seconds(30))
    }
}
