import StrictJSON

/// Decodes stored selection strings and reports what it saw (ours).
public enum SelectionDecoder {
    /// The largest stored string accepted: 1 MiB of base64.
    public static let maximumBase64Length = 1 << 20
    /// The deepest JSON nesting accepted (the top-level object is depth 1).
    public static let maximumDepth = 32

    /// The keys iOS writes, in code-point order.
    public static let knownKeys: [String] = [
        "applicationTokens", "categoryTokens", "includeEntireCategory", "untokenizedApplicationIdentifiers",
        "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers", "webDomainTokens",
    ]

    /// A decoded selection and the facts about its encoding that `stc inspect` and lint show.
    public struct Report: Sendable {
        public var selection: FamilyActivitySelection
        /// Token array lengths as written, before duplicates collapsed, per kind.
        public var writtenTokenCounts: [SelectionTokenKind: Int]
        /// Byte length of every distinct token, per kind, in stable order.
        public var tokenByteCounts: [SelectionTokenKind: [Int]]
        /// Top-level keys that iOS does not write (ignored, as Swift's synthesized `Decodable` does).
        public var unknownKeys: [String]
        /// Whether `includeEntireCategory` was absent (decoded as `false`; assumption: pre-15.2 encodings).
        public var includeEntireCategoryMissing: Bool

        /// Duplicates that collapsed, per kind.
        public func duplicateCount(of kind: SelectionTokenKind) -> Int {
            (writtenTokenCounts[kind] ?? 0) - selection.count(of: kind)
        }
    }

    /// Decodes the bytes of a stored base64 string.
    public static func decode(_ base64: [UInt8]) throws(SelectionDecodingError) -> Report {
        return try decodeJSON(json(ofStored: base64))
    }

    /// ``decode(_:)-([UInt8])`` of bytes in a buffer (a fuzzer's input, a memory-mapped file), read in place.
    public static func decode(_ base64: UnsafeBufferPointer<UInt8>) throws(SelectionDecodingError) -> Report {
        return try decodeJSON(json(ofStored: base64))
    }

    /// The canonical form of a stored selection string: the same string as `decode(base64).selection
    /// .canonicalBase64`, and the same error when there is one, but written straight from the token texts as
    /// they are read, without building the selection's sets. For code that only compares or re-stores
    /// selections (field bug 3: compare canonical forms, never the stored strings).
    ///
    /// ```swift
    /// let changed = try SelectionDecoder.canonicalBase64(of: Array(old.utf8))
    ///     != SelectionDecoder.canonicalBase64(of: Array(new.utf8))
    /// ```
    public static func canonicalBase64(of base64: [UInt8]) throws(SelectionDecodingError) -> String {
        try canonicalForm(of: base64).base64
    }

    /// ``canonicalBase64(of:)`` with what a summary of the selection needs: how many distinct tokens of each
    /// kind, and `includeEntireCategory`.
    public static func canonicalForm(of base64: [UInt8]) throws(SelectionDecodingError) -> CanonicalForm {
        return try read(json(ofStored: base64)) { reader in reader.canonicalForm() }
    }

    /// Whether two stored strings hold the same selection: the same bytes, or the same canonical form (SPEC §1).
    /// Throws the first string's error, then the second's.
    ///
    /// Rule: equality is of the sets, whatever member order, token order, duplicates or whitespace the strings
    /// were written with; comparing the stored strings themselves is field bug 3. Source: SPEC §1, §7.3.
    ///
    /// ```swift
    /// if try !SelectionDecoder.sameSelection(Array(stored.utf8), Array(picked.utf8)) { reapplyShields() }
    /// ```
    public static func sameSelection(_ a: [UInt8], _ b: [UInt8]) throws(SelectionDecodingError) -> Bool {
        let first = try canonicalForm(of: a)
        // The same bytes decode to the same selection, and a selection equals itself: one decode is enough.
        if a == b { return true }
        let second = try canonicalForm(of: b)
        return first.base64 == second.base64
    }

