import PackagePlugin

/// Builds the package's openapi.yaml into the target as `embeddedOpenAPI`, a Swift string
/// literal, at every build where the file changed: the binary serves the spec it was built
/// with from any install layout, and openapi.yaml at the package's root stays the one source.
@main
struct EmbedOpenAPI: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedOpenAPI.swift")
        return [
            .buildCommand(
                displayName: "Embedding openapi.yaml",
                executable: try context.tool(named: "embed-text").url,
                arguments: [input.path, output.path, "embeddedOpenAPI"],
                inputFiles: [input], outputFiles: [output])
        ]
    }
}
