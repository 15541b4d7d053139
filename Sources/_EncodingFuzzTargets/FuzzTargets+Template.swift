import ScreenTimeEncoding
import _FuzzCore

extension FuzzTargets {
    /// `template`: the bytes split at NUL into a shield-text template and `key=value` items (an item without
    /// `=` maps its key to `nil`); the template is rendered and checked against a second, naive renderer.
    ///
    /// Invariants: the rendering equals the naive one; values are copied verbatim and never re-scanned (rendering
    /// with opaque stand-ins and substituting the values back gives the same text); a key that has no value never
    /// leaks its name (renaming it changes nothing); `missing` is exactly the keys without a value, each once, in
    /// order of first appearance. Rendering is linear (libFuzzer's `-timeout` catches anything worse).
    ///
    /// `maxLength` 1024: room for several placeholders, fallbacks and `key=value` items.
    public static let template = FuzzTarget(
        name: "template",
        summary: "bytes as a shield-text template + NUL-separated key=value items: one pass, no leaks, missing keys",
        maxLength: 1024,
        inPlace: { input in EncodingInvariants.checkTemplate(input, as: ShieldTextTemplate.self) })
}

/// The `template` checks: the rendering against a naive renderer, no re-scan of values, no leaked key names.
extension EncodingInvariants {
    /// The input format of the `template` target: `TEMPLATE (NUL ITEM)*`, ITEM = `key=value` or `key` (nil).
    /// Later items win. Both parts are made into Strings (ill-formed UTF-8 becomes U+FFFD).
    public static func splitTemplateInput(_ bytes: [UInt8]) -> (template: String, values: [String: String?]) {
        bytes.withUnsafeBufferPointer(splitTemplateInput)
    }

    public static func splitTemplateInput(
        _ b: UnsafeBufferPointer<UInt8>
    ) -> (template: String, values: [String: String?]) {
        func string(_ range: Range<Int>) -> String {
            EncodingInvariants.string(UnsafeBufferPointer(rebasing: b[range]))
        }
        var end = firstIndex(of: 0, in: b, from: 0)
        let template = string(0..<end)
        var items = 0  // counted first, so that the dictionary is allocated once
        var nul = end
        while nul < b.count {
            items += 1
            nul = firstIndex(of: 0, in: b, from: nul + 1)
        }
        var values = [String: String?](minimumCapacity: items)
        while end < b.count {  // b[end] is a NUL: an item follows
            let start = end + 1
            end = firstIndex(of: 0, in: b, from: start)
            let eq = firstIndex(of: UInt8(ascii: "="), in: UnsafeBufferPointer(rebasing: b[..<end]), from: start)
            if eq < end {
                values[string(start..<eq)] = .some(string((eq + 1)..<end))
            } else {
                values[string(start..<end)] = .some(nil)
            }
        }
        return (template, values)
    }

    public static func checkTemplate(_ bytes: [UInt8]) -> HarnessFailure? {
        checkTemplate(bytes, as: ShieldTextTemplate.self)
    }

    public static func checkTemplate<Template: ShieldTextTemplateUnderTest>(
        _ bytes: [UInt8], as template: Template.Type
    ) -> HarnessFailure? {
        bytes.withUnsafeBufferPointer { checkTemplate($0, as: template) }
    }

