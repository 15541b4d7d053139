/// Why a selection cannot be written in a format (`SPEC.md` §1.1): the `unencodable` error of `selection.encode`.
///
/// Rule: only `xml-plist` can fail, for an untokenized identifier holding a character XML 1.0 forbids (a control
/// character other than tab, line feed and carriage return, U+FFFE or U+FFFF); every other format holds every
/// selection. An encoder answers this error, never a placeholder (`""`, `"[]"`, `nil`: field bugs 10–12).
/// Source: Standard: XML 1.0 §2.2 (Char); Definition.
///
/// ```swift
/// do {
///     defaults.set(Data(try selection.encoded(as: .xmlPlist)), forKey: "selection")
/// } catch {
///     keepTheOldValue(); log(error)   // never store "" in its place
/// }
/// ```
public struct SelectionEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The wire code, `unencodable`.
    public static let code = "unencodable"
    /// A sentence for people.
    public var detail: String

    /// An error saying `detail`.
    ///
    /// - Parameter detail: What the format cannot hold.
    public init(_ detail: String) { self.detail = detail }

    public var description: String { "unencodable: \(detail)" }
}
