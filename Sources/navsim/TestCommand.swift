import Flows
import Foundation

/// `navsim test`: plays flow files (docs/flows.md) and prints one line per flow, then
/// `N passed, N failed`. Exits 1 when any flow failed, 2 on a usage error.
enum TestCommand {
    static let usage = "navsim test [--base URL] [--junit FILE] [--token TOKEN] FLOW.json|FOLDER…"

    static let flags: [Flags.Flag] = [
        .init(
            name: "base", env: nil, defaultValue: nil,
            help: "play against the navsim server at URL (default: a fresh in-process service per flow)"),
        .init(name: "junit", env: nil, defaultValue: nil, help: "also write JUnit XML to FILE"),
        .init(name: "token", env: "NAVSIM_TOKEN", defaultValue: nil, help: "send Authorization: Bearer TOKEN"),
        .init(name: "timeout", env: nil, defaultValue: "30", help: "seconds to wait for each reply (with --base)"),
        .init(
            name: "migrations", env: "NAVSIM_MIGRATIONS", defaultValue: nil,
            help: "migrations for the in-process service (default: found as navsim serve finds them)"),
    ]

    static func run(_ args: [String]) -> Never {
        let flags = Flags(command: "test", usage: usage, flags, args: args)
        guard !flags.positional.isEmpty else { fail("test: name at least one flow file or folder; see navsim test --help") }
        for path in flags.positional where !FileManager.default.fileExists(atPath: path) {
            fail("test: \(path) does not exist")
        }
        let makeTarget: @Sendable () throws -> any FlowTarget
        if let base = flags["base"] {
            guard base.hasPrefix("http://") else { fail("test: --base is an http:// URL (plain HTTP only), got \(base)") }
            guard let timeout = Double(flags["timeout"]!), timeout > 0 else { fail("test: --timeout is a number of seconds") }
            let target = HTTPTarget(base: base, timeout: timeout)
            makeTarget = { target }
        } else {
            let migrations = Resources.locate("migrations", given: flags["migrations"], flag: "--migrations / NAVSIM_MIGRATIONS")!
            makeTarget = { try InProcessTarget(migrationsDirectory: migrations) }
        }
        let suite = FlowSuite(runner: FlowRunner(token: flags["token"]), makeTarget: makeTarget)
        let results = suite.run(flags.positional) { print($0.line) }
        guard !results.isEmpty else { fail("test: no .json flow files in \(flags.positional.joined(separator: " "))") }
        if let junit = flags["junit"] {
            do { try JUnit.xml(results).write(toFile: junit, atomically: true, encoding: .utf8) } catch {
                fail("test: cannot write \(junit): \(error.localizedDescription)")
            }
        }
        print(FlowSuite.summary(results))
        exit(results.allSatisfy(\.passed) ? 0 : 1)
    }
}
