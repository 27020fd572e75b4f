import Foundation

/// A command's flags, declared once: each has a name, an environment variable, a default and a
/// line of help, from which parsing, `--help` and the precedence rule (flag, then environment,
/// then default) follow. An empty value is refused, on the command line or in the environment
/// (`NAVSIM_TOKEN=` from a command substitution that failed): taking it as "not given" would
/// start the server on the default, which for a token means without authentication.
struct Flags {
    struct Flag {
        var name: String
        var env: String?
        var defaultValue: String?
        var help: String
        /// A flag without a value (`--strict`): present means "true".
        var isSwitch = false
    }

    let command: String
    let declared: [Flag]
    private var values: [String: String] = [:]
    /// Arguments that are not flags (files, folders, ids), in order.
    private(set) var positional: [String] = []

    /// Parses `args` against `declared`; exits with status 2 and a message on an unknown or
    /// incomplete flag, and prints help and exits 0 on `--help`.
    init(
        command: String, usage: String, _ declared: [Flag], args: [String],
        env: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.command = command
        self.declared = declared
        var emptyInEnvironment: [Flag] = []
        for flag in declared {
            guard let name = flag.env, let value = env[name] else { continue }
            if value.isEmpty { emptyInEnvironment.append(flag) } else { values[flag.name] = value }
        }
        var givenOnCommandLine = Set<String>()
        var rest = args[...]
        while let arg = rest.popFirst() {
            if arg == "--help" || arg == "-h" {
                print(Self.help(usage: usage, declared))
                exit(0)
            }
            guard arg.hasPrefix("--") else { positional.append(arg); continue }
            let (name, inline) =
                arg.firstIndex(of: "=").map { (String(arg[..<$0]), String(arg[arg.index(after: $0)...])) }
                ?? (arg, nil)
            guard let flag = declared.first(where: { "--" + $0.name == name }) else {
                fail("\(command): unknown flag \(name); see navsim \(command) --help")
            }
            givenOnCommandLine.insert(flag.name)
            if flag.isSwitch { values[flag.name] = inline ?? "true"; continue }
            guard let value = inline ?? rest.popFirst() else { fail("\(command): \(name) needs a value") }
            // `--token --help` would otherwise take the next flag as the token; `--name=--x` still can.
            guard inline != nil || !value.hasPrefix("--") else {
                fail("\(command): \(name) needs a value, not the flag \(value) (write \(name)=VALUE for a value that starts with --)")
            }
            guard !value.isEmpty else { fail("\(command): \(name) is empty; give it a value or leave the flag out") }
            values[flag.name] = value
        }
        // A flag given on the command line wins over its variable, so an empty one it overrides is harmless.
        if let flag = emptyInEnvironment.first(where: { !givenOnCommandLine.contains($0.name) }), let env = flag.env {
            fail("\(command): \(env) is set but empty; give it a value or unset it (--\(flag.name))")
        }
    }

    /// The value of `--name`, its environment variable, or its default.
    subscript(_ name: String) -> String? {
        values[name] ?? declared.first { $0.name == name }?.defaultValue
    }

    /// Whether `--name` (or its environment variable) was given at all.
    func isSet(_ name: String) -> Bool { values[name] != nil }

    static func help(usage: String, _ declared: [Flag]) -> String {
        var lines = ["usage: \(usage)", ""]
        for f in declared {
            var line = "  --\(f.name)" + (f.isSwitch ? "" : " VALUE")
            line = line.padding(toLength: max(line.count, 26), withPad: " ", startingAt: 0) + " " + f.help
            var notes: [String] = []
            if let env = f.env { notes.append("env \(env)") }
            if let d = f.defaultValue { notes.append("default \(d)") }
            if !notes.isEmpty { line += " (" + notes.joined(separator: ", ") + ")" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
