import Conformance
import _CommandSupport

/// `stc adapter`: the reference served over the adapter protocol, for the runner or any other tool.
enum AdapterCommand {
    static let help = HelpPage(
        "stc adapter", usage: [""],
        description: """
            Serves the reference implementation over the adapter protocol (SPEC.md §5): reads one JSON request
            per line on stdin, {"id", "op", "input"}, and writes one JSON response per line on stdout:
            {"id", "output"}, {"id", "error"} or {"id", "unsupported": true}. A line that is not a JSON object
            gets {"id": null, "error": "protocol"}. It never stops on bad input; it exits 0 at end of input.
            """,
        sections: [.init("Operations", text: OperationTable.all.map(\.name).joined(separator: ", "))],
        exitCodes: [.init("0", "end of input"), .init("2", "usage error")],
        examples: """
            echo '{"id":"1","op":"url.encode","input":{"text":"Café"}}' | stc adapter
            """)

    static let command = Command(
        "adapter", summary: "serve the reference over the adapter protocol on stdin/stdout", syntax: CommandSyntax(),
        help: help, run: main)

    static func main(_: ScannedArguments) -> Int32 {
        AdapterServer.serveStandardStreams()
        return 0
    }
}
