import Foundation
import ScreenTimeSelection
import Testing

@testable import _DifferentialFuzzTargets

/// `selection-plist`'s allow-list is exact: each documented deviation has a seed that Foundation accepts, that we
/// reject (or read otherwise, for a repeated key), and on which the deviation is detected; the seeds written by our
/// writer are current.
@Suite struct PropertyListDifferentialTests {
    static let directory = CorpusReplayTests.corpus.appendingPathComponent("selection-plist")

    /// `deviation-xml-byte-order-mark` → `xmlByteOrderMark`.
    static func seedName(_ deviation: PropertyListDeviation) -> String {
        var name = "deviation-"
        for c in deviation.rawValue {
            if c.isUppercase, !name.hasSuffix("-") { name += "-" }
            name += c.lowercased()
        }
        return name.replacingOccurrences(of: "c-d-a-t-a", with: "cdata")
            .replacingOccurrences(of: "u-t-f", with: "utf")
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test(arguments: PropertyListDeviation.allCases)
    func eachDeviationHasASeedThatFoundationAcceptsAndWeDoNot(deviation: PropertyListDeviation) throws {
        let input = try Self.bytes(Self.seedName(deviation))
        let comparison = PropertyListDifferential.compare(input)
        #expect(comparison.failure == nil, "\(comparison.failure.map(String.init(describing:)) ?? "")")
        #expect(comparison.deviations.contains(deviation), "\(comparison.deviations)")
        if PropertyListDifferential.foundationStricter.contains(deviation) {
            // The other way round: we accept, and Foundation refuses or reads another selection.
            guard case .success(let report) = comparison.ours else {
                Issue.record("the reference rejects: \(comparison.ours)")
                return
            }
            if let theirs = comparison.foundation {
                #expect(
                    PropertyListDifferential.difference(report.selection, theirs) != nil,
                    "Foundation now reads this as we do: the deviation may be gone")
            }
            return
        }
        #expect(comparison.foundation != nil, "Foundation no longer accepts this: the deviation may be gone")
        if deviation != .duplicateKey, case .success = comparison.ours {
            Issue.record("the reference accepted a deviating input")
        }
    }

