import Foundation
import ScreenTimeSelection
import Testing
import _DifferentialFuzzTargets

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

    @Test func plainGarbageAgrees() {
        #expect(PropertyListDifferential.compare(Array("!!".utf8)).failure == nil)
        #expect(PropertyListDifferential.compare(Array("bplist00".utf8)).failure == nil)
        #expect(PropertyListDifferential.compare([]).failure == nil)
    }
}
