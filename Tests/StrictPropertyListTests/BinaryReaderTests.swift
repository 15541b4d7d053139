import Testing

@testable import StrictPropertyList

/// Each rule of SPEC §1.2 "Binary" broken alone, with the offset where reading stops.
@Suite struct BinaryReaderTests {
    /// A list whose only object is `true`.
    let minimal = HandBuiltBinaryList([[0x09]])

    @Test func theMinimalListReads() throws {
        let node = try PropertyListReader.read(minimal.bytes, as: .binary)
        #expect(node == PropertyListNode(.bool(true), at: 8))
        #expect(minimal.bytes.count == 42)
    }

    @Test func theBufferOverloadReadsTheSame() throws {
        let bytes = minimal.bytes
        let node = try bytes.withUnsafeBufferPointer { try PropertyListReader.read($0, as: .binary) }
        #expect(node.value == .bool(true))
        let empty = [UInt8]()
        let error = empty.withUnsafeBufferPointer { buffer -> PropertyListError? in
            do throws(PropertyListError) {
                _ = try PropertyListReader.read(buffer, as: .binary)
                return nil
            } catch { return error }
        }
        #expect(error?.offset == 0)
    }

    @Test func aFileShorterThan40BytesFails() {
        #expect(readError(Array(minimal.bytes.prefix(39)), .binary)?.offset == 39)
        #expect(readError([], .binary)?.offset == 0)
    }

    @Test func theHeaderMustBeBplist00() {
        var bytes = minimal.bytes
        bytes[7] = UInt8(ascii: "1")
        #expect(readError(bytes, .binary)?.offset == 7)
    }

    @Test(arguments: [1, 2, 4, 8])
    func offsetAndReferenceSizesOf1248Read(size: Int) throws {
        var list = HandBuiltBinaryList([[0xA1] + bigEndian(1, size), [0x08]])
        list.offsetSize = size
        list.referenceSize = size
        let node = try PropertyListReader.read(list.bytes, as: .binary)
        #expect(node.value == .array([PropertyListNode(.bool(false), at: 9 + size)]))
    }

    @Test(arguments: [0, 3, 5, 16])
    func otherOffsetSizesFail(size: Int) {
        var list = minimal
        list.offsetSize = size
        let bytes = list.bytes
        let error = readError(bytes, .binary)
        #expect(error?.offset == bytes.count - 26)
        #expect(error?.detail == "the trailer's offset size is \(size), not 1, 2, 4 or 8")
    }

    @Test(arguments: [0, 3, 7, 9])
    func otherReferenceSizesFail(size: Int) {
        var list = minimal
        list.referenceSize = size
        let bytes = list.bytes
        let error = readError(bytes, .binary)
        #expect(error?.offset == bytes.count - 25)
        #expect(error?.detail == "the trailer's reference size is \(size), not 1, 2, 4 or 8")
    }

    @Test func anObjectCountOf0Fails() {
        var list = minimal
        list.count = 0
        let bytes = list.bytes
        #expect(readError(bytes, .binary)?.offset == bytes.count - 24)
    }

    @Test func anObjectCountAboveTheLimitFails() {
        var list = minimal
        list.count = UInt64(PropertyListLimits.maximumValues) + 1
        let bytes = list.bytes
        #expect(readError(bytes, .binary)?.offset == bytes.count - 24)
        list.count = UInt64.max
        #expect(readError(list.bytes, .binary)?.offset == bytes.count - 24)
    }

    @Test func theTopObjectMustBeBelowTheCount() {
        var list = minimal
        list.top = 1
        let bytes = list.bytes
        #expect(readError(bytes, .binary)?.offset == bytes.count - 16)
        list.top = UInt64.max
        #expect(readError(list.bytes, .binary)?.offset == bytes.count - 16)
    }

