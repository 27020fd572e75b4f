import Exploration
import Flows
import Foundation
import JSONValues
import NavSimService
import NavigationCore
import Storyboards
import StoryboardTools

/// `navsim explore` (docs/explore.md): explores every state a user can reach from the entry
/// storyboard's initial scene and reports what UIKit would raise or log, dead ends and scenes
/// nothing reaches, in lint's formats; `--flows DIR` writes flows that perform every segue the
/// search performed. Exits 0, 1 when an error-level finding exists, 2 on a usage error.
enum ExploreCommand {
    static let usage =
        "navsim explore [--idiom phone|pad] [--iOS 12|17|18|26] [--max-states N] [--max-depth D] [--classes FILE] [--custom-segues FILE] [--races] [--format text|json|sarif|github] [--flows DIR] STORYBOARD…"

    static let flags: [Flags.Flag] = [
        .init(name: "idiom", env: nil, defaultValue: "phone", help: "phone or pad: the window's traits"),
        .init(name: "iOS", env: nil, defaultValue: IOSRelease.default.rawValue, help: "the iOS profile: 12, 17, 18 or 26 (docs/ios-profiles.md)"),
        .init(name: "max-states", env: nil, defaultValue: "10000", help: "stop after this many distinct states"),
        .init(name: "max-depth", env: nil, defaultValue: "30", help: "explore at most this many steps from the entry"),
        .init(
            name: "classes", env: nil, defaultValue: nil,
            help: "JSON file: per storyboard name, a PUT …/classes body (unwind actions, shouldPerformSegue, …)"),
        .init(
            name: "custom-segues", env: nil, defaultValue: nil,
            help: "JSON file: per storyboard name, a PUT …/customSegues body (what each custom segue class performs)"),
        .init(
            name: "races", env: nil, defaultValue: nil,
            help: "also try every pair of actions of a screen in one turn (a double tap)", isSwitch: true),
        .init(name: "format", env: nil, defaultValue: "text", help: "text, json, sarif or github"),
        .init(name: "flows", env: nil, defaultValue: nil, help: "write navsim test flows covering every performed segue into DIR"),
        .init(
            name: "stats", env: nil, defaultValue: nil,
            help: "print states per second and the mean cost of one apply on stderr (scripts/bench/explore.py)", isSwitch: true),
    ]

    /// The finding kinds as rules, for SARIF's `tool.driver.rules`.
    static let rules: [LintRule] = ExploreFinding.Kind.allCases.map { kind in
        let summary: String
        switch kind {
        case .uikitException: summary = "An action a user can take makes UIKit raise an exception."
        case .uikitWarning: summary = "An action a user can take makes UIKit refuse it or log a warning."
        case .deadEnd: summary = "A reachable screen from which nothing leads back toward the entry."
        case .unreachableScene: summary = "A scene no path from the entry reaches and no code can instantiate."
        case .reachableByCodeOnly: summary = "A scene no path reaches; its Storyboard ID lets code instantiate it."
        case .undeclared: summary = "A custom segue class or an unwind whose behaviour needs a declaration."
        }
        return LintRule(id: kind.rawValue, severity: kind == .uikitException ? .error : .warning, summary: summary)
    }

    struct File {
        var path: String
        var name: String
        var data: [UInt8]
        var positions: [String: SourcePosition]
        /// Interface Builder's "Use as Launch Screen" (``Storyboard/isLaunchScreen``).
        var isLaunchScreen = false
    }

