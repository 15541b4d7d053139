#if STC_PLANTED_BUGS
    import StrictJSON

    // What the planted shield-text bugs do (StrictJSON's PlantedBug; bug-finding benchmark builds only).
    extension ShieldTextTemplate {
        /// `.replacedTextRescanned`: the rendered text scanned once more, each `{key}` in it (a value that looks
        /// like a placeholder, too) replaced by its value.
        static func rescanned(_ text: String, _ values: [String: String?]) -> String {
            let bytes = Array(text.utf8)
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "{") {
                    var k = i + 1
                    while k < bytes.count, isKeyByte(bytes[k]) { k += 1 }
                    if k > i + 1, k < bytes.count, bytes[k] == UInt8(ascii: "}") {
                        let key = String(decoding: bytes[(i + 1)..<k], as: UTF8.self)
                        if let value = values[key] ?? nil, !value.isEmpty {
                            out += value.utf8
                            i = k + 1
                            continue
                        }
                    }
                }
                out.append(bytes[i])
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// `.formatSpecifierTrap`: a `{key:width}` placeholder read as a number format, with the width
        /// force-unwrapped: `{asNumber:}` or `{count:x}` traps.
        static func plantedFormatWidth(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "}") { end += 1 }
            guard end < bytes.count else { return }
            let width = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            guard Int(width) != nil else { fatalError("planted: Int(\"\(width)\")! in a {key:width} placeholder") }
        }
    }
#endif