    /// The checks on bytes in place (libFuzzer's buffer: no copy into an array).
    public static func checkTemplate<Template: ShieldTextTemplateUnderTest>(
        _ bytes: UnsafeBufferPointer<UInt8>, as _: Template.Type
    ) -> HarnessFailure? {
        let (text, values) = splitTemplateInput(bytes)
        let template = Template(text)
        let rendering = template.render(values)
        let keys = template.keys

        // Each key's position in `keys`. A key listed twice is a difference from the naive parser (below).
        let position = KeyPositions(keys)

        // The naive renderer, an independent reading of SPEC §4: the rendering must be its text; `keys` its keys
        // in order of first appearance, each once; `missing` exactly those keys without a value, each once, in
        // that order. Compared piece by piece without building anything; what differs is only worked out on
        // failure, by ``diagnoseNaiveDifference``.
        if !position.keysAreUnique || !matchesNaive(text, values, rendering, keys, position) {
            return diagnoseNaiveDifference(text, values, rendering, keys)
        }

        // Two more renderings would be due, each with its own parse or render:
        // - No re-scan, order-independence: values replaced by opaque stand-ins (NUL cannot occur in the
        //   template), then substituted back, give the same text. Stand-in n is NUL, n in decimal, NUL;
        //   originals[n] its value. (When no value is non-empty there is nothing to stand in for.)
        // - A key without a value never shows its name: renaming every such key (in the placeholders only) to a
        //   fresh name changes nothing. Valid because the naive parser agreed with the reference above, so the
        //   keys without a value are `rendering.missing`, and `keys` are the template's keys.
        // They are made as one: the renamed template rendered with the stand-ins, substituted back, must give
        // the same text. The two changes touch disjoint placeholders (stand-ins replace only non-empty values,
        // renaming only keys without one), so a correct renderer passes; a renderer that re-scans values or
        // depends on their text shows it in the substituted text, one that shows a key's name shows a `zzN`
        // there, and neither can come from the other change. (`FuzzCorpusTests` plants both bugs: each is
        // still caught, and named, since the checks are made apart once the joint one failed.)
        let hasValues = values.values.contains { ($0 ?? "").isEmpty == false }
        if hasValues || !rendering.missing.isEmpty {
            let renaming = !rendering.missing.isEmpty
            guard
                let same = substitutesBack(
                    template, text, values, rendering, position, standIns: hasValues, renaming: renaming)
            else {
                return HarnessFailure("missing lists a key that is not in keys", "\(rendering.missing)")
            }
            if !same {
                if hasValues,
                    substitutesBack(
                        template, text, values, rendering, position, standIns: true, renaming: false) == false
                {
                    return HarnessFailure(
                        "substituted text was re-scanned or depends on the values' text", "template \(preview(text))")
                }
                if renaming,
                    substitutesBack(
                        template, text, values, rendering, position, standIns: false, renaming: true) == false
                {
                    return HarnessFailure(
                        "the name of a key without a value shows in the output",
                        "keys \(rendering.missing), template \(preview(text))")
                }
                return HarnessFailure(
                    "rendering with stand-ins for the values and fresh names for the keys without one differs",
                    "template \(preview(text))")
            }
        }
        return nil
    }

    /// Each key's position in `keys`: found by a linear search while there are few keys (nothing to build), by a
    /// dictionary past that.
    struct KeyPositions {
        let keys: [String]
        let index: [String: Int]?
        /// Whether no key is listed twice.
        let keysAreUnique: Bool

        init(_ keys: [String]) {
            self.keys = keys
            if keys.count <= 8 {
                index = nil
                keysAreUnique = keys.indices.allSatisfy { k in !keys[..<k].contains(keys[k]) }
            } else {
                var index = [String: Int](minimumCapacity: keys.count)
                var unique = true
                for (k, key) in keys.enumerated() where index.updateValue(k, forKey: key) != nil { unique = false }
                self.index = index
                keysAreUnique = unique
            }
        }

        subscript(key: String) -> Int? {
            if let index { return index[key] }
            return keys.firstIndex(of: key)
        }
    }

    /// The stand-in and renaming checks of ``checkTemplate(_:as:)``, either or both: the template, with each key
    /// without a value renamed to a fresh name when `renaming`, rendered with `values` in which each non-empty
    /// value is replaced by an opaque stand-in when `standIns`, and with the stand-ins put back, gives
    /// `rendering.text`. Nil when `rendering.missing` lists a key that is not in `keys`. (`mapValues` keeps the
    /// dictionary's layout: no key is hashed again, and the result is a fresh dictionary that renaming changes
    /// in place.)
    static func substitutesBack<Template: ShieldTextTemplateUnderTest>(
        _ template: Template, _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering,
        _ position: KeyPositions, standIns: Bool, renaming: Bool
    ) -> Bool? {
        withUnsafeTemporaryAllocation(of: String.self, capacity: values.count) { originals -> Bool? in
            var n = 0
            // Without stand-ins, `values` itself (copied only if renaming moves an entry).
            var standInValues =
                !standIns
                ? values
                : values.mapValues { value -> String? in
                    guard let value, !value.isEmpty else { return value }
                    originals.initializeElement(at: n, to: value)
                    n += 1
                    return standIn(n - 1)
                }
            defer { _ = originals.baseAddress.map { $0.deinitialize(count: n) } }
            let opaque: String
            if renaming {
                guard
                    let renamedText = renamingKeysWithoutValue(
                        text, values, rendering, position, moving: &standInValues)
                else { return nil }
                opaque = Template(renamedText).render(standInValues).text
            } else {
                opaque = template.render(standInValues).text
            }
            return withUTF8(opaque) { o in
                withUTF8(rendering.text) { matchesSubstituted(o, UnsafeBufferPointer(rebasing: originals[..<n]), $0) }
            }
        }
    }

