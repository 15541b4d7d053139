import ScreenTimeReference
import StrictJSON

/// The storage formats on the wire (`SPEC.md` §1.1, §5.2): `selection.decode`'s `format` with its `base64` or
/// `data` member, `selection.encode`, and how an encode answer is read back to be judged (§5.3).
extension SelectionWire {
    /// The input member `format`: absent is `base64-json`.
    ///
    /// Rule: a format name of `SPEC.md` §1.1; a value of another type or an unknown name is ``BadInput``
    /// (Assumption A16). Example: `{"format": "binary-plist"}` gives `.binaryPlist`.
    ///
    /// - Parameter input: The request's input.
    /// - Returns: The format.
    /// - Throws: ``BadInput`` for a non-string or unknown format.
    public static func format(_ input: InputReader) throws -> SelectionFormat {
        guard input.has("format") else { return .base64JSON }
        let name = try input.string("format")
        guard let format = SelectionFormat(rawValue: name) else {
            let names = SelectionFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw BadInput("format \"\(name)\" is not one of \(names)")
        }
        return format
    }

    /// The stored value of `format` in `input`: the `base64` text for the base64 formats, the bytes carried by
    /// `data` for the others.
    ///
    /// Rule: `data` must be canonical standard base64 (only the wire's way of carrying bytes): anything else is
    /// ``BadInput``, and `""` is the empty stored value (`SPEC.md` §5.2). Example: `{"format": "json", "data":
    /// "e30="}` gives the bytes of `{}`.
    ///
    /// - Parameters:
    ///   - input: The request's input.
    ///   - format: The format read from it.
    /// - Returns: The stored bytes (for the base64 formats, the text's UTF-8).
    /// - Throws: ``BadInput`` for a missing, mistyped or non-base64 member.
    public static func storedValue(_ input: InputReader, _ format: SelectionFormat) throws -> [UInt8] {
        if format.isBase64Text { return Array(try input.string("base64").utf8) }
        let carried = try input.string("data")
        guard let bytes = Base64.decode(Array(carried.utf8)) else {
            throw BadInput("\"data\" is not canonical standard base64")
        }
        return bytes
    }

    /// The answer of `selection.decode` for a stored value of `format`.
    static func decodeOutput(_ stored: [UInt8], _ format: SelectionFormat) throws -> JSONValue {
        do throws(SelectionDecodingError) {
            switch format {
            case .base64JSON:
                return output(try SelectionDecoder.canonicalForm(of: stored))
            case .jsonDocument:
                return documentOutput(try SelectionDecoder.decodeDocument(stored))
            default:
                return output(try SelectionDecoder.decode(stored, format: format).selection)
            }
        } catch {
            throw WireErrorCode(error.code.rawValue)
        }
    }

    /// The output of `selection.decode` for a `json-document`: `{"selections": [...]}`, each entry its `path`
    /// with either the five members of ``output(_:)`` or its `error` (`SPEC.md` §1.3, §5.2).
    ///
    /// - Parameter entries: The document's selections, in document order.
    /// - Returns: The output object.
    public static func documentOutput(_ entries: [SelectionDecoder.DocumentEntry]) -> JSONValue {
        .object([
            "selections": .array(
                entries.map { entry in
                    switch entry.result {
                    case .success(let report):
                        guard case .object(var members) = output(report.selection) else { return .null }
                        members["path"] = .string(entry.path)
                        return .object(members)
                    case .failure(let error):
                        return .object(["path": .string(entry.path), "error": .string(error.code.rawValue)])
                    }
                })
        ])
    }

    /// The output of `selection.encode`: the selection written in `format`, as `base64` (the stored text) or
    /// `data` (the bytes in standard base64).
    ///
    /// - Parameters:
    ///   - selection: The selection to write.
    ///   - format: The format, not `json-document`.
    /// - Returns: The output object.
    /// - Throws: ``WireErrorCode`` `unencodable` when the format cannot hold the selection (`SPEC.md` §1.1).
    public static func encodeOutput(_ selection: FamilyActivitySelection, _ format: SelectionFormat) throws -> JSONValue
    {
        let bytes: [UInt8]
        do throws(SelectionEncodingError) {
            bytes = try selection.encoded(as: format)
        } catch {
            throw WireErrorCode(SelectionEncodingError.code)
        }
        if format.isBase64Text { return .object(["base64": .string(String(decoding: bytes, as: UTF8.self))]) }
        return .object(["data": .string(Base64.encode(bytes))])
    }

    /// What a `selection.encode` answer holds, read back with the reference (`SPEC.md` §5.3): `{"canonical": C}`,
    /// or why it does not read back.
    ///
    /// Rule: the answer's `base64` (base64 formats) or `data` (the others, canonical standard base64 of the
    /// bytes) member, read in the requested format by `SPEC.md` §1.1; the request's own input must name a valid
    /// format (otherwise the expectation is an error, and the answer is judged as it is). Example: an answer
    /// `{"base64": ""}` does not read back: `empty`.
    ///
    /// - Parameters:
    ///   - input: The request's input.
    ///   - output: The implementation's output object.
    /// - Returns: The object to judge, or a sentence saying why the answer does not read back.
    public static func readBackEncoding(input: JSONValue, output: JSONValue) -> Result<JSONValue, ReadBackFailure> {
        guard let format = try? format(InputReader(input)), format != .jsonDocument else { return .success(output) }
        let member = format.isBase64Text ? "base64" : "data"
        let stored: [UInt8]
        do {
            stored = try storedValue(InputReader(output), format)
        } catch {
            return .failure(ReadBackFailure("the answer has no valid \"\(member)\" member: \(error)"))
        }
        do throws(SelectionDecodingError) {
            let selection = try SelectionDecoder.decode(stored, format: format).selection
            return .success(.object(["canonical": .string(selection.canonicalBase64)]))
        } catch {
            return .failure(ReadBackFailure("the answer does not read back as \(format.rawValue): \(error)"))
        }
    }

    /// Why an encode answer does not read back.
    public struct ReadBackFailure: Error, Sendable {
        public var message: String
        /// A failure saying `message`.
        ///
        /// - Parameter message: What is wrong, for the report.
        public init(_ message: String) { self.message = message }
    }
}
