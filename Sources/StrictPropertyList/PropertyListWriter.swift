/// Writes property lists canonically (`SPEC.md` §1.1 "Canonical output per format", the layouts of §1.2).
///
/// Rule: what the writers produce reads back with ``PropertyListReader`` as the same values (offsets aside), for
/// every value the format can hold; the callers order dictionary members (the writers keep the order given).
/// Source: `SPEC.md` §1.1, §1.2.
///
/// ```swift
/// let node = PropertyListNode(.dictionary([PropertyListEntry(key: .init(.string("a")), value: .init(.bool(true)))]))
/// let bytes = PropertyListWriter.binary(node)
/// ```
public enum PropertyListWriter {
    /// The `bplist00` bytes of `node` (offsets ignored).
    ///
    /// Rule: the layout of CoreFoundation's `CFBinaryPList.c`: the header, the objects (the top one first, numbered
    /// depth first), the offset table and the 32-byte trailer; each distinct string and data object written once
    /// and referenced everywhere; integers in the fewest of 1, 2, 4 bytes (unsigned) or 8 (signed), 16 above
    /// `Int64.max`; reals and dates as 8-byte reals; strings in ASCII when every scalar is below U+0080, else in
    /// UTF-16 big-endian; the smallest offset and reference sizes that fit. Source: `SPEC.md` §1.1, §1.2.
    ///
    /// ```swift
    /// PropertyListWriter.binary(PropertyListNode(.bool(true)))  // "bplist00", 0x09, table, trailer: 42 bytes
    /// ```
    ///
    /// - Parameter node: The top object; dictionary keys must be string nodes.
    /// - Returns: The whole list.
    public static func binary(_ node: PropertyListNode) -> [UInt8] {
        BinaryPropertyListWriter.write(node)
    }

    /// The XML bytes of `node` (offsets ignored).
    ///
    /// Rule: the declaration, Apple's DOCTYPE, `<plist version="1.0">`, the value at column 0 with one tab per
    /// nesting level, one element per line, `</plist>` and a final line feed; `<data>` is written as
    /// `<data>\n` + indentation + the base64 on one line + `\n` + indentation + `</data>`; text escapes `&`, `<`,
    /// `>` and a carriage return (`&#13;`). Not every value reads back: a string holding a scalar XML forbids
    /// (such as U+0000) is written with `&#N;`, which the reader refuses; a date keeps only whole seconds (and one
    /// outside the years 0000 … 9999 or not finite is written as 2001-01-01T00:00:00Z); an unsigned integer above
    /// `Int64.max` is written but outside the reader's range; a UID is written as Foundation does, as a
    /// dictionary `CF$UID` → integer. Source: `SPEC.md` §1.1, §1.2.
    ///
    /// ```swift
    /// PropertyListWriter.xml(PropertyListNode(.array([.init(.integer(1))])))
    /// // …<plist version="1.0">\n<array>\n\t<integer>1</integer>\n</array>\n</plist>\n
    /// ```
    ///
    /// - Parameter node: The top object; dictionary keys must be string nodes.
    /// - Returns: The whole document, UTF-8.
    public static func xml(_ node: PropertyListNode) -> [UInt8] {
        XMLPropertyListWriter.write(node)
    }

    /// Whether an XML list can hold `scalar` in its text (`SPEC.md` §1.2: the characters XML 1.0 allows).
    ///
    /// Rule: tab, line feed, carriage return, U+0020 … U+D7FF, U+E000 … U+FFFD, U+10000 … U+10FFFF; anything else
    /// cannot be written faithfully (the writer spells it `&#N;`, which no reader accepts). Source: Standard: XML
    /// 1.0 §2.2.
    ///
    /// ```swift
    /// PropertyListWriter.xmlCanHold("\u{1}")   // false
    /// ```
    ///
    /// - Parameter scalar: A character of a string to write.
    /// - Returns: `true` when XML allows it.
    public static func xmlCanHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
