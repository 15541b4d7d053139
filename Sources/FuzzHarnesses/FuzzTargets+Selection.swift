import ScreenTimeReference

extension FuzzTargets {
    /// `selection-decode`: any bytes as the stored string. Decoding is total; when it succeeds the canonical
    /// string is a fixed point, equality holds through it, counts and order are consistent.
    public static let selectionDecode = FuzzTarget(
        name: "selection-decode", summary: "any bytes as the stored base64 string: total decode, canonical fixed point"
    ) { bytes in
        do throws(SelectionDecodingError) {
            return SelectionInvariants.check(try SelectionDecoder.decode(bytes), layer: .base64)
        } catch {
            return SelectionInvariants.check(error, inputLength: bytes.count, inJSONLength: nil)
        }
    }

    /// `selection-json`: any bytes as the JSON inside the base64, so the fuzzer explores the parser. The same
    /// invariants as `selection-decode`, with the fixed point taken on the canonical JSON.
    public static let selectionJSON = FuzzTarget(
        name: "selection-json", summary: "any bytes as the selection JSON: strict parse, schema, canonical fixed point"
    ) { bytes in
        do throws(SelectionDecodingError) {
            // The fixed point is checked on the JSON layer only: the base64 layer is `selection-decode`'s job, and
            // skipping it here leaves more executions per second for the parser.
            return SelectionInvariants.check(try SelectionDecoder.decodeJSON(bytes), layer: .json)
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
    /// Where the canonical fixed point is checked: on the stored base64 string, or on the JSON inside it.
    public enum Layer: Sendable { case base64, json }

    public static func check(_ report: SelectionDecoder.Report, layer: Layer) -> HarnessFailure? {
        let x = report.selection
        switch layer {
        case .base64:
            let canonical = x.canonicalBase64
            let y: FamilyActivitySelection
            do {
                y = try FamilyActivitySelection(storedBase64: canonical)
            } catch {
                return HarnessFailure("the canonical string does not decode", "\(error); canonical \(canonical)")
            }
            if y != x { return HarnessFailure("decode(canonical(x)) != x", canonical) }
            if y.canonicalBase64 != canonical { return HarnessFailure("canonical(decode(canonical(x))) != canonical(x)", canonical) }
        case .json:
            let canonical = x.canonicalJSON
            let y: FamilyActivitySelection
            do {
                y = try SelectionDecoder.decodeJSON(canonical).selection
            } catch {
                return HarnessFailure("the canonical JSON does not decode", "\(error); canonical \(String(decoding: canonical, as: UTF8.self))")
            }
            if y != x { return HarnessFailure("decodeJSON(canonicalJSON(x)) != x", String(decoding: canonical, as: UTF8.self)) }
            if y.canonicalJSON != canonical {
                return HarnessFailure("canonicalJSON(decodeJSON(canonicalJSON(x))) != canonicalJSON(x)", String(decoding: canonical, as: UTF8.self))
            }
        }
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
