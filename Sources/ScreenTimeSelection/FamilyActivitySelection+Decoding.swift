/// Strict, total decoding of a stored selection string (ours, `SPEC.md` §1).
///
/// Apps store `FamilyActivitySelection` as base64 of its `JSONEncoder` output. Decoding returns a selection or a
/// ``SelectionDecodingError``, never traps, for every input: a malformed stored string must surface as an error
/// (field bug 1: a force unwrap that bricks the app at launch; field bug 2: an error swallowed into "0 apps").
///
/// The path is our own base64 and one-pass JSON reading (no Foundation), so it is fast and visible to
/// coverage-guided fuzzing. When several errors apply, the earliest code in ``SelectionDecodingError/Code``
/// wins; among errors of one code, the one at the smallest offset.
///
/// ```swift
/// do {
///     let selection = try FamilyActivitySelection(storedBase64: defaults.string(forKey: "selection") ?? "")
/// } catch {
///     showBanner("Your saved selection could not be read (\(error.code)). Please pick again.")
/// }
/// ```
extension FamilyActivitySelection {
    /// Decodes a stored selection string. See ``SelectionDecoder`` for the full report.
    public init(storedBase64: String) throws(SelectionDecodingError) {
        self = try SelectionDecoder.decode(Array(storedBase64.utf8)).selection
    }
}
