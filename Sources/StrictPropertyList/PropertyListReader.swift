/// Reads property lists strictly (`SPEC.md` §1.2): our own reader, not Foundation's, so that every rule is
/// checked the same way on every platform and coverage-guided fuzzing sees every branch.
///
/// Rule: the bytes must be one property list of the format asked for, by every rule of `SPEC.md` §1.2 (binary:
/// the `bplist00` layout, markers, references and limits; XML: the subset of XML 1.0 that `PropertyListEncoder`
/// writes). The first rule broken is thrown as a ``PropertyListError`` at the byte where reading stopped; no
/// input traps. Source: `SPEC.md` §1.2.
///
/// ```swift
/// let node = try PropertyListReader.read(bytes, as: .binary)
/// if case .dictionary(let members) = node.value { print(members.count) }
/// ```
public enum PropertyListReader {
    /// Reads `bytes` as a property list of `format`.
    ///
    /// Rule: every rule of `SPEC.md` §1.2 for `format`; offsets in the result are those of each object's marker
    /// byte (binary) or its start tag's `<` (XML). Source: `SPEC.md` §1.2.
    ///
    /// ```swift
    /// let node = try PropertyListReader.read(Array("<plist><true/></plist>".utf8), as: .xml)
    /// // node.value == .bool(true), node.offset == 7
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The whole list.
    ///   - format: The format it must be.
    /// - Returns: The top object.
    /// - Throws: ``PropertyListError`` at the first rule broken.
    public static func read(_ bytes: [UInt8], as format: PropertyListFormat) throws(PropertyListError)
        -> PropertyListNode
    {
        let result: Result<PropertyListNode, PropertyListError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(PropertyListError) {
                return .success(try read(buffer, as: format))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads the bytes of `buffer` as a property list of `format`, without copying them (for fuzz targets).
    ///
    /// Rule: the same as the `[UInt8]` overload: every rule of `SPEC.md` §1.2 for `format`.
    /// Source: `SPEC.md` §1.2.
    ///
    /// ```swift
    /// let node = try data.withUnsafeBufferPointer { try PropertyListReader.read($0, as: .binary) }
    /// ```
    ///
    /// - Parameters:
    ///   - buffer: The whole list.
    ///   - format: The format it must be.
    /// - Returns: The top object.
    /// - Throws: ``PropertyListError`` at the first rule broken.
    public static func read(_ buffer: UnsafeBufferPointer<UInt8>, as format: PropertyListFormat)
        throws(PropertyListError) -> PropertyListNode
    {
        switch format {
        case .binary:
            var reader = BinaryPropertyListReader(buffer)
            return try reader.read()
        case .xml:
            var reader = XMLPropertyListReader(buffer)
            return try reader.read()
        }
    }
}
