import Foundation
import _CommandSupport
import _FuzzCorpus

/// `stc fuzz`: the libFuzzer workflow (SPEC §6) — list the targets, fuzz one, replay the corpus, turn a crash
/// into a regression file, merge what fuzzing found into the seeds, see what the corpus reaches.
enum FuzzCommand {
    static let subcommands = [
        FuzzListCommand.command, FuzzBuildCommand.command, FuzzModulesCommand.command, FuzzRunCommand.command,
        FuzzReplayCommand.command, FuzzAddCommand.command, FuzzMergeCommand.command, FuzzCoverageCommand.command,
        FuzzCampaignCommand.command,
    ]

    static let help = HelpPage(
        "stc fuzz", usage: ["<subcommand> [options]", "help <subcommand>"],
        description: "The libFuzzer workflow (SPEC §6). stc fuzz <subcommand> --help gives each subcommand's options.",
        commands: subcommands.map { HelpPage.Item($0.name, $0.summary) },
        sections: [.init("Options of build, run, replay, add, merge and coverage", items: commonHelp)],
        exitCodes: [
            .init("0", "success"), .init("1", "a failing input or a crash"), .init("2", "usage, build or I/O error"),
        ])

    /// The help of ``common``, for the pages of the subcommands that take them.
    static let commonHelp: [HelpPage.Item] = [
        .init("--corpus DIR", "the corpus root (default: $STC_CORPUS, else corpus/ of the repository)"),
        .init(
            "--package DIR", "the repository holding Fuzz/Package.swift (default: found from the current directory)"),
    ]

    static let summary = "libFuzzer workflow: list, run, replay, add a regression, merge, coverage, campaign"

    static let command = Command(
        "fuzz", summary: summary, syntax: CommandSyntax(), help: help, subcommands: subcommands
    ) { _ in
        // Dispatch has run any subcommand and refused an unknown one: nothing was asked for.
        Console.error(help.render(summary: summary))
        return 2
    }

    /// The options of every subcommand that works on a corpus or builds.
    static let common: [Option] = [.value("--corpus", "DIR"), .value("--package", "DIR")]

    /// The workspace that `--corpus` and `--package` name (see ``FuzzWorkspace/resolve(corpus:package:)``).
    static func workspace(_ a: ScannedArguments) -> FuzzWorkspace {
        FuzzWorkspace.resolve(corpus: a.value("--corpus"), package: a.value("--package"))
    }

    static func target(_ name: String) throws -> FuzzTarget {
        guard let target = FuzzTargets.named(name) else {
            throw UsageError(
                "unknown target '\(name)'. Targets:\n" + FuzzTargets.all.map { "  \($0.name)" }.joined(separator: "\n"))
        }
        return target
    }

    /// Says what was found and the one command that keeps it, or that it is a known regression already.
    static func reportArtifact(_ artifact: String, target: String, workspace ws: FuzzWorkspace) {
        let bytes = [UInt8](FileManager.default.contents(atPath: artifact) ?? Data())
        let name = FuzzCorpus.contentName(bytes)
        let known = FileManager.default.fileExists(
            atPath: (ws.corpus.regressionDirectory(target) as NSString).appendingPathComponent(name))
        let shown = Shell.quote(Shell.displayPath(artifact))
        Console.out("\(target): crashing input \(Shell.displayPath(artifact)) (\(bytes.count) bytes)")
        if known {
            let directory = Shell.displayPath(ws.corpus.regressionDirectory(target))
            Console.out("  it is already a regression (\(directory)/\(name)): fix the bug it shows.")
        } else {
            Console.out("  add it as a regression:\n    stc fuzz add \(target) \(shown) --minimize")
        }
        Console.out(
            "  the full ASan report, with allocation stacks:\n"
                + "    stc fuzz replay \(target) \(shown) --binary --no-build")
    }
}

extension ScannedArguments {
    /// The option's value as a whole number ≥ `min`, or `value` when the option is absent.
    func int(_ name: String, default value: Int, min: Int = 0) throws(UsageError) -> Int {
        guard let text = self.value(name) else { return value }
        guard let n = Int(text), n >= min else {
            throw UsageError("\(name) needs a whole number ≥ \(min), not '\(text)'")
        }
        return n
    }
}
