import Foundation
import JSONValues
import NavSimService
import Synchronization

/// `navsim [COMMAND] [FLAGS]`: `serve` (the default) runs the HTTP service; every other command is
/// one entry of `Entrypoint.commands`. Only wiring lives in this target.
@main
struct Entrypoint {
    /// A subcommand: its name, one line of help, and what runs it (it exits the process).
    struct Command: Sendable {
        var name: String
        var summary: String
        var run: @Sendable ([String]) -> Never
    }

    /// Every command `navsim` knows, in the order `--help` lists them.
    static let commands: [Command] = [
        Command(name: "serve", summary: "serve the HTTP API (the default command)", run: Serve.run),
        Command(name: "test", summary: "play flow files against navsim and report (docs/flows.md)", run: TestCommand.run),
        Command(name: "record", summary: "print a flow that replays a session's history", run: RecordCommand.run),
        Command(name: "lint", summary: "report storyboard problems as file:line: warning lines, JSON, SARIF or GitHub annotations", run: LintCommand.run),
        Command(name: "explore", summary: "search every screen a user can reach for UIKit exceptions, dead ends and unreachable scenes", run: ExploreCommand.run),
        Command(name: "refactor", summary: "move scenes into a new storyboard, as Refactor to Storyboard does", run: RefactorCommand.run),
    ]

    static func main() {
        var args = Array(CommandLine.arguments.dropFirst())
        switch args.first {
        case "--version", "-V", "version":
            print("navsim \(NavSimVersion.current)")
            exit(0)
        case "--help", "-h", "help":
            print(usage)
            exit(0)
        case let name? where !name.hasPrefix("-"):
            guard let command = commands.first(where: { $0.name == name }) else {
                fail("unknown command '\(name)'; see navsim --help")
            }
            args.removeFirst()
            command.run(args)
        default:
            Serve.run(args)  // `navsim --port 9000` serves, as before there were commands
        }
    }

    static var usage: String {
        var text = "usage: navsim [COMMAND] [FLAGS]\n\ncommands:\n"
        for c in commands { text += "  \(c.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(c.summary)\n" }
        text += "\nnavsim COMMAND --help lists a command's flags; navsim --version prints the version."
        return text
    }
}

/// Prints `navsim: MESSAGE` on stderr and exits with status 2 (a usage or start-up error).
/// Once `serve` has begun (``FailureOutput/logLines``) the message is a JSON log line instead,
/// `{"time", "level": "error", "message"}`, as every other line a server writes.
func fail(_ message: String) -> Never {
    if FailureOutput.logLines.load(ordering: .relaxed) {
        Log.write([("time", .string(RFC3339.now())), ("level", .string("error")), ("message", .string(message))])
    } else {
        FileHandle.standardError.write(Data("navsim: \(message)\n".utf8))
    }
    exit(2)
}

/// How ``fail(_:)`` writes: plain text for the tools (`lint`, `test`, …), whose readers are
/// people, and JSON lines for `serve`, whose stderr goes to a log collector.
enum FailureOutput {
    static let logLines = Atomic<Bool>(false)
}
