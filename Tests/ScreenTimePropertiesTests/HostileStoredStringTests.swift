import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import Testing

/// Each hostile change does what its name says: the reference answers the error SPEC §1 gives it (or decodes,
/// for the changes a strict decoder accepts), and every change shows up.
@Suite struct HostileStoredStringTests {
    /// The reference's answer for each change, by the start of its name.
    static let expected: [(prefix: String, code: SelectionDecodingError.Code?)] = [
        ("non-zero pad bits in the base64", .base64), ("non-zero pad bits in a token's data", .token),
        ("invalid UTF-8 in a JSON string", .json), ("a lone surrogate escape", .json),
        ("a UTF-8 byte order mark", .json), ("the JSON in UTF-16", .json), ("the JSON in UTF-32", .json),
        ("NaN in", .json), ("Infinity in", .json), ("-Infinity in", .json),
        ("an integer of", nil), ("the number", nil), ("untokenized identifiers", nil),
    ]

    @Test func eachChangeIsAnsweredAsItsNameSays() {
        var seen: Set<String> = []
        for seed in 0..<4_000 as Range<UInt64> {
            let hostile = Gen<HostileStoredString>.hostileStoredString.generate(seed: seed)
            let answer: SelectionDecodingError.Code?
            do {
                _ = try SelectionDecoder.decode(hostile.bytes)
                answer = nil
            } catch {
                answer = error.code
            }
            // The smallest documents ({} and the three empty arrays) are no selection: their changes may not apply.
            let document = Base64.decode(hostile.bytes).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if document.hasPrefix("{}") || !document.contains("includeEntireCategory") && answer == .schema { continue }
            if let rule = Self.expected.first(where: { hostile.change.hasPrefix($0.prefix) }) {
                seen.insert(rule.prefix)
                #expect(answer == rule.code, "\(hostile)")
            } else if hostile.change.hasPrefix("JSON nested") {
                let depth = Int(hostile.change.split(separator: " ")[2]) ?? 0
                #expect(answer == (depth > SelectionDecoder.maximumDepth ? .json : nil), "\(hostile)")
                seen.insert("JSON nested")
            } else if hostile.change.hasPrefix("the key") {
                #expect(answer == .schema, "\(hostile)")
                seen.insert("the key")
            }
        }
        #expect(
            seen.count == Self.expected.count + 2,
            "changes never made: \(Self.expected.map(\.prefix).filter { !seen.contains($0) })")
    }

    @Test func oversizedTextIsTooLargeInBytesOnly() {
        let limit = SelectionDecoder.maximumBase64Length
        var found = 0
        for seed in 0..<200_000 as Range<UInt64> where found < 2 {
            let hostile = Gen<HostileStoredString>.hostileStoredString.generate(seed: seed)
            guard hostile.bytes.count > 1000 else { continue }
            found += 1
            let text = String(decoding: hostile.bytes, as: UTF8.self)
            if hostile.bytes.count > limit {
                #expect(throws: SelectionDecodingError.self) { try SelectionDecoder.decode(hostile.bytes) }
                #expect((try? SelectionDecoder.decode(hostile.bytes)) == nil)
                do { _ = try SelectionDecoder.decode(hostile.bytes) } catch { #expect(error.code == .tooLarge) }
                if hostile.change.contains("é") {
                    #expect(text.utf16.count <= limit && text.unicodeScalars.count <= limit, "\(hostile.change)")
                }
            }
        }
        #expect(found > 0, "no oversized string in 200000 seeds")
    }
}
