import _FuzzCorpus

/// `stc fuzz list`: every fuzz target, with what it checks.
enum FuzzListCommand {
    static let help = """
        Usage: stc fuzz list

        Prints every fuzz target, one a line: its name, a tab, and what it checks.
        """

    static let syntax = CommandSyntax(positionals: .atMost(0, "list takes no arguments"))

    static let command = Command(
        "list", summary: "the fuzz targets: name, tab, summary", syntax: syntax, help: help, run: main)

    static func main(_: ScannedArguments) -> Int32 {
        for target in FuzzTargets.all { Console.out("\(target.name)\t\(target.summary)") }
        return 0
    }
}
