/// Reads property lists strictly (`SPEC.md` §1.2): our own reader, not Foundation's, so that every rule is
/// checked the same way on every platform and coverage-guided fuzzing sees every branch.
public enum PropertyListReader {
    /// Reads `bytes` as a property list of `format`.
    ///
    /// - Parameters:
    ///   - bytes: The whole list.
    ///   - format: The format it must be.
    /// - Returns: The top object.
    /// - Throws: ``PropertyListError`` at the first rule broken.
    public static func read(_ bytes: [UInt8], as format: PropertyListFormat) throws(PropertyListError)
        -> PropertyListNode
    {
        throw PropertyListError(at: 0, "not implemented yet")
    }
}
