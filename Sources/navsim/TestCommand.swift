import Flows
import Foundation
import NavSimService

/// `navsim test`: plays flow files (docs/flows.md) and prints one line per flow, then
/// `N passed, N failed`. Exits 1 when any flow failed, 2 on a usage error.
enum TestCommand {
    static let usage =
        "navsim test [--base URL] [--junit FILE] [--token TOKEN] [--coverage FILE] [--coverage-cobertura FILE] [--coverage-sarif FILE] FLOW.json|FOLDER…"

    static let flags: [Flags.Flag] = [
        .init(
            name: "base", env: nil, defaultValue: nil,
            help: "play against the navsim server at URL (default: a fresh in-process service per flow)"),
        .init(name: "junit", env: nil, defaultValue: nil, help: "also write JUnit XML to FILE"),
        .init(
            name: "coverage", env: nil, defaultValue: nil,
            help: "write the segues, unwinds, presentation styles and container operations the flows exercised to FILE (JSON; Cobertura XML when FILE ends in .xml)"),
        .init(name: "coverage-cobertura", env: nil, defaultValue: nil, help: "write the segue coverage as Cobertura XML to FILE"),
        .init(name: "coverage-sarif", env: nil, defaultValue: nil, help: "write the segues no flow performed as SARIF to FILE"),
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
        var outputs: [(file: String, render: (CoverageReport) -> String)] = []
        if let file = flags["coverage"] {
            outputs.append((file, file.lowercased().hasSuffix(".xml") ? { $0.cobertura(version: NavSimVersion.current) } : { PrettyJSON.text($0.json) + "\n" }))
        }
        if let file = flags["coverage-cobertura"] { outputs.append((file, { $0.cobertura(version: NavSimVersion.current) })) }
        if let file = flags["coverage-sarif"] { outputs.append((file, \.sarif)) }
        // Found out before the flows play rather than after: a report has a folder to go to.
        for (file, _) in outputs {
            let folder = (file as NSString).deletingLastPathComponent
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder) || !isFolder.boolValue {
                fail("test: cannot write \(file): no folder \(folder)")
            }
            if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
                fail("test: cannot write \(file): it is a folder")
            }
        }
        let recorder = outputs.isEmpty ? nil : CoverageRecorder()
        let suite = FlowSuite(runner: FlowRunner(token: flags["token"], observer: recorder), makeTarget: makeTarget)
        let results = suite.run(flags.positional) { print($0.line) }
        guard !results.isEmpty else { fail("test: no .json flow files in \(flags.positional.joined(separator: " "))") }
        if let junit = flags["junit"] {
            do { try JUnit.xml(results).write(toFile: junit, atomically: true, encoding: .utf8) } catch {
                fail("test: cannot write \(junit): \(error.localizedDescription)")
            }
        }
        if let recorder {
            let report = recorder.report()
            for (file, render) in outputs {
                do { try render(report).write(toFile: file, atomically: true, encoding: .utf8) } catch {
                    fail("test: cannot write \(file): \(error.localizedDescription)")
                }
            }
            print(report.summary)
        }
        print(FlowSuite.summary(results))
        exit(results.allSatisfy(\.passed) ? 0 : 1)
    }
}
