import Foundation
import Testing

@testable import Conformance

@Suite struct ReportSupportTests {
    @Test func atomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportFile.writeAtomically("one", to: dir + "/r.txt")
        try ReportFile.writeAtomically("two", to: dir + "/r.txt")
        #expect(try String(contentsOfFile: dir + "/r.txt", encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["r.txt"])
        #expect(throws: ReportWriteError.self) { try ReportFile.writeAtomically("x", to: "/nonexistent/dir/r.txt") }
    }

    @Test func escapingReplacesWhatXMLCannotHold() {
        #expect(Escape.xml("a\u{1}b<&>\"'", attribute: true) == "a\\u{1}b&lt;&amp;&gt;&quot;&apos;")
        #expect(Escape.xml("x\ny", attribute: true) == "x&#10;y")
        #expect(Escape.html("<i>\u{1B}[31m") == "&lt;i&gt;\\u{1B}[31m")
        #expect(Escape.controls("ok\u{7F}\u{85}\u{FFFF}") == "ok\\u{7F}\\u{85}\\u{FFFF}")
    }
}
