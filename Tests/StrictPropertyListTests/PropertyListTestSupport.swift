@testable import StrictPropertyList

/// A hand-built `bplist00` file: raw objects (references written by the test in `referenceSize` bytes), with
/// every trailer field overridable, so each rule of SPEC §1.2 can be broken alone.
struct HandBuiltBinaryList {
    var objects: [[UInt8]]
    var offsetSize = 1
    var referenceSize = 1
    var top: UInt64 = 0
    var count: UInt64?
    var tableOffset: UInt64?
    /// Replaces the offset table's entries (nil: the real offsets).
    var offsets: [UInt64]?

    init(_ objects: [[UInt8]]) {
        self.objects = objects
    }

    /// The real offset of each object.
    var objectOffsets: [Int] {
        var result: [Int] = []
        var position = 8
        for object in objects {
            result.append(position)
            position += object.count
        }
        return result
    }

    var bytes: [UInt8] {
        var out = Array("bplist00".utf8)
        for object in objects { out += object }
        let table = out.count
        for offset in offsets ?? objectOffsets.map(UInt64.init) { out += bigEndian(offset, offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: offsetSize), UInt8(truncatingIfNeeded: referenceSize)]
        out += bigEndian(count ?? UInt64(objects.count), 8)
        out += bigEndian(top, 8)
        out += bigEndian(tableOffset ?? UInt64(table), 8)
        return out
    }
}

/// The low `size` bytes of `value`, big-endian.
func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
}

/// The error reading `bytes` as `format`, or nil when it reads.
func readError(_ bytes: [UInt8], _ format: PropertyListFormat) -> PropertyListError? {
    do throws(PropertyListError) {
        _ = try PropertyListReader.read(bytes, as: format)
        return nil
    } catch {
        return error
    }
}

/// The error reading the XML `text`, or nil when it reads.
func xmlError(_ text: String) -> PropertyListError? {
    readError(Array(text.utf8), .xml)
}

/// The value read from the XML `text`, or nil on an error.
func xmlValue(_ text: String) -> PropertyListValue? {
    try? PropertyListReader.read(Array(text.utf8), as: .xml).value
}

/// `inner` wrapped in a plist document with the usual declaration and DOCTYPE.
func plist(_ inner: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(inner)
    </plist>

    """
}

/// The byte offset of the first `needle` in `text`.
func offset(of needle: String, in text: String) -> Int {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    for start in 0...(haystack.count - pattern.count) where Array(haystack[start..<(start + pattern.count)]) == pattern
    {
        return start
    }
    return -1
}

/// `value` with offsets set to 0 throughout, to compare what was read with what was built.
func stripped(_ node: PropertyListNode) -> PropertyListNode {
    switch node.value {
    case .array(let elements):
        return PropertyListNode(.array(elements.map(stripped)))
    case .dictionary(let members):
        return PropertyListNode(
            .dictionary(members.map { PropertyListEntry(key: stripped($0.key), value: stripped($0.value)) }))
    default:
        return PropertyListNode(node.value)
    }
}

/// A string node.
func str(_ text: String) -> PropertyListNode { PropertyListNode(.string(text)) }

/// A dictionary node of `pairs`, in the order given.
func dict(_ pairs: [(String, PropertyListNode)]) -> PropertyListNode {
    PropertyListNode(.dictionary(pairs.map { PropertyListEntry(key: str($0.0), value: $0.1) }))
}

/// An array node.
func arr(_ elements: [PropertyListNode]) -> PropertyListNode { PropertyListNode(.array(elements)) }
