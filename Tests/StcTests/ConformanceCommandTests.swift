import Foundation
import Testing

/// `stc conformance` as the built binary, where the current directory matters.
@Suite struct ConformanceCommandTests {
    /// Run from a directory without `corpus/conformance`: a usage error that names the default path, not a crash
    /// or an empty "0 cases" run. (Run as a child process in that directory: changing the test process's own
    /// directory would move every test running beside it.)
    @Test func defaultVectorsPathMissingIsAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stc-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try StcBinary.run(["conformance"], currentDirectory: dir)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("no vectors at corpus/conformance"), "\(run.stderr)")
    }
}
