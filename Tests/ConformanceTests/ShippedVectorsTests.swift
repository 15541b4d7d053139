import Foundation
import ShippedVectors
import Testing
import _TestSupport

@testable import Conformance

/// The suites built into `ShippedVectors` are exactly the files of `corpus/conformance`, and load as they do.
@Suite struct ShippedVectorsTests {
    static let corpus = VectorSuiteTests.corpus

    static func diskFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }.sorted()
    }

    /// The build-tool plugin embedded every file, byte for byte, and no other. A failure here means the embedding
    /// is broken or stale: `swift build` runs the plugin again whenever a file changes or is added or removed.
    @Test func theEmbeddedFilesAreTheCorpusFilesByteForByte() throws {
        let names = try Self.diskFiles()
        #expect(!names.isEmpty)
        #expect(ShippedVectors.files.map(\.name) == names, "built in: \(ShippedVectors.files.map(\.name))")
        for file in ShippedVectors.files where names.contains(file.name) {
            let disk = [UInt8](try #require(FileManager.default.contents(atPath: Self.corpus + "/" + file.name)))
            // Compared apart from #expect, which would print both files.
            let common = min(file.bytes.count, disk.count)
            let firstDifference = (0..<common).first { file.bytes[$0] != disk[$0] } ?? common
            let same = file.bytes.count == disk.count && firstDifference == disk.count
            let sizes = "\(file.bytes.count) bytes built in, \(disk.count) on disk"
            #expect(same, "\(file.name): \(sizes), first difference at byte \(firstDifference); build again")
        }
    }

    /// The shipped suites are the suites the loader reads from the directory, labelled `shipped:NAME`.
    @Test func theShippedSuitesAreTheDirectorysSuites() throws {
        let shipped = try ShippedVectors.suites()
        let disk = try SuiteLoader.load(paths: [Self.corpus])
        #expect(shipped.map(\.name) == disk.map(\.name))
        #expect(shipped.map(\.cases) == disk.map(\.cases))
        #expect(shipped.map(\.file) == disk.map { "shipped:" + URL(fileURLWithPath: $0.file).lastPathComponent })
        #expect(try ShippedVectors.load(paths: ["shipped"]) == shipped)
    }

    /// `Sources/ShippedVectors/Suites` links to corpus/conformance: SwiftPM plans a build again when a module's
    /// directory changes, so through the link a new suite file is built in without editing any list.
    @Test func theModuleLinksToTheCorpus() throws {
        let link = PackagePaths.root.appendingPathComponent("Sources/ShippedVectors/Suites")
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(target == "../../corpus/conformance")
        #expect(link.resolvingSymlinksInPath().path == URL(fileURLWithPath: Self.corpus).resolvingSymlinksInPath().path)
    }

    @Test func shippedLoadsBesideOtherPathsAndIdsStayUnique() throws {
        let shippedCount = try ShippedVectors.suites().flatMap(\.cases).count
        let both = try ShippedVectors.load(paths: ["shipped", Fixtures.suite("basic.json")])
        #expect(both.map(\.name) == (try ShippedVectors.suites().map(\.name)) + ["basic"])
        #expect(both.flatMap(\.cases).count == shippedCount + (try Fixtures.load("basic.json")).flatMap(\.cases).count)
        // Named twice, the shipped suites load once.
        #expect(try ShippedVectors.load(paths: ["shipped", "shipped"]).count == (try ShippedVectors.suites()).count)

        // A suite of your own that reuses a shipped id is refused, and the error names both places.
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let id = try #require(try ShippedVectors.suites().first?.cases.first?.id)
        let mine = dir + "/mine.json"
        try Data(
            """
            {"suite": "mine", "schema": 1, "cases": [
              {"id": "\(id)", "op": "url.encode", "input": {"text": "a"}, "expect": {"output": {"encoded": "a"}},
               "tags": [], "source": "test"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: mine))
        #expect(try ShippedVectors.load(paths: [mine]).count == 1)
        do {
            _ = try ShippedVectors.load(paths: ["shipped", mine])
            Issue.record("a repeated id loaded")
        } catch {
            #expect(error.description.contains("duplicate case id \"\(id)\""), "\(error)")
            #expect(error.description.contains("shipped:"), "\(error)")
        }

        // Every path's problem is reported, beside the shipped suites.
        do {
            _ = try ShippedVectors.load(paths: ["/nonexistent/a", "shipped", "/nonexistent/b"])
            Issue.record("missing paths loaded")
        } catch {
            #expect(error.errors.map(\.file) == ["/nonexistent/a", "/nonexistent/b"])
        }
    }
}