    /// Foundation's own output (plistlib writes PropertyListEncoder's layout) reads as the same selection, with no
    /// deviation needed.
    @Test func validSeedsAgreeWithoutDeviations() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            ($0.hasPrefix("bin-") || $0.hasPrefix("xml-") || $0.hasPrefix("ours-")) && !$0.contains("schema")
                && !$0.contains("token-")
        }
        #expect(names.count >= 18)
        for name in names {
            let comparison = PropertyListDifferential.compare(try Self.bytes(name))
            #expect(comparison.failure == nil, "\(name): \(comparison.failure.map(String.init(describing:)) ?? "")")
            guard case .success = comparison.ours else {
                Issue.record("\(name): we reject Foundation's own output")
                continue
            }
            #expect(comparison.foundation != nil, "\(name)")
        }
    }

    /// The `ours-*` seeds are our writer's output for each `bin-*` seed we accept. With STC_WRITE_PLIST_SEEDS=1
    /// this writes the missing ones (`python3 scripts/make-selection-seeds.py` writes the others).
    @Test func ourWriterSeedsAreCurrent() throws {
        let write = ProcessInfo.processInfo.environment["STC_WRITE_PLIST_SEEDS"] == "1"
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasPrefix("bin-")
        }
        var checked = 0
        for name in names.sorted() {
            guard let report = try? SelectionDecoder.decode(try Self.bytes(name), format: .binaryPlist) else {
                continue
            }
            for (format, prefix) in [(SelectionFormat.binaryPlist, "ours-bin-"), (.xmlPlist, "ours-xml-")] {
                let target = prefix + name.dropFirst("bin-".count)
                let written = try report.selection.encoded(as: format)
                let url = Self.directory.appendingPathComponent(target)
                if write, !FileManager.default.fileExists(atPath: url.path) {
                    try Data(written).write(to: url, options: .atomic)
                }
                #expect((try? Self.bytes(target)) == written, "\(target) is not our writer's current output")
                checked += 1
            }
        }
        #expect(checked >= 18)
    }

    /// A binary list holding one object, `object`, with 1-byte offsets and references of `referenceSize` bytes.
    static func oneObject(_ object: [UInt8], referenceSize: UInt8 = 1) -> [UInt8] {
        let table = 8 + object.count
        var trailer = [UInt8](repeating: 0, count: 6) + [1, referenceSize]
        trailer += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(1) >> (8 * (7 - $0))) }
        trailer += [UInt8](repeating: 0, count: 8)
        trailer += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(table) >> (8 * (7 - $0))) }
        return Array("bplist00".utf8) + object + [8] + trailer
    }

    /// An array (`0xAF`) or dictionary (`0xDF`) marker with a 64-bit element count.
    static func collection(_ marker: UInt8, count: UInt64) -> [UInt8] {
        [marker, 0x13] + (0..<8).map { UInt8(truncatingIfNeeded: count >> (8 * (7 - $0))) }
    }

    /// Foundation's binary reader on Linux converts a collection's reference bytes to `Int` after checking only
    /// for 64-bit overflow: 2^63 bytes or more trap it (the campaign's `regressions/c93388cea2ff9887`). Such input
    /// is kept from it; just below the line, and past the overflow, it refuses the input and is still asked.
    @Test func collectionsWhoseReferencesTakeTwoToThe63BytesAreKeptFromFoundation() {
        let trapping: [(String, [UInt8])] = [
            ("dictionary of 2^62 pairs", Self.oneObject(Self.collection(0xDF, count: 1 << 62))),
            ("array of 2^63 references", Self.oneObject(Self.collection(0xAF, count: 1 << 63))),
            (
                "array of 2^62 2-byte references",
                Self.oneObject(Self.collection(0xAF, count: 1 << 62), referenceSize: 2)
            ),
        ]
        for (name, input) in trapping {
            #expect(LenientBinaryPropertyList.trapsFoundation(input), "\(name)")
            let comparison = PropertyListDifferential.compare(input)
            #expect(comparison.failure == nil, "\(name): \(comparison.failure.map(String.init(describing:)) ?? "")")
            #expect(comparison.foundation == nil, "\(name)")
            switch comparison.ours {
            case .success: Issue.record("\(name): the reference accepted it")
            case .failure(let error): #expect(error.code == .plist, "\(name): \(error)")
            }
        }
        let refused: [(String, [UInt8])] = [
            ("dictionary of 2^61 pairs", Self.oneObject(Self.collection(0xDF, count: 1 << 61))),
            ("array of 2^63 - 1 references", Self.oneObject(Self.collection(0xAF, count: (1 << 63) - 1))),
            ("dictionary of 2^63 pairs (overflows)", Self.oneObject(Self.collection(0xDF, count: 1 << 63))),
            (
                "array of 2^63 2-byte references (overflows)",
                Self.oneObject(Self.collection(0xAF, count: 1 << 63), referenceSize: 2)
            ),
        ]
        for (name, input) in refused {
            #expect(!LenientBinaryPropertyList.trapsFoundation(input), "\(name)")
            // Asked in process: a trap here fails the whole run, which is what this pins.
            #expect(PropertyListDifferential.foundationSelection(input) == nil, "\(name)")
            #expect(PropertyListDifferential.compare(input).failure == nil, "\(name)")
        }
    }

    /// `<plist>`'s attribute value may hold the other kind of quote and a `>` (`version="-'>"`): Foundation ends
    /// the tag at that `>` and refuses the rest, we read the quoted value (`xmlQuotedBracket`). The detector once
    /// counted both kinds of quote together, found them even, and called it `xmlTagSpelling`, a failure (the
    /// campaign's recheck, `regressions/eda6fd552a402f22`).
    @Test(arguments: [#"version="-'>""#, #"version='-">'"#, #"a="'" version="->""#])
    func aBracketInsideAQuoteHoldingTheOtherQuoteIsAQuotedBracket(attributes: String) {
        let input = Array(
            ("<?xml version=\"1.0\"?>\n<plist \(attributes)>\n<dict><key>applicationTokens</key><array/>"
                + "<key>categoryTokens</key><array/><key>webDomainTokens</key><array/></dict>\n</plist>\n").utf8)
        let comparison = PropertyListDifferential.compare(input)
        #expect(comparison.failure == nil, "\(comparison.failure.map(String.init(describing:)) ?? "")")
        #expect(comparison.deviations.contains(.xmlQuotedBracket), "\(comparison.deviations)")
        #expect(comparison.foundation == nil, "Foundation now reads past the bracket: the deviation may be gone")
        if case .failure(let error) = comparison.ours { Issue.record("the reference refused it: \(error)") }
    }

    @Test func plainGarbageAgrees() {
        #expect(PropertyListDifferential.compare(Array("!!".utf8)).failure == nil)
        #expect(PropertyListDifferential.compare(Array("bplist00".utf8)).failure == nil)
        #expect(PropertyListDifferential.compare([]).failure == nil)
    }
}
