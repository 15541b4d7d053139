import Foundation
import Testing

@testable import MutationTesting

/// The copy keeps the package's symbolic links as links (Sources/ShippedVectors/Suites → corpus/conformance,
/// which ConformanceTests checks is a link, so a copy that followed it failed every clean run), and never
/// writes or removes anything through one.
@Suite struct WorkCopyTests {
    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "workcopy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aLinkStaysALinkAndNothingIsRemovedThroughIt() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/corpus/suites", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/Sources/M", withIntermediateDirectories: true)
        try Data("a".utf8).write(to: URL(fileURLWithPath: root + "/corpus/suites/a.json"))
        try Data("m".utf8).write(to: URL(fileURLWithPath: root + "/Sources/M/m.swift"))
        try fm.createSymbolicLink(atPath: root + "/Sources/M/Suites", withDestinationPath: "../../corpus/suites")

        let copy = WorkCopy(packageRoot: root, directory: root + "/.build/mutation/package")
        #expect(try copy.packageFiles() == ["Sources/M/m.swift", "corpus/suites/a.json"])
        #expect(try copy.packageLinks() == ["Sources/M/Suites": "../../corpus/suites"])
        try copy.sync(replacing: [:])
        let link = copy.directory + "/Sources/M/Suites"
        #expect(try fm.destinationOfSymbolicLink(atPath: link) == "../../corpus/suites")
        #expect(fm.contents(atPath: link + "/a.json") == Data("a".utf8))  // the copy's own corpus

        // A second sync leaves the link alone, and the files it reaches are not stale.
        #expect(try copy.sync(replacing: [:]) == 0)
        #expect(fm.contents(atPath: copy.directory + "/corpus/suites/a.json") == Data("a".utf8))

        // A directory that an older copy made in the link's place is replaced by the link.
        try fm.removeItem(atPath: link)
        try fm.createDirectory(atPath: link, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: link + "/a.json"))
        try copy.sync(replacing: [:])
        #expect(try fm.destinationOfSymbolicLink(atPath: link) == "../../corpus/suites")
        #expect(fm.contents(atPath: root + "/corpus/suites/a.json") == Data("a".utf8))
    }
}
