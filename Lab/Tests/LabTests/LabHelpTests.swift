import Foundation
import Testing

/// `lab --help` and each command's `--help`, run as the built binary, against golden files in
/// Lab/Tests/LabTests/Goldens/ (`lab.txt`, `lab-bench.txt`, …), in the help style every `stc` page follows.
///
/// When a help text changes on purpose, regenerate the goldens and review their diff:
///
///     LAB_UPDATE_GOLDENS=1 swift test --package-path Lab --filter LabHelpTests
@Suite struct LabHelpTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var updating: Bool { ProcessInfo.processInfo.environment["LAB_UPDATE_GOLDENS"] == "1" }
    static let paths: [[String]] = [[], ["bench"], ["mutate"], ["adapter"]]

    static func fileName(_ path: [String]) -> String { (["lab"] + path).joined(separator: "-") + ".txt" }

    @Test(arguments: paths)
    func helpMatchesItsGolden(path: [String]) throws {
        let run = try LabBinary.run(path + ["--help"])
        #expect(run.status == 0 && run.stderr.isEmpty, "lab \(path) --help: exit \(run.status), \(run.stderr)")
        let golden = Self.directory.appendingPathComponent(Self.fileName(path))
        if Self.updating {
            try Data(run.stdout.utf8).write(to: golden, options: .atomic)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(run.stdout == expected, "lab \(path) --help differs from Goldens/\(Self.fileName(path))")
    }

    /// The one help style of stc's pages (HelpPage in _CommandSupport, checked in full by stc's HelpStyleTests):
    /// the summary line, `Usage:`, then `Options:` before `Exit codes:`, sentence-case headings only.
    @Test(arguments: paths)
    func helpFollowsTheOneStyle(path: [String]) throws {
        let text = try LabBinary.run(path + ["--help"]).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix((["lab"] + path).joined(separator: " ") + ": ") == true, "\(lines.first ?? "")")
        #expect(lines.count > 2 && lines[2].hasPrefix("Usage: "), "\(path): no Usage: line after the summary")
        let options = try #require(lines.firstIndex(of: "Options:"), "\(path): no Options:")
        let exitCodes = try #require(lines.firstIndex(of: "Exit codes:"), "\(path): no Exit codes:")
        #expect(options < exitCodes)
        #expect(!text.contains("USAGE:") && !text.contains("OPTIONS:"))
    }

    @Test func everyGoldenBelongsToACommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".txt")
        }
        #expect(Set(files) == Set(Self.paths.map(Self.fileName)))
    }

    @Test func anUnknownCommandIsAUsageError() throws {
        let run = try LabBinary.run(["nosuch"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown command 'nosuch'"), "\(run.stderr)")
    }
}
