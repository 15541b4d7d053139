import Foundation
import FoundationBaseline
import PropertyTesting
import ScreenTimeReference
import StrictJSON

/// Device-shaped selections built in code: 128-byte tokens whose first 12 bytes are zero, keys in the order
/// iOS wrote them in the captures, `/` escaped as `\/`, tokens in no particular order.
public enum SyntheticSelections {

    /// The JSON text of a selection with `count` tokens of each kind.
    public static func json(tokensPerKind count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SplitMix64(seed: seed)  // deterministic: every run measures the same bytes
        func tokens() -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "[")]
            for i in 0..<count {
                var bytes = [UInt8](repeating: 0, count: 12)
                while bytes.count < 128 {
                    withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
                }
                bytes.removeLast(bytes.count - 128)
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"data":"#.utf8)
                JSONWriter.writeString(Base64.encode(bytes), into: &out, escapeSlashes: true)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
            return out
        }
        var out: [UInt8] = []
        out.append(contentsOf: #"{"categoryTokens":"#.utf8)
        out.append(contentsOf: tokens())
        out.append(contentsOf: #","applicationTokens":"#.utf8)
        out.append(contentsOf: tokens())
        out.append(contentsOf: #","untokenizedCategoryIdentifiers":[],"untokenizedApplicationIdentifiers":[],"#.utf8)
        out.append(contentsOf: #""includeEntireCategory":false,"webDomainTokens":"#.utf8)
        out.append(contentsOf: tokens())
        out.append(contentsOf: #","untokenizedWebDomainIdentifiers":[]}"#.utf8)
        return out
    }

    /// The stored (base64) form of ``json(tokensPerKind:seed:)``.
    public static func stored(tokensPerKind count: Int, seed: UInt64 = 1) -> String {
        Base64.encode(json(tokensPerKind: count, seed: seed))
    }
}

/// Ours, through the selection: strict decode into a `FamilyActivitySelection` (its sets), then its canonical
/// form, as `selection.decode` does. Never inlined, so that
/// `valgrind --tool=callgrind --toggle-collect='*referenceCanonicalize*'` can count its instructions alone.
@inline(never)
func referenceCanonicalize(_ stored: [UInt8]) -> String? {
    guard let report = try? SelectionDecoder.decode(stored) else { return nil }
    return report.selection.canonicalBase64
}

/// Ours, direct: the same strict decode, and the canonical form written from the token texts as read
/// (`SelectionDecoder.canonicalBase64(of:)`), without building the selection. Never inlined (callgrind:
/// `--toggle-collect='*directCanonicalize*'`).
@inline(never)
func directCanonicalize(_ stored: [UInt8]) -> String? {
    try? SelectionDecoder.canonicalBase64(of: stored)
}

extension BenchSuite {
    /// Selection decode + canonicalize: ours against Foundation, per input, and a plain copy of the same bytes.
    func selectionSection(into report: inout BenchReport) {
        let section = "selection decode + canonicalize (stored base64 in, canonical base64 out)"
        var inputs: [(id: String, label: String, stored: String)] = []
        if let directory = captureDirectory {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".b64") }.sorted()
            for name in names {
                guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
                var text = String(decoding: data, as: UTF8.self)
                while text.last?.isNewline == true { text.removeLast() }
                let stem = String(name.dropLast(4))
                inputs.append(("device." + stem, "device \(stem)", text))
            }
        }
        if inputs.isEmpty {
            report.skips.append(
                Skip(
                    section: section,
                    reason: "captures not found (../shared/fixtures/device-selections/ beside the package)"))
        }
        for n in [1, 13, 50] {
            inputs.append(
                ("synthetic\(n)", "synthetic, \(n) tokens per kind", SyntheticSelections.stored(tokensPerKind: n)))
        }
        let foundation = FoundationCanonicalizer()
        for input in inputs where selected("selection." + input.id) {
            let bytes = Array(input.stored.utf8)
            let ours = referenceCanonicalize(bytes)
            let theirs = foundation.canonicalize(input.stored)
            if ours == nil || ours != theirs {
                report.notes.append(
                    "selection \(input.id): outputs differ (ours \(ours == nil ? "rejects" : "accepts"), Foundation \(theirs == nil ? "rejects" : "accepts"))"
                )
            }
            if directCanonicalize(bytes) != ours {
                report.notes.append("selection \(input.id): the direct canonical form differs from the selection's")
            }
            /// One of our paths against the Foundation path in alternating batches: the two figures, then their
            /// ratio (which the report prints under the figure whose id ends in `.foundation`).
            func pair(
                _ ids: (ours: String, foundation: String, ratio: String),
                _ labels: (ours: String, foundation: String, ratio: String),
                _ ours: @escaping () -> String?
            ) {
                let a = Workload(items: 1, bytes: bytes.count) { ours()?.utf8.count ?? 0 }
                let b = Workload(items: 1, bytes: bytes.count) {
                    foundation.canonicalize(input.stored)?.utf8.count ?? 0
                }
                let (ra, rb, ratio) = Timer.measurePaired(a, b, plan: plan)
                report.figures.append(
                    Figure(
                        id: ids.ours, section: section, label: labels.ours, unit: "selections/s",
                        itemsPerSecond: Stats(ra), bytesPerItem: bytes.count, repetitions: ra.count))
                report.figures.append(
                    Figure(
                        id: ids.foundation, section: section, label: labels.foundation, unit: "selections/s",
                        itemsPerSecond: Stats(rb), bytesPerItem: bytes.count, repetitions: rb.count))
                report.ratios.append(Ratio(id: ids.ratio, section: section, label: labels.ratio, value: Stats(ratio)))
            }
            let id = "selection.\(input.id)"
            pair(
                (id + ".ours", id + ".foundation", id),
                ("ours        \(input.label), \(bytes.count) B", "Foundation  \(input.label)", "  ours / Foundation")
            ) {
                referenceCanonicalize(bytes)
            }
            pair(
                (id + ".direct", id + ".direct.foundation", id + ".direct"),
                ("ours, direct  \(input.label)", "Foundation  (paired with direct)", "  ours, direct / Foundation")
            ) {
                directCanonicalize(bytes)
            }
        }

        // The limit: copying the same bytes, paired with the decoder so that both see the same load.
        guard selected("selection.memcpy") else { return }
        let limitSection = "limit: plain byte copy of the same input"
        let stored = Array(SyntheticSelections.stored(tokensPerKind: 13).utf8)
        let source = UnsafeMutableRawBufferPointer.allocate(byteCount: stored.count, alignment: 64)
        let target = UnsafeMutableRawBufferPointer.allocate(byteCount: stored.count, alignment: 64)
        defer {
            source.deallocate()
            target.deallocate()
        }
        source.copyBytes(from: stored)
        let copy = Workload(items: 1, bytes: stored.count) {
            target.copyMemory(from: UnsafeRawBufferPointer(source))
            return Int(target[stored.count - 1])
        }
        let decode = Workload(items: 1, bytes: stored.count) { referenceCanonicalize(stored)?.utf8.count ?? 0 }
        let (rc, rd, ratio) = Timer.measurePaired(copy, decode, plan: plan)
        report.figures.append(
            Figure(
                id: "limit.memcpy", section: limitSection, label: "byte copy, \(stored.count) B (13 tokens per kind)",
                unit: "copies/s", itemsPerSecond: Stats(rc), bytesPerItem: stored.count, repetitions: rc.count))
        report.figures.append(
            Figure(
                id: "limit.decode", section: limitSection, label: "ours, same input",
                unit: "selections/s", itemsPerSecond: Stats(rd), bytesPerItem: stored.count, repetitions: rd.count))
        report.ratios.append(
            Ratio(
                id: "decodeVsMemcpy", section: limitSection, label: "ours / byte copy (fraction of bandwidth)",
                value: Stats(ratio.map { 1 / $0 }), isFraction: true))
    }
}
