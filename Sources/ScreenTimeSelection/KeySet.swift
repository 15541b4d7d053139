import StrictJSON

/// The keys of one small JSON object: whether `data` was seen kept as a flag (a token object has one key,
/// `data`), the others in ``ObjectKeys``.
struct KeySet {
    private(set) var containsData = false
    private var rest = ObjectKeys()

    /// Records `data` (known to be new: the first key of the object).
    mutating func insertData() { containsData = true }

    /// Adds `key`, read by `scanner`, which is `data` exactly when `isData`; returns whether it was new. Keys
    /// compare by code point, as in JSON.
    mutating func insert(_ key: JSONScanner.MemberKey, isData: Bool, of scanner: JSONScanner) -> Bool {
        if isData {
            defer { containsData = true }
            return !containsData
        }
        return rest.insert(key, of: scanner)
    }
}