    static func run(_ args: [String]) -> Never {
        let flags = Flags(command: "explore", usage: usage, flags, args: args)
        guard let format = LintFormat(rawValue: flags["format"]!) else {
            fail("explore: --format is text, json, sarif or github, not '\(flags["format"]!)'")
        }
        guard let idiom = Traits.Idiom(rawValue: flags["idiom"]!) else { fail("explore: --idiom is phone or pad, not '\(flags["idiom"]!)'") }
        guard let release = IOSRelease(rawValue: flags["iOS"]!) else { fail("explore: --iOS is 12, 17, 18 or 26, not '\(flags["iOS"]!)'") }
        guard let maxStates = Int(flags["max-states"]!), maxStates >= 1, maxStates <= 10_000_000 else {
            fail("explore: --max-states is a whole number from 1 to 10000000, not '\(flags["max-states"]!)'")
        }
        guard let maxDepth = Int(flags["max-depth"]!), maxDepth >= 0, maxDepth <= 10_000 else {
            fail("explore: --max-depth is a whole number from 0 to 10000, not '\(flags["max-depth"]!)'")
        }
        guard !flags.positional.isEmpty else { fail("explore: name at least one .storyboard file or folder; see navsim explore --help") }

        let paths: [String]
        do { paths = try Linter.storyboardFiles(in: flags.positional) } catch { fail("explore: \(error)") }
        var files: [File] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { fail("explore: cannot read \(path)") }
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                let (storyboard, positions) = try StoryboardParser.parseWithPositions(name: name, data: Array(data))
                files.append(
                    File(path: path, name: name, data: Array(data), positions: positions, isLaunchScreen: storyboard.isLaunchScreen))
            } catch {
                fail("explore: \(path): \(error)")
            }
        }
        // An app bundle holds one storyboard per name: two files of one name cannot both be it.
        for (name, same) in Dictionary(grouping: files, by: \.name) where same.count > 1 {
            fail("explore: \(same.map(\.path).joined(separator: " and ")) are both storyboard '\(name)'; an app's storyboard names are unique, so explore one app at a time")
        }
        // A launch screen is shown by the system before the app runs, never navigated to: it is
        // neither the entry nor a scene to report as unreachable (a reference may still name it).
        var context: [File] = []
        let launchScreens = files.filter(\.isLaunchScreen)
        if launchScreens.count < files.count {
            context = launchScreens
            files.removeAll(where: \.isLaunchScreen)
        }
        var storyboards: [Storyboard] = []
        for file in files + context {
            if let s = try? StoryboardParser.parse(name: file.name, data: file.data) { storyboards.append(s) }
        }
        // The storyboards beside the files given resolve references, as the app bundle would.
        let given = Set(files.map(\.name) + context.map(\.name))
        for folder in Set(paths.map { ($0 as NSString).deletingLastPathComponent }).sorted() {
            let directory = folder.isEmpty ? "." : folder
            for entry in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            where entry.hasSuffix(".storyboard") {
                let name = (entry as NSString).deletingPathExtension
                guard !given.contains(name), !context.contains(where: { $0.name == name }) else { continue }
                let path = folder.isEmpty ? entry : (folder as NSString).appendingPathComponent(entry)
                guard let data = FileManager.default.contents(atPath: path),
                    let s = try? StoryboardParser.parse(name: name, data: Array(data))
                else { continue }
                storyboards.append(s)
                context.append(File(path: path, name: name, data: Array(data), positions: [:]))
            }
        }
        let library = StoryboardLibrary(storyboards)
        let classes = declarationFile(flags["classes"], flag: "classes", library: library)
        let customSegues = declarationFile(flags["custom-segues"], flag: "custom-segues", library: library)
        var classDeclarations: [String: [String: ControllerPatch]] = [:]
        for (name, body) in classes {
            do { classDeclarations[name] = try DeclarationBodies.classes(body) } catch {
                fail("explore: --classes: \(name): \(error.detail)")
            }
        }
        var segueDeclarations: [String: CustomSegueDeclarations] = [:]
        for (name, body) in customSegues {
            do { segueDeclarations[name] = try DeclarationBodies.customSegues(body) } catch {
                fail("explore: --custom-segues: \(name): \(error.detail)")
            }
        }
        guard let entry = files.first(where: { library[$0.name]?.initialViewController != nil }) else {
            fail("explore: none of the storyboards given has an initial view controller to start from")
        }
        var traits = Traits.defaults(for: idiom)
        traits.size = nil
        let explorer = Explorer(
            instantiation: SceneInstantiation(library: library, declarations: segueDeclarations, classes: classDeclarations),
            entry: entry.name, reported: files.map(\.name),
            traits: traits, options: Options(iOS: release), maxStates: maxStates, maxDepth: maxDepth,
            workers: ProcessInfo.processInfo.activeProcessorCount, races: flags.isSet("races"))
        let started = ContinuousClock.now
        var report: ExploreReport
        do { report = try explorer.explore() } catch { fail("explore: \(error)") }
        let elapsed = ContinuousClock.now - started
        if flags.isSet("stats") { printStats(report, elapsed: elapsed, explorer: explorer) }

        func locate(_ storyboard: String, _ element: String?) -> (file: String, line: Int, column: Int) {
            guard let file = files.first(where: { $0.name == storyboard }) else { return (storyboard, 1, 1) }
            let p = Linter.position(of: element, in: file.data, positions: file.positions)
            return (file.path, p.line, p.column)
        }
        // Findings by file (in the order given), line and column, as lint orders them.
        let order = Dictionary(files.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        report.findings = report.findings.enumerated().sorted { a, b in
            let (x, y) = (locate(a.element.storyboard, a.element.element), locate(b.element.storyboard, b.element.element))
            return (order[a.element.storyboard] ?? 0, x.line, x.column, a.offset) < (order[b.element.storyboard] ?? 0, y.line, y.column, b.offset)
        }.map(\.element)
        let setup = SetupSteps(
            storyboards: files + context, entry: entry.name, idiom: idiom, release: release, classes: classes,
            customSegues: customSegues)

        if let dir = flags["flows"] {
            do { try writeFlows(report, setup: setup, into: dir) } catch { fail("explore: --flows \(dir): \(error)") }
        }

        let output: String
        switch format {
        case .json:
            // The steps a path follows: upload the storyboards (absolute paths) and launch.
            let place = { (storyboard: String, element: String?) -> (file: String?, line: Int, column: Int) in
                let at = locate(storyboard, element)
                return (at.file, at.line, at.column)
            }
            output = PrettyJSON.text(ExploreJSON.report(report, locate: place, setup: setup.steps(relativeTo: nil))) + "\n"
        default:
            let findings = report.findings.map { f -> LintFinding in
                let at = locate(f.storyboard, f.element)
                return LintFinding(
                    file: at.file, line: at.line, column: at.column, severity: f.isError ? .error : .warning,
                    rule: f.kind.rawValue, message: f.message, element: f.element)
            }
            var text = format.render(LintReport(files: paths, findings: findings), tool: "navsim explore", rules: rules)
            if format == .text {
                text +=
                    "\(report.states) states, \(report.transitions) transitions\(report.truncated ? " (stopped early: --max-states or --max-depth)" : ""); "
                    + "\(report.seguesPerformed) of \(report.seguesTotal) segues performed\n"
            }
            output = text
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        exit(report.findings.contains(where: \.isError) ? 1 : 0)
    }

    /// A declarations file: a JSON object from storyboard names (of the files given or beside
    /// them) to the body `PUT /v1/storyboards/{name}/classes` or `…/customSegues` takes.
    static func declarationFile(_ path: String?, flag: String, library: StoryboardLibrary) -> [(String, JSON)] {
        guard let path else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { fail("explore: --\(flag): cannot read \(path)") }
        let json: JSON
        do { json = try JSON.parse(Array(data)) } catch { fail("explore: --\(flag): \(path): \(error)") }
        guard case let .object(members) = json else {
            fail("explore: --\(flag): \(path) is a JSON object from storyboard names to declaration bodies")
        }
        for (name, _) in members where library[name] == nil {
            fail("explore: --\(flag): \(path) names '\(name)', which is none of the storyboards given or beside them")
        }
        return members
    }

    // MARK: - Flows

    /// The steps before a path: upload the storyboards, then launch a session on the entry.
    struct SetupSteps {
        var storyboards: [File]
        var entry: String
        var idiom: Traits.Idiom
        var release: IOSRelease
        /// The declaration bodies given, by storyboard name, uploaded after the storyboards.
        var classes: [(String, JSON)]
        var customSegues: [(String, JSON)]

        /// The setup steps; storyboard paths relative to `folder`, or absolute without one.
        func steps(relativeTo folder: String?) -> [JSON] {
            var out: [JSON] = storyboards.map { file in
                .object([
                    ("name", .string("upload \(file.name)")), ("do", .string("PUT /v1/storyboards/\(file.name)")),
                    ("xmlFile", .string(folder.map { relativePath(file.path, from: $0) } ?? absolutePath(file.path))),
                    ("expect", .object([("status", .object([("$oneOf", .array([.number(200), .number(201)]))]))])),
                ])
            }
            for (route, bodies) in [("customSegues", customSegues), ("classes", classes)] {
                for (name, body) in bodies {
                    out.append(
                        .object([
                            ("name", .string("declare \(name)'s \(route)")), ("do", .string("PUT /v1/storyboards/\(name)/\(route)")),
                            ("body", body), ("expect", .object([("status", .number(200))])),
                        ]))
                }
            }
            out.append(
                .object([
                    ("name", .string("launch on \(entry)'s initial scene")), ("do", .string("POST /v1/sessions")),
                    (
                        "body",
                        .object([
                            ("id", .string("explore-${run}")),
                            ("traits", .object([("userInterfaceIdiom", .string(idiom.rawValue))])),
                            ("options", .object([("iOS", .string(release.rawValue)), ("release", .string("automatic"))])),
                            ("root", .object([("storyboard", .string(entry))])),
                        ])
                    ),
                    ("expect", .object([("status", .number(201))])),
                    ("save", .object([("sid", .string("id"))])),
                ]))
            return out
        }
    }

    static func writeFlows(_ report: ExploreReport, setup: SetupSteps, into dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let folder = (dir as NSString).standardizingPath
        let width = String(report.flows.count).count
        for (index, flow) in report.flows.enumerated() {
            let segues = flow.compactMap { $0.action.segue?.id }
            let number = String(index + 1)
            let padded = String(repeating: "0", count: width - number.count) + number
            let object = JSON.object([
                ("name", .string("explore \(setup.entry) \(padded): \(segues.joined(separator: ", "))")),
                (
                    "about",
                    .string(
                        "Written by navsim explore --flows: performs segues \(segues.joined(separator: ", ")) from the entry, checking the hierarchy and the events after every step."
                    )
                ),
                ("steps", .array(setup.steps(relativeTo: folder) + flow.map { ExploreJSON.flowStep($0) })),
            ])
            let path = (folder as NSString).appendingPathComponent("explore-\(setup.entry)-\(padded).json")
            try Data((PrettyJSON.text(object) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    static func absolutePath(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }

    /// `path` relative to `folder` (both made absolute first), so a flow finds its storyboard
    /// wherever the checkout is.
    static func relativePath(_ path: String, from folder: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ p: String) -> [String] {
            let full = p.hasPrefix("/") ? p : (cwd as NSString).appendingPathComponent(p)
            return (full as NSString).standardizingPath.split(separator: "/").map(String.init)
        }
        let target = absolute(path)
        let base = absolute(folder)
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    // MARK: - Statistics

    /// The process's peak resident set (getrusage(2) `ru_maxrss`, in KiB on Linux): memory should
    /// grow with the states, not with their sessions.
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }

    /// States per second of the search and, in the same run, the mean cost of one apply of the
    /// entry's first action (the benchmark reads both).
    static func printStats(_ report: ExploreReport, elapsed: Duration, explorer: Explorer) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var applyMicros = 0.0
        if let initial = try? explorer.initialState(), let action = explorer.actions(in: initial).first {
            let rounds = 2_000
            let start = ContinuousClock.now
            for _ in 0..<rounds { _ = explorer.perform(action, on: initial) }
            let spent = ContinuousClock.now - start
            applyMicros = (Double(spent.components.seconds) * 1e6 + Double(spent.components.attoseconds) / 1e12) / Double(rounds)
        }
        let line =
            "states=\(report.states) transitions=\(report.transitions) applies=\(report.applies) truncated=\(report.truncated) "
            + "seconds=\(String(format: "%.3f", seconds)) states_per_second=\(String(format: "%.0f", Double(report.states) / max(seconds, 1e-9))) "
            + "apply_microseconds=\(String(format: "%.2f", applyMicros)) peak_rss_kib=\(peakResidentKiB())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
