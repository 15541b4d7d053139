import ScreenTimeReference

/// An independent reading of the SPEC §4 template rules, used as the oracle: leftmost scan, a placeholder is
/// `{key}` or `{key|fallback}` with key bytes `A–Z a–z 0–9 _ . -` and a fallback without braces.
public enum TemplateModel {
    public enum Piece: Equatable {
        case text([UInt8])
        case slot(String, [UInt8]?)
    }

    public static func pieces(_ template: String) -> [Piece] {
        let b = Array(template.utf8)
        var out: [Piece] = []
        var text: [UInt8] = []
        var i = 0
        func isKey(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2E
                || c == 0x2D
        }
        while i < b.count {
            if b[i] == UInt8(ascii: "{") {
                var j = i + 1
                while j < b.count && isKey(b[j]) { j += 1 }
                if j > i + 1 && j < b.count {
                    let key = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                    if b[j] == UInt8(ascii: "}") {
                        out.append(.text(text))
                        text = []
                        out.append(.slot(key, nil))
                        i = j + 1
                        continue
                    }
                    if b[j] == UInt8(ascii: "|") {
                        var k = j + 1
                        while k < b.count && b[k] != UInt8(ascii: "{") && b[k] != UInt8(ascii: "}") { k += 1 }
                        if k < b.count && b[k] == UInt8(ascii: "}") {
                            out.append(.text(text))
                            text = []
                            out.append(.slot(key, Array(b[(j + 1)..<k])))
                            i = k + 1
                            continue
                        }
                    }
                }
            }
            text.append(b[i])
            i += 1
        }
        out.append(.text(text))
        return out
    }

    public static func render(_ template: String, _ values: [String: String?]) -> ShieldTextTemplate.Rendering {
        var out: [UInt8] = []
        var missing: [String] = []
        for piece in pieces(template) {
            switch piece {
            case .text(let t): out += t
            case .slot(let key, let fallback):
                if let v = values[key] ?? nil, !v.isEmpty {
                    out += Array(v.utf8)
                } else {
                    if !missing.contains(key) { missing.append(key) }
                    out += fallback ?? []
                }
            }
        }
        return .init(text: String(decoding: out, as: UTF8.self), missing: missing)
    }
}