    @Test func theOffsetTableMustLieBetweenHeaderAndTrailer() {
        for table: UInt64 in [0, 7, 10, UInt64.max] {
            var list = minimal
            list.tableOffset = table
            let bytes = list.bytes
            #expect(readError(bytes, .binary)?.offset == bytes.count - 24 + 16, "table at \(table)")
        }
        // A count whose table would run into the trailer.
        var list = HandBuiltBinaryList([[0x09]])
        list.count = 5
        list.offsets = [8, 8, 8, 8, 8]
        list.tableOffset = 10
        #expect(readError(list.bytes, .binary)?.offset == list.bytes.count - 8)
    }

    @Test func everyOffsetMustBeAtLeast8AndBelowTheTable() {
        var list = HandBuiltBinaryList([[0x09], [0x08]])
        list.offsets = [8, 7]
        #expect(readError(list.bytes, .binary)?.offset == 11)
        list.offsets = [8, 10]  // the table's own offset
        #expect(readError(list.bytes, .binary)?.offset == 11)
        list.offsets = [8, 9]
        #expect(readError(list.bytes, .binary) == nil)
    }

    @Test(
        arguments: [
            0x00, 0x0F, 0x01, 0x07, 0x0A, 0x15, 0x1F, 0x20, 0x21, 0x24, 0x30, 0x32, 0x34, 0x70, 0x7F, 0x90, 0xB0, 0xC0,
            0xC1, 0xE0, 0xF0, 0xFF,
        ] as [UInt8])
    func otherMarkersFail(marker: UInt8) {
        let list = HandBuiltBinaryList([[marker] + [UInt8](repeating: 0, count: 16)])
        let error = readError(list.bytes, .binary)
        #expect(error?.offset == 8)
        #expect(error?.detail.contains("marker") == true)
    }