    /// A stored selection's canonical string, and its token counts (from ``canonicalForm(of:)``).
    public struct CanonicalForm: Sendable, Equatable {
        /// The canonical stored string (`selection.canonicalBase64`).
        public var base64: String
        /// Distinct tokens per kind (`selection.applicationTokens.count`, …).
        public var applicationCount: Int
        public var categoryCount: Int
        public var webDomainCount: Int
        public var includeEntireCategory: Bool
    }

    /// The JSON inside a stored string, or the error that stops decoding before the JSON.
    static func json(ofStored base64: [UInt8]) throws(SelectionDecodingError) -> [UInt8] {
        let json = base64.withUnsafeBufferPointer { buffer in
            Result { () throws(SelectionDecodingError) in try Self.json(ofStored: buffer) }
        }
        return try json.get()
    }

    static func json(ofStored base64: UnsafeBufferPointer<UInt8>) throws(SelectionDecodingError) -> [UInt8] {
        if base64.isEmpty { throw SelectionDecodingError(.empty, at: 0, detail: "the string is empty") }
        if base64.count > maximumBase64Length {
            throw SelectionDecodingError(
                .tooLarge, at: maximumBase64Length,
                detail: "\(base64.count) bytes of base64, over the \(maximumBase64Length)-byte limit")
        }
        switch Base64.decodeReportingOffset(base64) {
        case .success(let bytes): return bytes
        case .failure(let failure):
            throw SelectionDecodingError(.base64, at: failure.offset, detail: failure.reason.rawValue)
        }
    }

    /// Decodes the JSON inside the base64 (what `JSONEncoder` wrote).
    public static func decodeJSON(_ json: [UInt8]) throws(SelectionDecodingError) -> Report {
        let report = json.withUnsafeBufferPointer { buffer in
            Result { () throws(SelectionDecodingError) in try decodeJSON(buffer) }
        }
        return try report.get()
    }

    /// ``decodeJSON(_:)-([UInt8])`` of bytes in a buffer, read in place.
    public static func decodeJSON(_ json: UnsafeBufferPointer<UInt8>) throws(SelectionDecodingError) -> Report {
        try read(json) { reader in reader.report() }
    }

    fileprivate static func read<R>(
        _ json: [UInt8], _ finish: (SelectionReader) -> R
    ) throws(SelectionDecodingError) -> R {
        let result = json.withUnsafeBufferPointer { buffer in
            Result { () throws(SelectionDecodingError) in try read(buffer, finish) }
        }
        return try result.get()
    }

    /// Reads `json` and hands the reader, once the document has proved valid, to `finish`. The token texts go
    /// into one scratch buffer that lives as long as this call.
    fileprivate static func read<R>(
        _ buffer: UnsafeBufferPointer<UInt8>, _ finish: (SelectionReader) -> R
    ) throws(SelectionDecodingError) -> R {
        // Token texts are never longer than the JSON they come from; 16 bytes of slack let the copy store whole
        // 8-byte words. The shortest accepted token, `{"data":"AA=="}`, takes 15 bytes of JSON, so the records of
        // where they are fit in a second scratch buffer, with no array to grow.
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: buffer.count + 16) { arena in
            withUnsafeTemporaryAllocation(of: TokenText.self, capacity: buffer.count / 15 + 1) {
                records -> Result<R, SelectionDecodingError> in
                var reader = SelectionReader(
                    scanner: JSONScanner(buffer: buffer, maxDepth: maximumDepth), arena: arena, records: records)
                do throws(JSONParseError) {
                    if let problem = try reader.read() { return .failure(problem) }
                    return .success(finish(reader))
                } catch {
                    return .failure(SelectionDecodingError(.json, at: error.offset, detail: error.reason.rawValue))
                }
            }
        }
        return try result.get()
    }
}
