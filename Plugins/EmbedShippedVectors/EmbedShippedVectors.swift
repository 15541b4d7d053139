import Foundation
import PackagePlugin

/// Builds the shipped conformance suites into the ShippedVectors module: at every build it lists
/// `corpus/conformance/*.json` of this package (so a new suite file needs no list edited anywhere) and runs
/// ShippedVectorsGenerator over them, which writes one Swift file. The files are the command's inputs, so
/// changing one rebuilds the module, and adding or removing one changes the command.
@main struct EmbedShippedVectors: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "corpus/conformance")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted()
        guard !names.isEmpty else {
            throw PluginError("\(directory.path(percentEncoded: false)) holds no *.json suite to build in")
        }
        let inputs = names.map { directory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSuites.swift")
        return [
            .buildCommand(
                displayName: "Embedding the shipped conformance suites (\(names.count) files of corpus/conformance)",
                executable: try context.tool(named: "ShippedVectorsGenerator").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
