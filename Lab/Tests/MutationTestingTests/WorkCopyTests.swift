import Foundation
import Testing

@testable import MutationTesting

/// The work copy holds the package's files, its symbolic links as links, and nothing the package no longer has.
@Suite struct WorkCopyTests {
    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("workcopy-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aLinkedDirectoryStaysALinkAndFilesAreCopied() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let package = root + "/package"
        try FileManager.default.createDirectory(atPath: package + "/corpus/suites", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: package + "/Sources/M", withIntermediateDirectories: true)
        try Data("a".utf8).write(to: URL(fileURLWithPath: package + "/corpus/suites/a.json"))
        try Data("let x = 1".utf8).write(to: URL(fileURLWithPath: package + "/Sources/M/M.swift"))
        try FileManager.default.createSymbolicLink(
            atPath: package + "/Sources/M/Suites", withDestinationPath: "../../corpus/suites")
        let copy = WorkCopy(packageRoot: package, directory: root + "/copy")
        #expect(try copy.packageFiles() == ["Sources/M/M.swift", "corpus/suites/a.json"])
        #expect(try copy.packageLinks().map(\.path) == ["Sources/M/Suites"])

        // A copy made before links were kept holds a plain directory there: it becomes the link.
        try FileManager.default.createDirectory(
            atPath: root + "/copy/Sources/M/Suites", withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: root + "/copy/Sources/M/Suites/a.json"))
        try copy.sync(replacing: ["Sources/M/M.swift": "let x = 2"])
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: root + "/copy/Sources/M/Suites")
        #expect(link == "../../corpus/suites")
        #expect(FileManager.default.contents(atPath: root + "/copy/Sources/M/Suites/a.json") == Data("a".utf8))
        #expect(FileManager.default.contents(atPath: root + "/copy/Sources/M/M.swift") == Data("let x = 2".utf8))
        #expect(try copy.sync(replacing: ["Sources/M/M.swift": "let x = 2"]) == 0)  // nothing changed
    }
}
