/// Why a stored selection string did not decode (`SPEC.md` §1). Ours: iOS only has `DecodingError`.
///
/// The codes are those of the vector format. When several apply, the first in ``Code`` order wins:
/// `empty` before `tooLarge` before `base64` before `json` before `schema` before `token`.
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
            case .schema: 4
            case .token: 5
            }
        }

        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rank < rhs.rank }
    }

    public var code: Code
    /// Byte offset where decoding went wrong: in the base64 text for `empty`, `tooLarge` and `base64`,
    /// in the decoded JSON bytes for `json`, `schema` and `token`.
    public var offset: Int
    /// A sentence for people.
    public var detail: String

    public init(_ code: Code, at offset: Int, detail: String) {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// Which text ``offset`` counts in.
    public var offsetIsInJSON: Bool { code >= .json }

    public var description: String {
        "\(code.rawValue): \(detail) (at byte \(offset) of the \(offsetIsInJSON ? "decoded JSON" : "base64 text"))"
    }
}
