import ScreenTimeReference

extension FuzzTargets {
    static var selectionTargets: [FuzzTarget] { [selectionDecode, selectionJSON] }

    /// `selection-decode`: any bytes as the stored string. Decoding is total; when it succeeds the canonical
    /// form is a fixed point, equality holds through it, counts and order are consistent.
    public static let selectionDecode = FuzzTarget(
        name: "selection-decode", summary: "any bytes as the stored base64 string: total decode, canonical fixed point"
    ) { bytes in
        do throws(SelectionDecodingError) {
            let report = try SelectionDecoder.decode(bytes)
            return SelectionInvariants.check(report)
        } catch {
            return SelectionInvariants.check(error, inputLength: bytes.count, inJSONLength: nil)
        }
    }

    /// `selection-json`: any bytes as the JSON inside the base64, so the fuzzer explores the parser.
    public static let selectionJSON = FuzzTarget(
        name: "selection-json", summary: "any bytes as the selection JSON: strict parse, schema, canonical fixed point"
    ) { bytes in
        do throws(SelectionDecodingError) {
            let report = try SelectionDecoder.decodeJSON(bytes)
            if let failure = SelectionInvariants.check(report) { return failure }
            // The canonical JSON, read back as JSON, is the same selection.
            let again = try SelectionDecoder.decodeJSON(report.selection.canonicalJSON)
            if again.selection != report.selection {
                return HarnessFailure("canonical JSON reads back as a different selection")
            }
            return nil
        } catch {
            if error.code < .json {
                return HarnessFailure("decodeJSON reported a base64-level error", "\(error)")
            }
            return SelectionInvariants.check(error, inputLength: nil, inJSONLength: bytes.count)
        }
    }
}

/// The invariants of `SPEC.md` §1 checked on one decode result.
public enum SelectionInvariants {
    public static func check(_ report: SelectionDecoder.Report) -> HarnessFailure? {
        let x = report.selection
        let canonical = x.canonicalBase64
        let y: FamilyActivitySelection
        do {
            y = try FamilyActivitySelection(storedBase64: canonical)
        } catch {
            return HarnessFailure("the canonical string does not decode", "\(error); canonical \(canonical)")
        }
        if y != x { return HarnessFailure("decode(canonical(x)) != x", canonical) }
        if y.canonicalBase64 != canonical { return HarnessFailure("canonical(decode(canonical(x))) != canonical(x)", canonical) }
        for kind in SelectionTokenKind.allCases {
            let written = report.writtenTokenCounts[kind] ?? -1
            if written < x.count(of: kind) {
                return HarnessFailure("fewer tokens written than decoded", "\(kind): \(written) < \(x.count(of: kind))")
            }
            let ordered = x.orderedTokenData(of: kind)
            if ordered.count != x.count(of: kind) { return HarnessFailure("stable order lost or added tokens", "\(kind)") }
            for (a, b) in zip(ordered, ordered.dropFirst()) where !a.utf8.lexicographicallyPrecedes(b.utf8) {
                return HarnessFailure("stable order is not strictly ascending", "\(kind): \(a) then \(b)")
            }
            let sizes = report.tokenByteCounts[kind] ?? []
            if let bad = sizes.first(where: { $0 < 1 || $0 > 1024 }) {
                return HarnessFailure("a token outside 1…1024 bytes was accepted", "\(kind): \(bad) bytes")
            }
        }
        if x.union(x).applicationTokens != x.applicationTokens || !x.subtracting(x).applicationTokens.isEmpty {
            return HarnessFailure("set algebra on a selection and itself is wrong")
        }
        return nil
    }

    public static func check(_ error: SelectionDecodingError, inputLength: Int?, inJSONLength: Int?) -> HarnessFailure? {
        if error.offset < 0 { return HarnessFailure("negative error offset", "\(error)") }
        if !error.offsetIsInJSON, let inputLength, error.offset > max(inputLength, SelectionDecoder.maximumBase64Length) {
            return HarnessFailure("base64 error offset past the input", "\(error), input \(inputLength) bytes")
        }
        if error.offsetIsInJSON, let inJSONLength, error.offset > inJSONLength {
            return HarnessFailure("JSON error offset past the JSON", "\(error), JSON \(inJSONLength) bytes")
        }
        if error.detail.isEmpty { return HarnessFailure("error without a detail", "\(error.code)") }
        return nil
    }
}
