import Foundation
import _CommandSupport
import _FuzzCorpus

/// `stc fuzz build`: builds the libFuzzer binaries as `stc fuzz run` does and checks their instrumentation.
enum FuzzBuildCommand {
    static let help = HelpPage(
        "stc fuzz build", usage: ["[TARGET…] [--coverage] [--out DIR]"],
        description: """
            Builds the libFuzzer binaries of the given targets (default: every target) as `stc fuzz run` does, printing
            the command, and checks that each binary is instrumented: it must report
            `INFO: Loaded 1 modules (N inline 8-bit counters)` with N > 0. Prints each target's counters.
            """,
        options: [
            .init(
                "--coverage",
                """
                build the coverage binaries instead (what stc fuzz coverage runs): LLVM's profile instrumentation
                for llvm-cov (-profile-generate -profile-coverage-mapping), libFuzzer linked by SwiftPM
                (--sanitize=fuzzer), no sanitizer, in Fuzz/.build/coverage
                """),
            .init(
                "--out DIR",
                """
                copy the checked binaries into DIR (made if missing), linked with the Swift runtime and Foundation
                inside (--static-swift-stdlib), so that they run where no Swift toolchain is installed, as in
                OSS-Fuzz's runner image. The fuzzing build is then made in Fuzz/.build/static, beside the one
                stc fuzz run uses (SwiftPM recompiles everything when static linking is switched on or off).
                """),
        ] + FuzzCommand.commonHelp,
        exitCodes: [
            .init("0", "built and instrumented"),
            .init("2", "usage or build error, or a binary without instrumentation"),
        ])

    static let syntax = CommandSyntax(
        options: FuzzCommand.common + [.flag("--coverage"), .value("--out", "DIR")], positionals: .any)

    static let command = Command(
        "build", summary: "build the libFuzzer binaries (all by default) and check they are instrumented",
        syntax: syntax, help: help, run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        let targets = try (a.positionals.isEmpty ? FuzzTargets.all.map(\.name) : a.positionals).map {
            try FuzzCommand.target($0)
        }
        let ws = FuzzCommand.workspace(a)
        let out = a.value("--out").map { FuzzWorkspace.absolute($0, in: FileManager.default.currentDirectoryPath) }
        let variant: FuzzBuild.Variant = a.flag("--coverage") ? .coverage : out == nil ? .fuzzing : .fuzzingStatic
        if let out {
            // Before building, so that a wrong DIR costs no build.
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("cannot make the --out directory \(out): \(error.localizedDescription)")
            }
        }
        try FuzzBuild.ensure(
            ws, targets: targets.map(\.name), skip: false, allTargets: a.positionals.isEmpty, variant: variant)
        for target in targets {
            let binary = try ws.binary(target.name, variant: variant)
            let counters = try FuzzBuild.checkInstrumented(binary, variant: variant)
            Console.out("\(target.name)\t\(counters) inline 8-bit counters")
            if let out {
                let copy = (out as NSString).appendingPathComponent(target.name)
                try? FileManager.default.removeItem(atPath: copy)
                do {
                    try FileManager.default.copyItem(atPath: binary, toPath: copy)
                } catch {
                    throw CommandFailure("cannot copy \(binary) to \(copy): \(error.localizedDescription)")
                }
            }
        }
        if let out { Console.error("copied \(targets.count) binaries to \(Shell.displayPath(out))") }
        return 0
    }
}
