/// The canonical `bplist00` writer (`SPEC.md` §1.1 "Canonical output per format", the layout of §1.2).
///
/// Objects are numbered depth first from the top object (number 0; a container before its contents, a dictionary's
/// keys before its values); each distinct string (by its Unicode scalars, not by Swift's canonical equivalence) and
/// each distinct data object is written once and referenced from every place it appears. Then come the offset
/// table and the trailer, with the smallest offset and reference sizes (1, 2, 4 or 8 bytes) that fit.
struct BinaryPropertyListWriter {
    /// One object to write: its marker and contents, with references as object numbers.
    private enum Object {
        case leaf(PropertyListValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private var objects: [Object] = []
    private var strings: [[UInt8]: Int] = [:]
    private var datas: [[UInt8]: Int] = [:]

    /// The list holding `node` as its top object.
    static func write(_ node: PropertyListNode) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        _ = writer.number(node.value)
        return writer.encode()
    }

    /// Numbers `value` and what it holds, returning its number.
    private mutating func number(_ value: PropertyListValue) -> Int {
        switch value {
        case .string(let text):
            let key = Array(text.utf8)
            if let known = strings[key] { return known }
            strings[key] = objects.count
        case .data(let bytes):
            if let known = datas[bytes] { return known }
            datas[bytes] = objects.count
        case .array(let elements):
            let mine = objects.count
            objects.append(.array([]))
            let numbers = elements.map { number($0.value) }
            objects[mine] = .array(numbers)
            return mine
        case .dictionary(let members):
            let mine = objects.count
            objects.append(.dictionary(keys: [], values: []))
            let keys = members.map { number($0.key.value) }
            let values = members.map { number($0.value.value) }
            objects[mine] = .dictionary(keys: keys, values: values)
            return mine
        default:
            break
        }
        objects.append(.leaf(value))
        return objects.count - 1
    }

    /// The bytes of the numbered objects, the offset table and the trailer.
    private func encode() -> [UInt8] {
        let referenceSize = Self.size(for: UInt64(objects.count - 1))
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .leaf(let value):
                Self.append(value, to: &out)
            case .array(let elements):
                Self.appendHeader(0xA, count: elements.count, to: &out)
                for element in elements { Self.append(UInt64(element), size: referenceSize, to: &out) }
            case .dictionary(let keys, let values):
                Self.appendHeader(0xD, count: keys.count, to: &out)
                for reference in keys + values { Self.append(UInt64(reference), size: referenceSize, to: &out) }
            }
        }
        let tableOffset = out.count
        // Sized by the table's own offset, as CoreFoundation writes and requires: its reader refuses a table whose
        // offset the offset size cannot hold ("Corrupt top-level info"; found by the selection-plist fuzz target).
        let offsetSize = Self.size(for: UInt64(tableOffset))
        for offset in offsets { Self.append(UInt64(offset), size: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.append(UInt64(objects.count), size: 8, to: &out)
        Self.append(0, size: 8, to: &out)
        Self.append(UInt64(tableOffset), size: 8, to: &out)
        return out
    }

    /// Appends the marker and contents of a leaf.
    private static func append(_ value: PropertyListValue, to out: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            out.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            appendInteger(number, to: &out)
        case .unsignedInteger(let number):
            if number <= UInt64(Int64.max) {
                appendInteger(Int64(number), to: &out)
            } else {
                out.append(0x14)
                append(0, size: 8, to: &out)
                append(number, size: 8, to: &out)
            }
        case .real(let number):
            out.append(0x23)
            append(number.bitPattern, size: 8, to: &out)
        case .date(let seconds):
            out.append(0x33)
            append(seconds.bitPattern, size: 8, to: &out)
        case .data(let bytes):
            appendHeader(0x4, count: bytes.count, to: &out)
            out += bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendHeader(0x5, count: text.utf8.count, to: &out)
                out += text.utf8
            } else {
                appendHeader(0x6, count: text.utf16.count, to: &out)
                for unit in text.utf16 { append(UInt64(unit), size: 2, to: &out) }
            }
        case .uid(let number):
            let size = size(for: number)
            out.append(0x80 | UInt8(size - 1))
            append(number, size: size, to: &out)
        case .array, .dictionary:
            break
        }
    }

    /// Appends an integer object in the fewest bytes: 1, 2 or 4 unsigned bytes, else 8 signed ones.
    private static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        guard number >= 0 else {
            out.append(0x13)
            append(UInt64(bitPattern: number), size: 8, to: &out)
            return
        }
        let size = size(for: UInt64(number))
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        append(UInt64(number), size: size, to: &out)
    }

    /// Appends the marker of kind `kind` for `count` items, with the length as an integer object from 15 on.
    private static func appendHeader(_ kind: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(kind << 4 | UInt8(count))
        } else {
            out.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func size(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    /// Appends the low `size` bytes of `value`, big-endian.
    private static func append(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for index in stride(from: size - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index)))
        }
    }
}