    @Test func integersOfEveryWidthRead() throws {
        let cases: [([UInt8], PropertyListValue)] = [
            ([0x10, 0xFF], .integer(255)),
            ([0x11, 0xFF, 0xFF], .integer(65_535)),
            ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], .integer(4_294_967_295)),
            ([0x13] + bigEndian(UInt64(bitPattern: -2), 8), .integer(-2)),
            ([0x14] + bigEndian(0, 8) + bigEndian(7, 8), .integer(7)),
            ([0x14] + bigEndian(0, 8) + bigEndian(UInt64.max, 8), .unsignedInteger(UInt64.max)),
            ([0x22] + bigEndian(UInt64(Float(1.5).bitPattern), 4), .real(1.5)),
            ([0x23] + bigEndian((-2.25).bitPattern, 8), .real(-2.25)),
            ([0x33] + bigEndian((12.5).bitPattern, 8), .date(12.5)),
            ([0x80, 0x2A], .uid(42)),
            ([0x83] + bigEndian(0x0102_0304, 4), .uid(0x0102_0304)),
        ]
        for (object, value) in cases {
            let node = try PropertyListReader.read(HandBuiltBinaryList([object]).bytes, as: .binary)
            #expect(node.value == value)
        }
    }

    @Test func aSixteenByteIntegerWithNonzeroHighBytesFails() {
        let list = HandBuiltBinaryList([[0x14] + bigEndian(1, 8) + bigEndian(0, 8)])
        #expect(readError(list.bytes, .binary)?.offset == 9)
        let negative = HandBuiltBinaryList([[0x14] + bigEndian(UInt64.max, 8) + bigEndian(UInt64.max, 8)])
        #expect(readError(negative.bytes, .binary)?.offset == 9)
    }

    @Test func anObjectRunningIntoTheOffsetTableFails() {
        // A 4-byte integer with only 2 bytes before the table.
        let list = HandBuiltBinaryList([[0x12, 0, 0]])
        #expect(readError(list.bytes, .binary)?.offset == 8)
        // A string whose length says 5 with 2 bytes present.
        let string = HandBuiltBinaryList([[0x55, 0x41, 0x42]])
        #expect(readError(string.bytes, .binary)?.offset == 8)
    }

    @Test func lengthsFollowingTheMarkerMustBeNonNegativeIntegers() throws {
        let fifteen = [UInt8](repeating: 0x41, count: 15)
        let good = HandBuiltBinaryList([[0x5F, 0x10, 15] + fifteen])
        #expect(
            try PropertyListReader.read(good.bytes, as: .binary).value == .string(String(repeating: "A", count: 15)))
        let notInteger = HandBuiltBinaryList([[0x5F, 0x23] + fifteen])
        #expect(readError(notInteger.bytes, .binary)?.offset == 9)
        let sixteenBytes = HandBuiltBinaryList([[0x5F, 0x14] + bigEndian(0, 8) + bigEndian(15, 8) + fifteen])
        #expect(readError(sixteenBytes.bytes, .binary)?.offset == 9)
        let negative = HandBuiltBinaryList([[0x4F, 0x13] + bigEndian(UInt64.max, 8)])
        #expect(readError(negative.bytes, .binary)?.offset == 9)
        let huge = HandBuiltBinaryList([[0xAF, 0x13] + bigEndian(UInt64(Int64.max), 8)])
        #expect(readError(huge.bytes, .binary)?.offset == 8)
        let missing = HandBuiltBinaryList([[0x5F]])
        #expect(readError(missing.bytes, .binary)?.offset == 9)
    }

    @Test func asciiStringsHoldOnlyBytesBelow0x80() {
        let list = HandBuiltBinaryList([[0x53, 0x41, 0x80, 0x41]])
        let error = readError(list.bytes, .binary)
        #expect(error?.offset == 10)
    }

    @Test func utf16StringsReadAndRefuseLoneSurrogates() throws {
        // "é😀" as UTF-16 BE: 00E9 D83D DE00.
        let good = HandBuiltBinaryList([[0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]])
        #expect(try PropertyListReader.read(good.bytes, as: .binary).value == .string("é😀"))
        let loneHigh = HandBuiltBinaryList([[0x62, 0x00, 0x41, 0xD8, 0x3D]])
        #expect(readError(loneHigh.bytes, .binary)?.offset == 11)
        let loneLow = HandBuiltBinaryList([[0x62, 0xDE, 0x00, 0x00, 0x41]])
        #expect(readError(loneLow.bytes, .binary)?.offset == 9)
        let highThenText = HandBuiltBinaryList([[0x62, 0xD8, 0x3D, 0x00, 0x41]])
        #expect(readError(highThenText.bytes, .binary)?.offset == 9)
    }

    @Test func dictionariesReadKeysThenValuesInStoredOrder() throws {
        // {"a": 1, "a": true}: a repeated key is kept, in order.
        let list = HandBuiltBinaryList([[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x10, 1], [0x09]])
        let node = try PropertyListReader.read(list.bytes, as: .binary)
        let offsets = list.objectOffsets
        #expect(
            node
                == PropertyListNode(
                    .dictionary([
                        PropertyListEntry(
                            key: .init(.string("a"), at: offsets[1]), value: .init(.integer(1), at: offsets[2])),
                        PropertyListEntry(
                            key: .init(.string("a"), at: offsets[1]), value: .init(.bool(true), at: offsets[3])),
                    ]), at: 8))
    }

    @Test func aDictionaryKeyMustBeAString() {
        let list = HandBuiltBinaryList([[0xD1, 1, 2], [0x10, 1], [0x09]])
        let error = readError(list.bytes, .binary)
        #expect(error?.offset == list.objectOffsets[1])
        #expect(error?.detail.contains("key") == true)
    }

    @Test func aReferenceMustBeBelowTheCount() {
        let list = HandBuiltBinaryList([[0xA2, 1, 2], [0x09]])
        #expect(readError(list.bytes, .binary)?.offset == 10)
    }

    @Test func aCycleFails() {
        let selfContaining = HandBuiltBinaryList([[0xA1, 0]])
        let error = readError(selfContaining.bytes, .binary)
        #expect(error?.offset == 9)
        #expect(error?.detail.contains("cycle") == true)
        // A dictionary value reaching back to its grandparent.
        let indirect = HandBuiltBinaryList([[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 0]])
        #expect(readError(indirect.bytes, .binary)?.offset == indirect.objectOffsets[2] + 1)
    }

    @Test func sharedReferencesAreNotACycle() throws {
        let list = HandBuiltBinaryList([[0xA3, 1, 2, 1], [0x51, 0x78], [0xA1, 1]])
        let node = try PropertyListReader.read(list.bytes, as: .binary)
        guard case .array(let elements) = node.value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 3)
        #expect(elements[0] == elements[2])
        #expect(elements[1].value == .array([PropertyListNode(.string("x"), at: list.objectOffsets[1])]))
    }

    /// `levels` arrays, each holding the next; the innermost one is empty.
    func nestedArrays(_ levels: Int) -> HandBuiltBinaryList {
        HandBuiltBinaryList((0..<levels).map { $0 == levels - 1 ? [0xA0] : [0xA1, UInt8($0 + 1)] })
    }

    @Test func nesting32DeepReadsAnd33Fails() {
        #expect(readError(nestedArrays(32).bytes, .binary) == nil)
        let deep = nestedArrays(33)
        let error = readError(deep.bytes, .binary)
        #expect(error?.offset == deep.objectOffsets[32])
        // Only containers count toward the depth, as in JSON: a scalar inside the 32nd array is read.
        var leafy = nestedArrays(32)
        leafy.objects[31] = [0xA1, 32]
        leafy.objects.append([0x09])
        #expect(readError(leafy.bytes, .binary) == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBillionLaughsOfSharedReferencesFailsQuickly() {
        // 30 arrays, each referencing the next twice: 2^30 values from 31 objects.
        let levels = 30
        var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x78])
        let list = HandBuiltBinaryList(objects)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let error = readError(list.bytes, .binary)
            #expect(error?.detail.contains("values") == true)
        }
        #expect(elapsed < .seconds(10))
        // Wide instead of deep: 255 × 255 × 255 references.
        var wide = HandBuiltBinaryList([
            [0xAF, 0x10, 0xFF] + [UInt8](repeating: 1, count: 255),
            [0xAF, 0x10, 0xFF] + [UInt8](repeating: 2, count: 255),
            [0xAF, 0x10, 0xFF] + [UInt8](repeating: 3, count: 255),
            [0x09],
        ])
        wide.offsetSize = 2
        #expect(readError(wide.bytes, .binary)?.detail.contains("values") == true)
    }

    @Test func exactlyTheValueLimitReads() {
        // 1 array of 2^20 - 1 references to one `true`: 2^20 values in all.
        let count = PropertyListLimits.maximumValues - 1
        var array: [UInt8] = [0xAF, 0x12] + bigEndian(UInt64(count), 4)
        for _ in 0..<count { array += [0, 1] }
        var list = HandBuiltBinaryList([array, [0x09]])
        list.referenceSize = 2
        list.offsetSize = 4
        #expect(readError(list.bytes, .binary) == nil)
        let longer: [UInt8] = [0xAF, 0x12] + bigEndian(UInt64(count + 1), 4) + Array(array[6...]) + [0, 1]
        list.objects[0] = longer
        #expect(readError(list.bytes, .binary)?.detail.contains("values") == true)
    }

    @Test func unreferencedObjectsAndUnusedBytesAreAllowed() throws {
        var list = HandBuiltBinaryList([[0xFF, 0xFF], [0x09]])
        list.top = 1
        list.offsets = [8, 10]
        #expect(try PropertyListReader.read(list.bytes, as: .binary).value == .bool(true))
    }
}
