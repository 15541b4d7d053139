import Foundation
import ScreenTimeSelection

/// One lenient pass over XML bytes, as forgiving as Foundation's reader, that notices the XML deviations of
/// ``PropertyListDeviation``: markup SPEC §1.2 refuses (comments, CDATA, processing instructions, DOCTYPE
/// subsets, attributes or spaces in value tags), references and characters outside it, text where only
/// whitespace may be, scalars outside their grammar, non-canonical base64, element forms and nesting over 32.
enum XMLPropertyListDeviations {
    static let valueTags: Set<String> = [
        "dict", "array", "string", "key", "data", "true", "false", "integer", "real", "date",
    ]
    static let textTags: Set<String> = ["string", "key", "data", "integer", "real", "date"]

    static func scan(_ bytes: [UInt8]) -> Set<PropertyListDeviation> {
        var found: Set<PropertyListDeviation> = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { found.insert(.xmlByteOrderMark) }
        if let text = String(validating: bytes, as: UTF8.self) {
            for scalar in text.unicodeScalars where !isXMLCharacter(scalar.value) {
                found.insert(.xmlCharacter)
                break
            }
        } else {
            found.insert(.xmlCharacter)
        }
        // Elements open: (name, children so far, whether their content so far had a CDATA or reference).
        var stack: [(name: String, children: Int, text: [UInt8])] = []
        var plistValues = 0
        var sawPlist = false
        var doctypes = 0
        var i = 0
        let n = bytes.count
        func starts(_ s: String, at k: Int) -> Bool {
            let u = Array(s.utf8)
            return k + u.count <= n && Array(bytes[k..<(k + u.count)]) == u
        }
        func find(_ s: String, from k: Int) -> Int? {
            var j = k
            while j < n {
                if starts(s, at: j) { return j }
                j += 1
            }
            return nil
        }
        while i < n {
            let c = bytes[i]
            if c != UInt8(ascii: "<") {
                // Text: references, and text outside the elements that hold text.
                var j = i
                while j < n, bytes[j] != UInt8(ascii: "<") { j += 1 }
                let run = Array(bytes[i..<j])
                if run.contains(UInt8(ascii: "&")) { checkReferences(run, &found) }
                if let top = stack.last, textTags.contains(top.name) {
                    stack[stack.count - 1].text += run
                    if top.name == "string" || top.name == "key", run.contains(0x0D) { found.insert(.xmlLineEnd) }
                    if top.name == "integer" || top.name == "real" || top.name == "date",
                        run.contains(UInt8(ascii: "&"))
                    {
                        found.insert(.xmlScalarGrammar)
                    }
                    if top.name == "data", run.contains(UInt8(ascii: "&")) { found.insert(.nonCanonicalBase64) }
                } else if run.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
                    if !(i == 0 && run == [0xEF, 0xBB, 0xBF]) { found.insert(.xmlStrayText) }
                }
                i = j
                continue
            }
            if starts("<!--", at: i) {
                found.insert(.xmlComment)
                i = (find("-->", from: i + 4) ?? n - 3) + 3
                continue
            }
            if starts("<![CDATA[", at: i) {
                found.insert(.xmlCDATA)
                let end = find("]]>", from: i + 9) ?? n
                if !stack.isEmpty, textTags.contains(stack[stack.count - 1].name) {
                    stack[stack.count - 1].text += Array(bytes[(i + 9)..<end])
                }
                i = end + 3
                continue
            }
            if starts("<?", at: i) {
                let atStart = i == 0 || (i == 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]))
                let end = find("?>", from: i + 2) ?? n - 2
                let declaration =
                    atStart && starts("<?xml", at: i) && i + 5 < n && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5])
                if !declaration {
                    found.insert(.xmlProcessingInstruction)
                } else if declaresAnotherEncoding(bytes[i..<end]) {
                    found.insert(.xmlDeclaredEncoding)
                }
                i = end + 2
                continue
            }
            if starts("<!", at: i) {
                let end = find(">", from: i) ?? n
                if bytes[i..<end].contains(UInt8(ascii: "[")) {
                    // A DOCTYPE subset: Foundation refuses it too, so no deviation is needed.
                    i = (find("]>", from: i) ?? (find(">", from: i) ?? n)) + 2
                    continue
                }
                if !starts("<!DOCTYPE", at: i) { found.insert(.xmlElementForm) }
                doctypes += 1
                if doctypes > 1 || sawPlist { found.insert(.xmlDoctypePlacement) }
                i = end + 1
                continue
            }
            // A start or end tag.
            var j = i + 1
            let closing = j < n && bytes[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            var k = j
            while k < n, !isSpaceOrEnd(bytes[k]) { k += 1 }
            let name = String(decoding: bytes[j..<k], as: UTF8.self)
            guard let end = find(">", from: i) else {
                // An unclosed `<` after `</plist>`: the rest of the bytes, which Foundation ignores once the root is
                // closed (stray text, as any other byte there).
                if sawPlist && stack.isEmpty { found.insert(.xmlStrayText) }
                i = n
                continue
            }
            let selfClosing = bytes[end - 1] == UInt8(ascii: "/") && end - 1 > i + 1
            let exact = k == end || (selfClosing && k == end - 1)
            if name.isEmpty || (valueTags.contains(name) && !exact) || (closing && !exact) {
                found.insert(.xmlTagSpelling)
            }
            if !valueTags.contains(name), name != "plist" { found.insert(.xmlElementForm) }
            if name == "plist", !closing, !wellFormedAttributes(bytes[k..<(selfClosing ? end - 1 : end)]) {
                // An open quote at the first `>`: our reader reads on to the quote's end, Foundation stops. A quote
                // opens a value only outside one, and only its own kind closes it (`"-'>"` is open at the `>`).
                var open: UInt8?
                for c in bytes[k..<end] {
                    if let quote = open {
                        if c == quote { open = nil }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        open = c
                    }
                }
                found.insert(open != nil ? .xmlQuotedBracket : .xmlTagSpelling)
            }
            if closing {
                if let top = stack.last {
                    check(top.name, top.text, top.children, &found)
                    stack.removeLast()
                } else {
                    found.insert(.xmlElementForm)
                }
            } else {
                if name == "plist" {
                    if sawPlist || !stack.isEmpty { found.insert(.xmlElementForm) }
                    sawPlist = true
                } else if stack.isEmpty {
                    if !sawPlist { found.insert(.xmlElementForm) }
                    plistValues += 1
                } else if stack.count == 1, stack[0].name == "plist" {
                    plistValues += 1
                }
                if !stack.isEmpty {
                    stack[stack.count - 1].children += 1
                    if stack.last!.name == "dict", (stack.last!.children % 2 == 1) != (name == "key") {
                        found.insert(.xmlElementForm)
                    }
                }
                if selfClosing {
                    if ["integer", "real", "date"].contains(name) { found.insert(.xmlScalarGrammar) }
                    if name == "plist" { found.insert(.xmlElementForm) }
                } else {
                    if name == "true" || name == "false" { found.insert(.xmlElementForm) }
                    stack.append((name, 0, []))
                    if stack.count - 1 > 32 { found.insert(.limits) }
                }
            }
            i = end + 1
        }
        if plistValues != 1 || !stack.isEmpty { found.insert(.xmlElementForm) }
        return found
    }

    /// Whether an XML declaration names an encoding other than UTF-8 (or one Foundation would read otherwise).
    static func declaresAnotherEncoding(_ declaration: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: declaration, as: UTF8.self).lowercased()
        guard let range = text.range(of: "encoding") else { return false }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return true }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value != "utf-8"
    }

    /// `(space+ name space* = space* ("…" | '…'))* space*`, values without `<` or `&`: what our reader takes
    /// in `<plist>`.
    static func wellFormedAttributes(_ s: ArraySlice<UInt8>) -> Bool {
        let u = Array(s)
        var i = 0
        func spaces() -> Int {
            let start = i
            while i < u.count, [0x20, 0x09, 0x0A, 0x0D].contains(u[i]) { i += 1 }
            return i - start
        }
        while true {
            let gap = spaces()
            if i == u.count { return true }
            guard gap > 0 else { return false }
            func letter(_ c: UInt8) -> Bool {
                (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == UInt8(ascii: "_")
                    || c == UInt8(ascii: ":")
            }
            guard i < u.count, letter(u[i]) else { return false }
            while i < u.count,
                letter(u[i]) || (0x30...0x39).contains(u[i]) || u[i] == UInt8(ascii: "-")
                    || u[i] == UInt8(ascii: ".")
            {
                i += 1
            }
            _ = spaces()
            guard i < u.count, u[i] == UInt8(ascii: "=") else { return false }
            i += 1
            _ = spaces()
            guard i < u.count, u[i] == UInt8(ascii: "\"") || u[i] == UInt8(ascii: "'") else { return false }
            let quote = u[i]
            i += 1
            while i < u.count, u[i] != quote {
                if u[i] == UInt8(ascii: "<") || u[i] == UInt8(ascii: "&") { return false }
                i += 1
            }
            guard i < u.count else { return false }
            i += 1
        }
    }

    static func isSpaceOrEnd(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">") || c == UInt8(ascii: "/")
    }

    static func isXMLCharacter(_ v: UInt32) -> Bool {
        v == 0x09 || v == 0x0A || v == 0x0D || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
            || (0x10000...0x10FFFF).contains(v)
    }

    /// References other than the five entities and character references to XML characters.
    static func checkReferences(_ run: [UInt8], _ found: inout Set<PropertyListDeviation>) {
        var i = 0
        while i < run.count {
            guard run[i] == UInt8(ascii: "&") else {
                i += 1
                continue
            }
            guard let semicolon = run[i...].firstIndex(of: UInt8(ascii: ";")) else {
                found.insert(.xmlReference)
                return
            }
            let body = String(decoding: run[(i + 1)..<semicolon], as: UTF8.self)
            var ok = ["amp", "lt", "gt", "quot", "apos"].contains(body)
            if body.hasPrefix("#x"), let v = UInt32(body.dropFirst(2), radix: 16),
                body.dropFirst(2).allSatisfy(\.isHexDigit)
            {
                ok = isXMLCharacter(v)
            } else if body.hasPrefix("#"), let v = UInt32(body.dropFirst()), body.dropFirst().allSatisfy(\.isASCII) {
                ok = isXMLCharacter(v) && body.dropFirst().allSatisfy { $0.isNumber }
            }
            if !ok { found.insert(.xmlReference) }
            i = semicolon + 1
        }
    }

    /// An element's content against its grammar.
    static func check(_ name: String, _ text: [UInt8], _ children: Int, _ found: inout Set<PropertyListDeviation>) {
        let s = String(decoding: text, as: UTF8.self)
        switch name {
        case "integer":
            if !isInteger(s) { found.insert(.xmlScalarGrammar) }
        case "real":
            if !isReal(s) { found.insert(.xmlScalarGrammar) }
        case "date":
            if !isDate(Array(text)) { found.insert(.xmlScalarGrammar) }
        case "data":
            let stripped = text.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if case .failure = Base64.decodeReportingOffset(stripped) { found.insert(.nonCanonicalBase64) }
        case "dict":
            if children % 2 == 1 { found.insert(.xmlElementForm) }
        case "true", "false":
            found.insert(.xmlElementForm)
        default: break
        }
    }

    static func isInteger(_ s: String) -> Bool {
        var digits = Substring(s)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard (1...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return Int64(s.hasPrefix("+") ? String(s.dropFirst()) : s) != nil
    }

    static func isReal(_ s: String) -> Bool {
        if ["nan", "inf", "+inf", "-inf"].contains(s) { return true }
        let u = Array(s.utf8)
        var i = 0
        func digits() -> Bool {
            let start = i
            while i < u.count, (0x30...0x39).contains(u[i]) { i += 1 }
            return i > start
        }
        if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() else { return false }
        if i < u.count, u[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { return false }
        }
        if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
            i += 1
            if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() else { return false }
        }
        return i == u.count
    }

    /// The `<date>` grammar of SPEC §1.2: the shape, and a real calendar date and time (Foundation rolls
    /// 2023-02-29 or a leap second forward instead of refusing it).
    static func isDate(_ u: [UInt8]) -> Bool {
        let shape = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
        guard u.count == shape.count else { return false }
        for (c, p) in zip(u, shape) {
            if p == UInt8(ascii: "d") { if !(0x30...0x39).contains(c) { return false } } else if c != p { return false }
        }
        func number(_ range: Range<Int>) -> Int { u[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(month) && (1...days[month - 1]).contains(day) && number(11..<13) <= 23
            && number(14..<16) <= 59 && number(17..<19) <= 59
    }
}

/// A lenient walk of a binary list, as forgiving as CoreFoundation's, that notices the binary deviations of
/// ``PropertyListDeviation``: integer sizes, markers, layout, string content, integer forms, and nesting or walks
/// beyond the limits.
enum LenientBinaryPropertyList {
    /// Whether Foundation's binary reader on Linux (FoundationEssentials' `BPlistScanner`) traps on an object of
    /// the offset table, referenced or not, so that the harness does not hand such input to it
    /// (`corpus/selection-plist/regressions/`). Two traps are known, both in how it reads a length:
    /// - a string or data whose content, by its declared length, runs past the end of the bytes (a bounds check
    ///   in `BPlistMap`);
    /// - an array or set of `count` references, or a dictionary of `count` keys and `count` values, whose
    ///   references take 2^63 bytes or more without overflowing 64 bits: the scanner checks the product for
    ///   overflow, then converts it to `Int`, which traps (`scanArray`, `scanDictionary`).
    ///
    /// Lengths are read as the scanner reads them: the low nibble, or after `0x1n` an integer of 2^n bytes of
    /// which, beyond 8, only the last 8 count.
    static func trapsFoundation(_ b: [UInt8]) -> Bool {
        let n = b.count
        guard n >= 40 else { return false }
        let t = n - 32
        let offsetSize = Int(b[t + 6])
        let refSize = UInt64(b[t + 7])
        guard (1...8).contains(offsetSize) else { return false }
        func be(_ at: Int, _ size: Int) -> UInt64? {
            guard at >= 0, size >= 0, size <= 8, at + size <= n else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
            return v
        }
        guard let count = be(t + 8, 8), let table = be(t + 24, 8), count <= UInt64(n), table <= UInt64(n) else {
            return false
        }
        for k in 0..<Int(count) {
            guard let o = be(Int(table) + k * offsetSize, offsetSize), o < UInt64(n) else { continue }
            let at = Int(o)
            let high = b[at] >> 4
            guard [0x4, 0x5, 0x6, 0xA, 0xC, 0xD].contains(high) else { continue }
            var length = UInt64(b[at] & 0xF)
            var start = at + 1
            if length == 0xF {
                guard at + 1 < n, b[at + 1] >> 4 == 1 else { continue }
                let size = 1 << Int(b[at + 1] & 0xF)
                // A length integer that runs past the end of the bytes is refused, not a trap, except for a
                // string or data, where it is taken as running past the end (the cautious side).
                guard at + 2 + size <= n, let v = be(at + 2 + max(0, size - 8), min(size, 8)) else {
                    if high <= 0x6 { return true }
                    continue
                }
                length = v
                start = at + 2 + size
            }
            switch high {
            case 0x4, 0x5, 0x6:
                let (bytes, overflow) = length.multipliedReportingOverflow(by: high == 0x6 ? 2 : 1)
                let (end, overflowEnd) = UInt64(start).addingReportingOverflow(bytes)
                if overflow || overflowEnd || end > UInt64(n) { return true }
            default:
                let (references, overflow) = length.multipliedReportingOverflow(by: high == 0xD ? 2 : 1)
                let (bytes, overflowBytes) = references.multipliedReportingOverflow(by: refSize)
                if !overflow, !overflowBytes, bytes > UInt64(Int.max) { return true }
            }
        }
        return false
    }

    static func deviations(_ b: [UInt8]) -> Set<PropertyListDeviation> {
        var found: Set<PropertyListDeviation> = []
        let n = b.count
        guard n >= 8 + 32 else { return [.binaryLayout] }
        if !b.starts(with: Array("bplist00".utf8)) { found.insert(.binaryLayout) }
        let t = n - 32
        let offsetSize = Int(b[t + 6])
        let refSize = Int(b[t + 7])
        func be(_ at: Int, _ size: Int) -> UInt64? {
            guard size >= 0, at >= 0, at + size <= n else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
            return v
        }
        if ![1, 2, 4, 8].contains(offsetSize) || ![1, 2, 4, 8].contains(refSize) { found.insert(.binaryIntegerSizes) }
        guard let count = be(t + 8, 8), let top = be(t + 16, 8), let table = be(t + 24, 8), offsetSize > 0,
            refSize > 0, count >= 1, count <= 1 << 20, top < count, table >= 8, table < UInt64(t),
            table + count * UInt64(offsetSize) <= UInt64(t)
        else {
            found.insert(.binaryLayout)
            return found
        }
        if table + count * UInt64(offsetSize) != UInt64(t) { found.insert(.binaryLayout) }
        var offsets: [Int] = []
        for k in 0..<Int(count) {
            let o = be(Int(table) + k * offsetSize, min(offsetSize, 8)) ?? 0
            if o < 8 || o >= table { found.insert(.binaryLayout) }
            offsets.append(Int(min(o, UInt64(n))))
        }
        let tableStart = Int(table)
        var visits = 0
        var inProgress: Set<Int> = []
        /// The length of object at `at` with the low nibble `nibble`, and where its content starts.
        func length(_ at: Int, _ nibble: Int) -> (Int, Int)? {
            if nibble != 0xF { return (nibble, at + 1) }
            guard at + 1 < n else { return nil }
            let m = b[at + 1]
            guard m >> 4 == 1 else {
                found.insert(.binaryIntegerForm)
                return nil
            }
            let size = 1 << Int(m & 0xF)
            if size > 8 { found.insert(.binaryIntegerForm) }
            guard let v = be(at + 2, min(size, 8)) else { return nil }
            if size == 8, v >> 63 == 1 { found.insert(.binaryIntegerForm) }
            return (Int(min(v, UInt64(n))), at + 2 + size)
        }
        func walk(_ number: Int, _ depth: Int) {
            visits += 1
            if visits > 20_000 { return }  // far beyond what a 2048-byte input holds without sharing
            guard number < offsets.count else {
                found.insert(.binaryLayout)
                return
            }
            let at = offsets[number]
            guard at < n else { return }
            let marker = b[at]
            let high = Int(marker >> 4)
            let low = Int(marker & 0xF)
            func inside(_ end: Int) { if end > tableStart { found.insert(.binaryLayout) } }
            switch high {
            case 0x0:
                if marker != 0x08 && marker != 0x09 { found.insert(.binaryMarker) }
                inside(at + 1)
            case 0x1:
                if low > 4 { found.insert(.binaryMarker) }
                if low == 4, let hi = be(at + 1, 8), hi != 0 { found.insert(.binaryIntegerForm) }
                inside(at + 1 + (1 << min(low, 4)))
            case 0x2:
                if low != 2 && low != 3 { found.insert(.binaryMarker) }
                inside(at + 1 + (1 << min(low, 4)))
            case 0x3:
                if marker != 0x33 { found.insert(.binaryMarker) }
                inside(at + 9)
            case 0x4, 0x5, 0x6:
                guard let (count, start) = length(at, low) else { return }
                let size = high == 6 ? count * 2 : count
                inside(start + size)
                guard start + size <= n else { return }
                if high == 5, b[start..<(start + size)].contains(where: { $0 >= 0x80 }) {
                    found.insert(.binaryStringContent)
                }
                if high == 6 {
                    let units = (0..<count).map { UInt16(b[start + 2 * $0]) << 8 | UInt16(b[start + 2 * $0 + 1]) }
                    if String(decoding: units, as: UTF16.self).utf16.elementsEqual(units) == false {
                        found.insert(.binaryStringContent)
                    }
                }
            case 0x8:
                inside(at + 2 + low)
                // A UID of more than 8 bytes whose extra high bytes are not zero: no 64-bit number (SPEC §1.2).
                if low >= 8, at + 2 + low <= n, b[(at + 1)..<(at + 1 + low - 7)].contains(where: { $0 != 0 }) {
                    found.insert(.binaryIntegerForm)
                }
            case 0xA, 0xD:
                guard let (count, start) = length(at, low) else { return }
                let refs = high == 0xD ? 2 * count : count
                inside(start + refs * refSize)
                guard start + refs * refSize <= n else { return }
                if depth + 1 > 32 { found.insert(.limits) }
                if !inProgress.insert(at).inserted {
                    found.insert(.binaryLayout)  // a cycle: CoreFoundation refuses it too
                    return
                }
                defer { inProgress.remove(at) }
                for r in 0..<refs {
                    let ref = Int(be(start + r * refSize, min(refSize, 8)) ?? 0)
                    if ref >= offsets.count {
                        found.insert(.binaryLayout)
                        continue
                    }
                    if high == 0xD, r < count {
                        let key = b[min(offsets[ref], n - 1)] >> 4
                        if key != 0x5 && key != 0x6 { found.insert(.binaryMarker) }
                    }
                    walk(ref, depth + 1)
                }
            default:
                found.insert(.binaryMarker)
            }
        }
        walk(Int(top), 0)
        if visits > 1 << 20 { found.insert(.limits) }
        return found
    }
}
