import Foundation
import PackagePlugin

/// `swift package stc COMMAND …`: builds `stc` from this package (also when it is a dependency) and runs it with
/// the arguments as given, in the directory of the package the command runs in, so that relative paths mean what
/// they would in that package's root. Its exit status becomes the plugin's: 0 passes, anything else fails.
///
/// `stc` is built when the command runs (through the package manager), not declared as the plugin's tool: a tool
/// dependency makes every `swift build` of this package build `stc` and all it links a second time, for the host.
@main struct StcPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(
            .product("stc"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded else {
            Diagnostics.error("building stc failed:\n\(build.logText)")
            exit(2)
        }
        guard
            let stc = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "stc" })
        else {
            Diagnostics.error("the build made no stc executable")
            exit(2)
        }
        let process = Process()
        process.executableURL = stc.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            Diagnostics.error("stc was killed by signal \(process.terminationStatus)")
            exit(128 + process.terminationStatus)
        }
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
