import Foundation
import Testing

/// `lab mutate`'s command line: what it refuses, and `--list`, which reads the reference and builds nothing.
/// The runs themselves (minutes: a build of a copy of the package) are `lab mutate --quick` in CI, not here.
@Suite struct MutateCommandTests {
    func run(_ arguments: [String], in directory: URL? = nil) throws -> LabBinary.Run {
        try LabBinary.run(["mutate"] + arguments, currentDirectory: directory)
    }

    @Test(arguments: [
        (["--jobs", "0"], "--jobs needs a whole number from 1 to 64, not '0'"),
        (["--jobs", "two"], "--jobs needs a whole number from 1 to 64, not 'two'"),
        (["--threshold", "-1"], "--threshold needs a percentage from 0 to 100, not '-1'"),
        (["--sample", "many"], "--sample needs a positive number of mutants, not 'many'"),
        (["--quick", "--sample", "9"], "--quick is a fixed sample of its own"),
        (["--output", "x.json"], "--output writes the JSON report: give --json too"),
        (["--list", "--quick"], "--list prints the mutants and runs nothing"),
        (["--filter", ""], "--filter needs a module or a path prefix"),
        (["--json", "--json"], "--json is given twice"),
        (["--no-such-option"], "unknown option '--no-such-option'"),
        (["extra"], "unexpected argument 'extra'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try run(arguments)
        #expect(run.status == 2, "\(arguments): exit \(run.status)")
        #expect(run.stderr.contains("lab mutate: \(message)"), "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("Run 'lab mutate --help' for usage."))
        #expect(run.stdout.isEmpty)
    }

    @Test func aDirectoryWithoutAPackageIsAUsageError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lab-mutate-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let run = try self.run(["--list", "--package", empty.path], in: empty)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no Package.swift in"))
    }

    /// Without --package, the package is the lab's parent: found from the current directory or the executable,
    /// so that `lab mutate` means the same from the repository, from Lab/ or from anywhere else.
    @Test func thePackageIsTheLabsParentByDefault() throws {
        let fromLab = try self.run(["--list"], in: LabBinary.packageRoot.appendingPathComponent("Lab"))
        #expect(fromLab.status == 0, "\(fromLab.stderr)")
        #expect(fromLab.stdout.contains("Sources/StrictJSON/"), "\(fromLab.stdout.prefix(300))")
    }

    @Test func listPrintsEveryMutantWithItsStableID() throws {
        let run = try self.run(["--list", "--filter", "Sources/StrictJSON/JSONWriter.swift"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        let summary = try #require(lines.last)
        #expect(summary.hasSuffix("mutants: " + summary.split(separator: ": ").last!))
        let mutants = lines.dropLast()
        #expect(!mutants.isEmpty)
        for line in mutants {
            #expect(line.hasPrefix("Sources/StrictJSON/JSONWriter.swift:"), "\(line)")
            #expect(line.contains("  Sources/StrictJSON/JSONWriter.swift:"), "no id in \(line)")
        }
        #expect(summary.hasPrefix("\(mutants.count) mutants: "))
    }

    @Test func listAsJSONHasTheMutantsFields() throws {
        let run = try self.run(["--list", "--json", "--filter", "ScreenTimeEncoding"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let mutants = try #require(object["mutants"] as? [[String: Any]])
        #expect(!mutants.isEmpty)
        for mutant in mutants {
            #expect(
                Set(mutant.keys) == ["id", "file", "module", "line", "column", "operator", "original", "replacement"])
            #expect(mutant["module"] as? String == "ScreenTimeEncoding")
        }
        let ids = mutants.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "ids are unique")
    }

    @Test func aStaleEquivalentListIsAnError() throws {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("stc-equivalent-\(UUID()).txt")
        try Data("Sources/StrictJSON/JSONWriter.swift:constant:00000000  was a constant once\n".utf8).write(to: list)
        defer { try? FileManager.default.removeItem(at: list) }
        let run = try self.run(["--list", "--equivalents", list.path])
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("\(list.path):1: Sources/StrictJSON/JSONWriter.swift:constant:00000000 names no mutant")
        )
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("stc-equivalent-\(UUID()).txt")
        try Data("Sources/StrictJSON/JSONWriter.swift:constant:00000000\n".utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let noArgument = try self.run(["--list", "--equivalents", bad.path])
        #expect(noArgument.status == 2)
        #expect(noArgument.stderr.contains("has no argument for its equivalence"))
    }
}