    /// Stand-in `n`: NUL, `n` in decimal, NUL. Written straight into a small string (inputs are long for
    /// `String(n)` and two concatenations per value: an input can hold hundreds of items).
    static func standIn(_ n: Int) -> String {
        guard n >= 0, n < 1_000_000 else { return "\u{0}" + String(n) + "\u{0}" }
        return String(unsafeUninitializedCapacity: 8) { out in
            var digits = 1
            var rest = n / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            out[0] = 0
            var value = n
            for k in stride(from: digits, to: 0, by: -1) {
                out[k] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            out[digits + 1] = 0
            return digits + 2
        }
    }

    /// `text` with every key without a value (`rendering.missing`) renamed, in its placeholders, to a fresh
    /// name (`zz` and a number, in neither `values` nor the template's keys), each key's entry in `moved` (if
    /// any, so nil or empty) moved to its new name. Nil when a missing key is not in `keys`.
    static func renamingKeysWithoutValue(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering,
        _ position: KeyPositions, moving moved: inout [String: String?]
    ) -> String? {
        withUnsafeTemporaryAllocation(of: String?.self, capacity: position.keys.count) { renamed -> String? in
            renamed.initialize(repeating: nil)  // by position in `keys`
            defer { renamed.deinitialize() }
            var fresh = 0
            var longestName = 0
            for key in rendering.missing {
                var name: String
                repeat {
                    name = "zz" + String(fresh)
                    fresh += 1
                } while values[name] != nil || position[name] != nil
                guard let k = position[key] else { return nil }  // cannot happen once matchesNaive agreed
                renamed[k] = name
                longestName = max(longestName, name.utf8.count)
                // A nil or empty value moves to the new name (still no value); an absent one stays absent.
                if let entry = moved[key] {
                    moved[key] = nil
                    moved[name] = entry
                }
            }
            return withUTF8(text) { t in
                NaiveTemplate.unparse(t, longestName: longestName) { key in position[key].flatMap { renamed[$0] } }
            }
        }
    }

    static func hasNoValue(_ key: String, _ values: [String: String?]) -> Bool {
        guard let entry = values[key], let value = entry else { return true }
        return value.isEmpty
    }

    /// Whether `rendering` and `keys` are what the naive renderer makes of `text` and `values` (see
    /// ``checkTemplate(_:as:)``), checked in one walk over the naive parser's pieces: each piece's output is
    /// compared in place with the next bytes of `rendering.text`; a placeholder's key must be in `keys`, and the
    /// first time it appears it must be the next key of `keys` not met yet, and, when it has no value, the next
    /// of `rendering.missing`. `position` maps each of `keys` (which are distinct) to its index.
    static func matchesNaive(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering, _ keys: [String],
        _ position: KeyPositions
    ) -> Bool {
        // A key's value, looked up once: `values[keys[k]]` is `values[key]` when `position[key] == k`.
        withUnsafeTemporaryAllocation(of: String?.self, capacity: keys.count) { value in
            for (k, key) in keys.enumerated() {
                let entry = values[key] ?? nil
                value.initializeElement(at: k, to: entry.flatMap { $0.isEmpty ? nil : $0 })
            }
            defer { _ = value.baseAddress.map { $0.deinitialize(count: keys.count) } }
            return withUTF8(text) { t in
                withUTF8(rendering.text) { out in
                    var o: Int? = 0  // bytes of the rendering matched so far; nil once something differed
                    var met = 0  // keys met so far: keys[..<met]
                    var m = 0  // entries of `missing` matched so far
                    var pieces = NaiveTemplate.Pieces(t)
                    while let at = o, let piece = pieces.next() {
                        switch piece {
                        case .literal(let range):
                            o = continues(out, at: at, with: t[range])
                        case .placeholder(let keyRange, let fallback):
                            let key = String(decoding: UnsafeBufferPointer(rebasing: t[keyRange]), as: UTF8.self)
                            guard let k = position[key], k <= met else { return false }  // unknown, or met too early
                            let isFirst = k == met
                            if isFirst { met += 1 }
                            if let found = value[k] {
                                o = withUTF8(found) { continues(out, at: at, with: $0[...]) }
                            } else {
                                if isFirst {  // a key without a value, met for the first time: the next missing one
                                    guard m < rendering.missing.count, rendering.missing[m] == key else { return false }
                                    m += 1
                                }
                                if let fallback { o = continues(out, at: at, with: t[fallback]) }
                            }
                        }
                    }
                    return o == out.count && met == keys.count && m == rendering.missing.count
                }
            }
        }
    }

    /// `at + part.count` when `out` goes on at `at` with `part`, else nil.
    static func continues(
        _ out: UnsafeBufferPointer<UInt8>, at: Int, with part: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Int? {
        guard part.count <= out.count - at,
            equal(UnsafeBufferPointer(rebasing: part), UnsafeBufferPointer(rebasing: out[at..<(at + part.count)]))
        else {
            return nil
        }
        return at + part.count
    }

    /// What ``matchesNaive`` found different, worked out with the naive renderer's own lists (only on failure).
    static func diagnoseNaiveDifference(
        _ text: String, _ values: [String: String?], _ rendering: ShieldTextTemplate.Rendering, _ keys: [String]
    ) -> HarnessFailure {
        let naive = NaiveTemplate(Array(text.utf8))
        let expected = naive.render(values)
        if !sameBytes(rendering.text, expected.text) {
            return HarnessFailure(
                "rendering differs from the naive renderer",
                "template \(preview(text)): got \(preview(rendering.text)), expected \(preview(expected.text))")
        }
        // The naive list holds each key once by construction, so equal to it means no duplicates.
        if rendering.missing != expected.missing {
            if Set(rendering.missing).count != rendering.missing.count {
                return HarnessFailure("missing lists a key twice", "\(rendering.missing)")
            }
            return HarnessFailure(
                "missing is not the keys without a value in order of first appearance",
                "got \(rendering.missing), expected \(expected.missing)")
        }
        if keys != naive.keys { return HarnessFailure("keys differ from the naive parser", "got \(keys)") }
        return HarnessFailure(
            "rendering, keys and missing agree with the naive renderer, but not piece by piece",
            "template \(preview(text))")
    }

    /// Whether `text` with every stand-in (NUL, n in decimal without leading zeros, NUL, n < originals.count)
    /// replaced by `originals[n]` is `expected`; any other NUL stays a NUL.
    static func matchesSubstituted(
        _ text: UnsafeBufferPointer<UInt8>, _ originals: [String], _ expected: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        originals.withUnsafeBufferPointer { matchesSubstituted(text, $0, expected) }
    }

    static func matchesSubstituted(
        _ text: UnsafeBufferPointer<UInt8>, _ originals: UnsafeBufferPointer<String>,
        _ expected: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var i = 0
        var e = 0
        /// Whether `expected[e...]` starts with `part`; moves `e` past it.
        func consume(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
            guard part.count <= expected.count - e else { return false }
            guard equal(part, UnsafeBufferPointer(rebasing: expected[e..<(e + part.count)])) else { return false }
            e += part.count
            return true
        }
        while i < text.count {
            let nul = firstIndex(of: 0, in: text, from: i)
            guard consume(UnsafeBufferPointer(rebasing: text[i..<nul])) else { return false }
            i = nul
            if i == text.count { break }
            let end = firstIndex(of: 0, in: text, from: i + 1)
            if end < text.count, let n = decimal(UnsafeBufferPointer(rebasing: text[(i + 1)..<end])),
                n < originals.count
            {
                guard withUTF8(originals[n], consume) else { return false }
                i = end + 1
            } else {
                guard consume(UnsafeBufferPointer(rebasing: text[i..<(i + 1)])) else { return false }
                i += 1
            }
        }
        return e == expected.count
    }

    /// The value of canonical decimal digits (no sign, no leading zero unless just "0"), nil otherwise.
    static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 6, digits.count == 1 || digits[0] != UInt8(ascii: "0") else {
            return nil
        }
        var n = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(d - UInt8(ascii: "0"))
        }
        return n
    }
}
