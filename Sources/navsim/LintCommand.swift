import Foundation
import Storyboards
import StoryboardTools

/// `navsim lint`: reports storyboard problems the way compilers do (docs/lint.md). Exits 0 when
/// clean, 1 on an error (or a warning with `--strict`), 2 on a usage error.
enum LintCommand {
    static let usage = "navsim lint [--format text|json|sarif|github] [--strict] [--disable RULE]… PATH…"

    static let flags: [Flags.Flag] = [
        .init(name: "format", env: nil, defaultValue: "text", help: "text, json, sarif or github"),
        .init(name: "strict", env: nil, defaultValue: nil, help: "exit 1 on warnings too", isSwitch: true),
        .init(
            name: "disable", env: nil, defaultValue: nil,
            help: "do not report RULE (repeatable; comma-separated lists too)"),
        .init(name: "rules", env: nil, defaultValue: nil, help: "list the rules and exit", isSwitch: true),
    ]

    static func run(_ args: [String]) -> Never {
        // --disable repeats; Flags keeps one value per flag, so collect them first.
        var disabled: [String] = []
        var rest: [String] = []
        var iterator = args.makeIterator()
        while let arg = iterator.next() {
            if arg == "--disable" {
                guard let value = iterator.next() else { fail("lint: --disable needs a value") }
                disabled += value.split(separator: ",").map(String.init)
            } else if arg.hasPrefix("--disable=") {
                disabled += arg.dropFirst("--disable=".count).split(separator: ",").map(String.init)
            } else {
                rest.append(arg)
            }
        }
        let flags = Flags(command: "lint", usage: usage, flags, args: rest)
        if flags.isSet("rules") {
            for rule in LintRule.all {
                print("\(rule.id.padding(toLength: 32, withPad: " ", startingAt: 0)) \(rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary)")
            }
            exit(0)
        }
        guard let format = LintFormat(rawValue: flags["format"]!) else {
            fail("lint: --format is text, json, sarif or github, not '\(flags["format"]!)'")
        }
        guard !flags.positional.isEmpty else { fail("lint: name at least one .storyboard file or folder; see navsim lint --help") }
        do {
            let linter = try Linter(disabled: Set(disabled))
            let report = try linter.lint(paths: flags.positional)
            FileHandle.standardOutput.write(Data(format.render(report).utf8))
            exit(report.exitStatus(strict: flags.isSet("strict")))
        } catch {
            fail("lint: \(error)")
        }
    }
}
