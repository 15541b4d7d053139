import _CommandSupport
import _FuzzCorpus

/// `stc fuzz list`: every fuzz target, with what it checks.
enum FuzzListCommand {
    static let help = HelpPage(
        "stc fuzz list", usage: ["[--long]"],
        description: "Prints every fuzz target, one a line: its name, a tab, and what it checks.",
        options: [
            .init(
                "--long",
                """
                name, tab, max_len (the target's libFuzzer -max_len), tab, summary: what a script needs to run a
                target as stc fuzz run does (.clusterfuzzlite/build.sh writes each target's .options from it)
                """)
        ],
        exitCodes: [.init("0", "printed"), .init("2", "usage error")])

    static let syntax = CommandSyntax(options: [.flag("--long")], positionals: .atMost(0, "list takes no arguments"))

    static let command = Command(
        "list", summary: "the fuzz targets: name, tab, summary (--long: and max_len)", syntax: syntax, help: help,
        run: main)

    static func main(_ a: ScannedArguments) -> Int32 {
        for target in FuzzTargets.all {
            Console.out(
                a.flag("--long")
                    ? "\(target.name)\t\(target.maxLength)\t\(target.summary)" : "\(target.name)\t\(target.summary)")
        }
        return 0
    }
}
