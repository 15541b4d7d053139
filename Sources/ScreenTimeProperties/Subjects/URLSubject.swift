import ScreenTimeReference

/// The URL component encoder and decoder a property checks (defaults to `PercentEncoding`).
public struct URLSubject: Sendable {
    public var encode: @Sendable (String) -> String
    public var decode: @Sendable (String) -> Result<String, PercentDecodingError>

    public init(
        encode: @escaping @Sendable (String) -> String = { PercentEncoding.encodeComponent($0) },
        decode: @escaping @Sendable (String) -> Result<String, PercentDecodingError> = { text in
            Result { () throws(PercentDecodingError) in try PercentEncoding.decodeComponent(text) }
        }
    ) {
        self.encode = encode
        self.decode = decode
    }

    public static let reference = URLSubject()
}
