import ScreenTimeReference

/// Builds synthetic selections of the device shape: 128-byte tokens whose first 12 bytes are zero,
/// `/` escaped as `\/`, keys and token order shuffled by a seed. Never real device data.
struct DeviceShapedSelection {
    var applications: [[UInt8]] = []
    var categories: [[UInt8]] = []
    var webDomains: [[UInt8]] = []
    var includeEntireCategory: Bool? = false
    var extraMembers: [String] = []
    var seed: UInt64 = 1

    /// A deterministic device-shaped token: 12 zero bytes then 116 bytes from `n`.
    static func token(_ n: Int, length: Int = 128) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        return (0..<length).map { i in
            if i < 12 && length == 128 { return 0 }
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    var json: String {
        var rng = seed
        func shuffled<T>(_ a: [T]) -> [T] {
            var a = a
            guard a.count > 1 else { return a }
            for i in stride(from: a.count - 1, to: 0, by: -1) {
                rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                a.swapAt(i, Int((rng >> 33) % UInt64(i + 1)))
            }
            return a
        }
        func tokens(_ list: [[UInt8]]) -> String {
            "["
                + shuffled(list).map { #"{"data":""# + Base64.encode($0).replacingSlashes() + #""}"# }.joined(
                    separator: ",") + "]"
        }
        var members =
            [
                #""applicationTokens":"# + tokens(applications),
                #""categoryTokens":"# + tokens(categories),
                #""webDomainTokens":"# + tokens(webDomains),
                #""untokenizedApplicationIdentifiers":[]"#,
                #""untokenizedCategoryIdentifiers":[]"#,
                #""untokenizedWebDomainIdentifiers":[]"#,
            ] + extraMembers
        if let includeEntireCategory { members.append(#""includeEntireCategory":\#(includeEntireCategory)"#) }
        return "{" + shuffled(members).joined(separator: ",") + "}"
    }

    var base64: String { Base64.encode(Array(json.utf8)) }
}

extension String {
    /// `/` written `\/`, as Foundation's JSONEncoder does.
    func replacingSlashes() -> String {
        var out = ""
        for c in self { if c == "/" { out += "\\/" } else { out.append(c) } }
        return out
    }
}

/// Base64 of a JSON text.
func b64(_ json: String) -> String { Base64.encode(Array(json.utf8)) }

/// The decoding error code for a stored string, or nil when it decodes.
func decodeError(_ base64: String) -> SelectionDecodingError.Code? {
    do {
        _ = try FamilyActivitySelection(storedBase64: base64)
        return nil
    } catch {
        return error.code
    }
}
