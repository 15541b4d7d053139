/// The strict `bplist00` reader of `SPEC.md` §1.2 (the layout of CoreFoundation's `CFBinaryPList.c`).
///
/// The trailer and the whole offset table are checked first; then the objects are read by a depth-first walk
/// from the top object. The walk counts every reference it follows (so shared references cannot expand a small
/// file without bound), marks the containers it is inside (so a cycle is an error, not a hang) and keeps the
/// leaves it has decoded (so a string referenced a million times is decoded once, and the work stays linear).
struct BinaryPropertyListReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The trailer's fields, once checked.
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var tableOffset = 0
    /// The offset of each object's marker byte, from the offset table.
    private var offsets: [Int] = []
    /// Whether the walk is inside the container with each number (a reference to it now is a cycle).
    private var open: [Bool] = []
    /// Each leaf decoded so far, by object number.
    private var leaves: [PropertyListValue?] = []
    /// The values visited so far, every reference counted.
    private var visited = 0

    /// A reader of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the whole list: the header, the trailer, the offset table, then the objects from the top one.
    mutating func read() throws(PropertyListError) -> PropertyListNode {
        let count = bytes.count
        guard count >= 40 else {
            throw PropertyListError(at: count, "a binary property list is at least 40 bytes, and this one is \(count)")
        }
        let header: [UInt8] = Array("bplist00".utf8)
        for index in 0..<8 where bytes[index] != header[index] {
            throw PropertyListError(at: index, "a binary property list starts with bplist00")
        }
        let trailer = count - 32
        offsetSize = Int(bytes[trailer + 6])
        guard [1, 2, 4, 8].contains(offsetSize) else {
            throw PropertyListError(at: trailer + 6, "the trailer's offset size is \(offsetSize), not 1, 2, 4 or 8")
        }
        referenceSize = Int(bytes[trailer + 7])
        guard [1, 2, 4, 8].contains(referenceSize) else {
            throw PropertyListError(
                at: trailer + 7, "the trailer's reference size is \(referenceSize), not 1, 2, 4 or 8")
        }
        let declaredCount = bigEndian(at: trailer + 8, size: 8)
        guard declaredCount >= 1, declaredCount <= UInt64(PropertyListLimits.maximumValues) else {
            throw PropertyListError(
                at: trailer + 8,
                "the trailer's object count is \(declaredCount), not 1 to \(PropertyListLimits.maximumValues)")
        }
        objectCount = Int(declaredCount)
        let top = bigEndian(at: trailer + 16, size: 8)
        guard top < declaredCount else {
            throw PropertyListError(
                at: trailer + 16, "the trailer's top object is \(top), not below the object count \(objectCount)")
        }
        let declaredTable = bigEndian(at: trailer + 24, size: 8)
        // Both factors are small (at most 2^20 objects of at most 8 bytes), so the product cannot overflow.
        // The table ends where the trailer starts, as CoreFoundation requires (CFBinaryPList.c refuses a gap
        // between them; found by the selection-plist fuzz target).
        let tableSize = objectCount * offsetSize
        guard tableSize <= trailer - 8, declaredTable >= 8, declaredTable == UInt64(trailer - tableSize) else {
            throw PropertyListError(
                at: trailer + 24,
                "the offset table (\(tableSize) bytes at \(declaredTable)) is not between the header and the trailer, ending where the trailer starts"
            )
        }
        // CoreFoundation also refuses a table whose own offset the offset size cannot hold (selection-plist).
        guard offsetSize == 8 || declaredTable >> UInt64(8 * offsetSize) == 0 else {
            throw PropertyListError(
                at: trailer + 24,
                "the offset table's offset \(declaredTable) does not fit the offset size of \(offsetSize) bytes")
        }
        tableOffset = Int(declaredTable)
        offsets.reserveCapacity(objectCount)
        for number in 0..<objectCount {
            let entry = tableOffset + number * offsetSize
            let offset = bigEndian(at: entry, size: offsetSize)
            guard offset >= 8, offset < declaredTable else {
                throw PropertyListError(
                    at: entry,
                    "object \(number)'s offset \(offset) is not between the header and the offset table at \(tableOffset)"
                )
            }
            offsets.append(Int(offset))
        }
        open = Array(repeating: false, count: objectCount)
        leaves = Array(repeating: nil, count: objectCount)
        return try object(Int(top), depth: 1, referencedAt: trailer + 16)
    }

    // MARK: - Objects

    /// Reads object `number` at nesting `depth`, referenced from the byte `site` (for the errors of the walk).
    /// Rule (`SPEC.md` §1.2): every value counts toward the limit each time it is referenced, a dictionary key
    /// does not (`isKey`); only containers count toward the depth, as in JSON.
    private mutating func object(
        _ number: Int, depth: Int, referencedAt site: Int, isKey: Bool = false
    ) throws(PropertyListError) -> PropertyListNode {
        let offset = offsets[number]
        if !isKey {
            visited += 1
            guard visited <= PropertyListLimits.maximumValues else {
                throw PropertyListError(
                    at: site,
                    "the walk from the top object visits more than \(PropertyListLimits.maximumValues) values")
            }
        }
        guard !open[number] else {
            throw PropertyListError(at: site, "object \(number) contains itself (a cycle of references)")
        }
        if let leaf = leaves[number] { return PropertyListNode(leaf, at: offset) }
        let marker = bytes[offset]
        let kind = marker >> 4
        let nibble = Int(marker & 0x0F)
        switch kind {
        case 0xA, 0xD:
            guard depth <= PropertyListLimits.maximumDepth else {
                throw PropertyListError(
                    at: offset, "containers nest deeper than \(PropertyListLimits.maximumDepth) levels")
            }
            let (length, start) = try length(nibble, at: offset)
            let unit = kind == 0xD ? 2 * referenceSize : referenceSize
            try checkExtent(start: start, count: length, unit: unit, marker: offset)
            open[number] = true
            defer { open[number] = false }
            if kind == 0xA {
                var elements: [PropertyListNode] = []
                elements.reserveCapacity(length)
                for index in 0..<length {
                    let site = start + index * referenceSize
                    let child = try reference(at: site)
                    elements.append(try object(child, depth: depth + 1, referencedAt: site))
                }
                return PropertyListNode(.array(elements), at: offset)
            }
            var members: [PropertyListEntry] = []
            members.reserveCapacity(length)
            for index in 0..<length {
                let keySite = start + index * referenceSize
                let keyNumber = try reference(at: keySite)
                let keyOffset = offsets[keyNumber]
                guard bytes[keyOffset] >> 4 == 0x5 || bytes[keyOffset] >> 4 == 0x6 else {
                    throw PropertyListError(
                        at: keyOffset, "a dictionary key is not a string (marker \(hex(bytes[keyOffset])))")
                }
                // A key is a string: no depth, and not a value of the limit.
                let key = try object(keyNumber, depth: depth, referencedAt: keySite, isKey: true)
                let valueSite = start + (length + index) * referenceSize
                let value = try object(try reference(at: valueSite), depth: depth + 1, referencedAt: valueSite)
                members.append(PropertyListEntry(key: key, value: value))
            }
            return PropertyListNode(.dictionary(members), at: offset)
        default:
            let leaf = try self.leaf(marker, at: offset)
            leaves[number] = leaf
            return PropertyListNode(leaf, at: offset)
        }
    }

    /// Decodes the object that is not a container at `offset`, whose marker byte is `marker`.
    private func leaf(_ marker: UInt8, at offset: Int) throws(PropertyListError) -> PropertyListValue {
        let nibble = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08 || marker == 0x09:
            return .bool(marker == 0x09)
        case 0x1 where nibble <= 4:
            let size = 1 << nibble
            try checkExtent(start: offset + 1, count: 1, unit: size, marker: offset)
            if size == 16 {
                guard bigEndian(at: offset + 1, size: 8) == 0 else {
                    throw PropertyListError(
                        at: offset + 1, "a 16-byte integer's high 8 bytes are not zero (it does not fit in 64 bits)")
                }
                let low = bigEndian(at: offset + 9, size: 8)
                return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
            }
            let raw = bigEndian(at: offset + 1, size: size)
            // 1, 2 and 4 bytes are unsigned; 8 bytes are two's complement.
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2 where nibble == 2 || nibble == 3:
            let size = 1 << nibble
            try checkExtent(start: offset + 1, count: 1, unit: size, marker: offset)
            let raw = bigEndian(at: offset + 1, size: size)
            if size == 4 { return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))) }
            return .real(Double(bitPattern: raw))
        case 0x3 where marker == 0x33:
            try checkExtent(start: offset + 1, count: 1, unit: 8, marker: offset)
            return .date(Double(bitPattern: bigEndian(at: offset + 1, size: 8)))
        case 0x4:
            let (length, start) = try length(nibble, at: offset)
            try checkExtent(start: start, count: length, unit: 1, marker: offset)
            return .data(Array(bytes[start..<(start + length)]))
        case 0x5:
            let (length, start) = try length(nibble, at: offset)
            try checkExtent(start: start, count: length, unit: 1, marker: offset)
            for index in start..<(start + length) where bytes[index] >= 0x80 {
                throw PropertyListError(
                    at: index, "an ASCII string holds the byte \(hex(bytes[index])), not below 0x80")
            }
            return .string(String(decoding: bytes[start..<(start + length)], as: UTF8.self))
        case 0x6:
            let (length, start) = try length(nibble, at: offset)
            try checkExtent(start: start, count: length, unit: 2, marker: offset)
            return .string(try utf16(start: start, units: length))
        case 0x8:
            let size = nibble + 1
            try checkExtent(start: offset + 1, count: 1, unit: size, marker: offset)
            if size > 8 {
                guard bigEndian(at: offset + 1, size: size - 8) == 0 else {
                    throw PropertyListError(at: offset + 1, "a UID of \(size) bytes does not fit in 64 bits")
                }
            }
            return .uid(bigEndian(at: offset + 1 + max(0, size - 8), size: min(size, 8)))
        default:
            throw PropertyListError(at: offset, "the marker \(hex(marker)) is not one of a binary property list")
        }
    }

    /// The length of the data, string, array or dictionary whose marker at `offset` has low nibble `nibble`, and
    /// where its contents start: the nibble itself, or (for `0xF`) the integer object that follows the marker.
    private func length(_ nibble: Int, at offset: Int) throws(PropertyListError) -> (Int, Int) {
        guard nibble == 0xF else { return (nibble, offset + 1) }
        let lengthMarker = offset + 1
        guard lengthMarker < tableOffset else {
            throw PropertyListError(at: lengthMarker, "an object's length runs into the offset table")
        }
        let marker = bytes[lengthMarker]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw PropertyListError(
                at: lengthMarker, "an object's length has the marker \(hex(marker)), not an integer of 1 to 8 bytes")
        }
        let size = 1 << Int(marker & 0x0F)
        try checkExtent(start: lengthMarker + 1, count: 1, unit: size, marker: lengthMarker)
        let raw = bigEndian(at: lengthMarker + 1, size: size)
        // The extent check that follows bounds the length by the file; here it only has to fit in an Int.
        guard raw <= UInt64(Int64.max) else {
            throw PropertyListError(at: lengthMarker, "an object's length is negative")
        }
        guard raw <= UInt64(Int.max) else {
            throw PropertyListError(at: lengthMarker, "an object's length \(raw) is too large")
        }
        return (Int(raw), lengthMarker + 1 + size)
    }

    /// Checks that `count` items of `unit` bytes from `start` end before the offset table, without overflow.
    private func checkExtent(start: Int, count: Int, unit: Int, marker: Int) throws(PropertyListError) {
        let (size, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, start <= tableOffset, size <= tableOffset - start else {
            throw PropertyListError(
                at: marker,
                "the object at \(marker) runs past the end of the objects (the offset table at \(tableOffset))")
        }
    }

    /// The object number held by the reference at `site`, checked against the object count.
    private func reference(at site: Int) throws(PropertyListError) -> Int {
        let number = bigEndian(at: site, size: referenceSize)
        guard number < UInt64(objectCount) else {
            throw PropertyListError(
                at: site, "the reference \(number) is not below the object count \(objectCount)")
        }
        return Int(number)
    }

    /// The string of `units` UTF-16 big-endian code units from `start`, refusing a lone surrogate.
    private func utf16(start: Int, units: Int) throws(PropertyListError) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < units {
            let site = start + 2 * index
            let unit = UInt16(bigEndian(at: site, size: 2))
            index += 1
            if unit < 0xD800 || unit > 0xDFFF {
                scalars.append(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
                continue
            }
            guard unit < 0xDC00, index < units else {
                throw PropertyListError(at: site, "a UTF-16 string holds a lone surrogate \(hex(unit))")
            }
            let low = UInt16(bigEndian(at: site + 2, size: 2))
            guard low >= 0xDC00, low <= 0xDFFF else {
                throw PropertyListError(at: site, "a UTF-16 string holds a lone surrogate \(hex(unit))")
            }
            index += 1
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// The big-endian unsigned number of `size` (at most 8) bytes at `offset`; the caller checked the bounds.
    private func bigEndian(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }
}

/// `0x` and the hexadecimal digits of `value`, for error details.
func hex<T: BinaryInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
}
