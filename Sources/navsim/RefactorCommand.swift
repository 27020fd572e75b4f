import Foundation
import Storyboards
import StoryboardTools

/// `navsim refactor`: Xcode's Refactor to Storyboard (docs/refactor.md). Writes the source
/// storyboard (rewritten) and `NAME.storyboard` into `--out` (default: the source's folder), then
/// prints both files' diagnostics. Exits 1 when the refactor is refused, 2 on a usage error.
enum RefactorCommand {
    static let usage = "navsim refactor --scenes ID,… --into NAME [--out DIR] FILE.storyboard"

    static let flags: [Flags.Flag] = [
        .init(name: "scenes", env: nil, defaultValue: nil, help: "comma-separated element ids of the scenes to move"),
        .init(name: "into", env: nil, defaultValue: nil, help: "name of the new storyboard (without .storyboard)"),
        .init(name: "out", env: nil, defaultValue: nil, help: "folder to write both storyboards to (default: FILE's folder)"),
    ]

    static func run(_ args: [String]) -> Never {
        let flags = Flags(command: "refactor", usage: usage, flags, args: args)
        guard flags.positional.count == 1, let file = flags.positional.first else {
            fail("refactor: name exactly one .storyboard file; see navsim refactor --help")
        }
        guard let scenes = flags["scenes"]?.split(separator: ",").map(String.init), !scenes.isEmpty else {
            fail("refactor: --scenes is required")
        }
        guard let into = flags["into"] else { fail("refactor: --into is required") }
        guard let data = FileManager.default.contents(atPath: file) else { fail("refactor: cannot read \(file)") }
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let out = flags["out"] ?? (file as NSString).deletingLastPathComponent
        let result: RefactorResult
        do {
            result = try StoryboardRefactor.refactor(xml: Array(data), name: name, scenes: scenes, into: into)
        } catch {
            FileHandle.standardError.write(Data("navsim: refactor refused: \(error)\n".utf8))
            exit(1)
        }
        do {
            try FileManager.default.createDirectory(atPath: out.isEmpty ? "." : out, withIntermediateDirectories: true)
        } catch {
            fail("refactor: cannot create \(out): \(error.localizedDescription)")
        }
        let base = out.isEmpty ? "" : out + "/"
        let written = [(base + name + ".storyboard", result.original), (base + into + ".storyboard", result.extracted)]
        for (path, bytes) in written {
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fail("refactor: cannot write \(path)") }
        }
        print(
            "moved \(result.movedScenes.count) scene(s) into \(into); \(result.incomingReferences.count) reference(s) in \(name), "
                + "\(result.outgoingReferences.count) in \(into)")
        do {
            let report = try Linter().lint(paths: written.map(\.0))
            let mine = Set(LintRule.all.filter { StoryboardDiagnostic.Code(rawValue: $0.id) != nil }.map(\.id))
            for finding in report.findings where mine.contains(finding.rule) {
                print("\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) [\(finding.rule)]")
            }
        } catch {
            fail("refactor: \(error)")
        }
        exit(0)
    }
}
