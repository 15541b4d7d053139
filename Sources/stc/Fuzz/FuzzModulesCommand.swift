import _CommandSupport
/// `stc fuzz modules`: what a fuzz build gives each module of the root package, as its manifest says.
enum FuzzModulesCommand {
    static let help = HelpPage(
        "stc fuzz modules", usage: ["[--package DIR]"],
        description: """
            Prints each library module of the root package and what a fuzz build gives it, as the manifest says
            (`SCREENTIME_FUZZ_COVERAGE=1 swift package dump-package`): its name, a tab, `coverage` or `-` (libFuzzer's
            coverage instrumentation), a tab, `fake-frames` or `-` (ASan's stack-use-after-return check). The module
            table in Package.swift decides both; scripts/ci-fuzz.sh checks the built objects against this list.
            """,
        options: FuzzCommand.commonHelp.filter { $0.term.hasPrefix("--package") },
        exitCodes: [.init("0", "printed"), .init("2", "usage error or an unreadable manifest")])

    static let syntax = CommandSyntax(
        options: [.value("--package", "DIR")], positionals: .atMost(0, "modules takes no arguments"))

    static let command = Command(
        "modules", summary: "the root package's modules and what a fuzz build gives each", syntax: syntax, help: help,
        run: main)

    static func main(_ a: ScannedArguments) throws -> Int32 {
        guard let swift = FuzzProcess.which("swift") else { throw CommandFailure("`swift` is not on the PATH") }
        let package = try FuzzWorkspace.resolve(corpus: nil, package: a.value("--package")).requirePackage()
        let manifest = try FuzzManifest.read(root: package, swift: swift)
        for module in manifest.modules {
            let coverage = module.hasCoverage ? "coverage" : "-"
            Console.out("\(module.name)\t\(coverage)\t\(module.keepsFakeStackFrames ? "fake-frames" : "-")")
        }
        return 0
    }
}
