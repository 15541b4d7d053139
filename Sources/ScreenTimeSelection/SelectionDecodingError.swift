/// Why a stored selection string did not decode (`SPEC.md` §1). Ours: iOS only has `DecodingError`.
///
/// The codes are those of the vector format. When several apply, the first in ``Code`` order wins:
/// `empty` before `tooLarge` before `base64` before `json` or `plist` before `schema` before `token` (`json`
/// applies only to the JSON formats and `plist` only to the property-list ones, `SPEC.md` §1.1).
public struct SelectionDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable, Comparable {
        /// The string holds no bytes.
        case empty
        /// Over 1 MiB of base64.
        case tooLarge
        /// Not RFC 4648 standard base64 with correct padding (no whitespace, no URL-safe alphabet).
        case base64
        /// Not well-formed UTF-8 JSON (RFC 8259), or nested deeper than 32.
        case json
        /// Not a property list of the format by `SPEC.md` §1.2 (binary `bplist00` or the XML subset).
        case plist
        /// Top level not an object, a token array missing or not an array, `includeEntireCategory` not a bool,
        /// an `untokenized*` member not an array of strings, or a key repeated in one object.
        case schema
        /// A token that is not an object with a string `data`, or `data` not canonical base64, empty or over 1024 bytes.
        case token

        /// Precedence: the order in which the checks run.
        var rank: Int {
            switch self {
            case .empty: 0
            case .tooLarge: 1
            case .base64: 2
            case .json: 3
            case .plist: 4
            case .schema: 5
            case .token: 6
            }
        }

        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rank < rhs.rank }
    }

    /// What the offset of an error counts in (`SPEC.md` §1.1).
    public enum Layer: String, Sendable {
        /// The stored text or bytes as given (`empty`, `tooLarge`, `base64`).
        case stored = "stored value"
        /// The JSON: decoded from the base64, or the stored bytes themselves in the `json` formats.
        case json = "JSON"
        /// The property list: decoded from the base64, or the stored bytes themselves.
        case propertyList = "property list"
    }

    // `layer` sits beside `code` (both one byte) so that the error's size is its stride (32 bytes). After `detail`
    // the size was 33 of a 40-byte stride, and ASan release builds reported a stack-buffer-overflow where
    // `init(storedBase64:)` received the typed error, on every input (a compiler issue we keep clear of).
    public var code: Code
    /// What ``offset`` counts in.
    public var layer: Layer
    /// Byte offset where decoding went wrong: in the stored text for `empty`, `tooLarge` and `base64`, in the
    /// JSON or the property list for the other codes (``layer`` says which).
    public var offset: Int
    /// A sentence for people.
    public var detail: String

    /// An error of `code` at `offset`, counted in the JSON for the codes from `json` on.
    ///
    /// - Parameters:
    ///   - code: The wire code.
    ///   - offset: Where decoding went wrong.
    ///   - detail: A sentence for people.
    public init(_ code: Code, at offset: Int, detail: String) {
        self.init(
            code, at: offset, detail: detail, in: code >= .json ? (code == .plist ? .propertyList : .json) : .stored)
    }

    /// An error whose offset counts in `layer`.
    ///
    /// - Parameters:
    ///   - code: The wire code.
    ///   - offset: Where decoding went wrong.
    ///   - detail: A sentence for people.
    ///   - layer: What the offset counts in.
    public init(_ code: Code, at offset: Int, detail: String, in layer: Layer) {
        self.code = code
        self.offset = offset
        self.detail = detail
        self.layer = layer
    }

    /// Whether ``offset`` counts in the bytes inside the stored value (the JSON or the property list) rather than
    /// in the stored text.
    public var offsetIsInJSON: Bool { code >= .json }

    public var description: String {
        let of = layer == .stored ? "base64 text" : layer == .json ? "decoded JSON" : "property list"
        return "\(code.rawValue): \(detail) (at byte \(offset) of the \(of))"
    }
}
