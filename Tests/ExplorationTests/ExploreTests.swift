import Exploration
import Foundation
import JSONValues
import NavigationCore
import ProcessSpawning
import Storyboards
import Testing
import TestSupport

/// The checkout's files the tests read.
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ExplorationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
    static let migrations = root.appendingPathComponent("migrations").path
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/Storyboards")
    static let defects = root.appendingPathComponent("Tests/Fixtures/Explore/Defects.storyboard").path
}

struct RunError: Error, CustomStringConvertible {
    let description: String
}

/// `navsim ARGS` run to its end: its status, stdout and stderr.
func navsim(_ args: [String], in folder: String? = nil, seconds: Double = 300) throws -> (status: Int32, out: String, err: String) {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("navsim").path)
    }
    candidates.append(Checkout.root.appendingPathComponent(".build/debug/navsim").path)
    guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw RunError(description: "no navsim binary in \(candidates)")
    }
    var environment = ProcessInfo.processInfo.environment
    environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explore-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outPath = scratch.appendingPathComponent("out").path
    let errPath = scratch.appendingPathComponent("err").path
    let process = try ChildProcess(
        executable: binary, arguments: args, environment: environment, workingDirectory: folder,
        standardOutput: .appending(toFile: outPath), standardError: .appending(toFile: errPath))
    let ended = process.wait(timeout: seconds)
    guard case .exited(let status) = ended else {
        process.signal(SIGKILL)
        throw RunError(description: "navsim \(args) did not exit within \(seconds) s, or died of a signal: \(String(describing: ended))")
    }
    return (
        status, (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    )
}

func parse(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8), maxDepth: 256) }

/// The 1-based line of the element with `id="…"` in a file.
func line(of id: String, in path: String) throws -> Int {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    return try #require(lines.firstIndex { $0.contains("id=\"\(id)\"") }) + 1
}

func scratchFolder(_ name: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

/// A storyboard file with `attributes` on its `<document>` (`initialViewController`,
/// `launchScreen`) around `body` (its `<scenes>` and whatever follows them).
func storyboardDocument(_ attributes: String, _ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" \
    targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" \(attributes)>
    \(body)</document>
    """
}

@Suite("navsim explore")
struct ExploreCommandTests {
    /// The fixture written with five defects gets exactly those five findings, each at its
    /// element's line, and the exit status of an error-level finding.
    @Test func defectsFixtureGetsExactlyItsFindingsAtTheirLines() throws {
        let run = try navsim(["explore", "--format", "json", Checkout.defects])
        #expect(run.status == 1, "\(run.err)")
        let report = try parse(run.out)
        #expect(report["truncated"]?.bool == false)
        let findings = try #require(report["findings"]?.array)
        let found = Set(
            findings.map { f in
                "\(f["kind"]?.string ?? "?") \(f["segue"]?.string ?? f["scene"]?.string ?? "?") \(f["code"]?.string ?? "-") \(Int(f["line"]?.number ?? 0))"
            })
        let d = Checkout.defects
        let expected: Set<String> = [
            "uikit-exception home-show-settings-nav D12 \(try line(of: "home-show-settings-nav", in: d))",
            "dead-end home-present-cover - \(try line(of: "home-present-cover", in: d))",
            "undeclared sheet-unwind-home unwind-destination-not-found \(try line(of: "sheet-unwind-home", in: d))",
            "undeclared home-flip-card custom-segue-undeclared \(try line(of: "home-flip-card", in: d))",
            "unreachable-scene orphan - \(try line(of: "orphan", in: d))",
        ]
        #expect(found == expected)
        // Every finding but the scene's has a path whose last step is the action at fault.
        for f in findings where f["kind"]?.string != "unreachable-scene" {
            let last = try #require(f["path"]?.array?.last)
            if let segue = f["segue"]?.string {
                #expect(last["body"]?["segue"]?.string == segue)
            }
        }
        let segues = try #require(report["segues"])
        #expect(segues["total"]?.number == 7)
        let notPerformed = try #require(segues["notPerformed"]?.array).compactMap { $0["segue"]?.string }
        #expect(Set(notPerformed) == ["home-show-settings-nav", "sheet-unwind-home"])
        #expect(segues["performed"]?.number == 5)
    }

    /// Text, SARIF and GitHub reuse lint's formats: `file:line:column: severity: message [kind]`.
    @Test func textAndSarifNameTheKindAtTheLine() throws {
        let text = try navsim(["explore", Checkout.defects])
        #expect(text.status == 1)
        let d12 = try line(of: "home-show-settings-nav", in: Checkout.defects)
        #expect(text.out.contains("Defects.storyboard:\(d12):"))
        #expect(text.out.contains(": error: ") && text.out.contains("[uikit-exception]"))
        let sarif = try parse(try navsim(["explore", "--format", "sarif", Checkout.defects]).out)
        let run = try #require(sarif["runs"]?.array?.first)
        #expect(run["tool"]?["driver"]?["name"]?.string == "navsim explore")
        #expect(run["results"]?.array?.count == 5)
    }

    @Test func badFlagsAreUsageErrors() throws {
        #expect(try navsim(["explore", "--max-states", "0", Checkout.defects]).status == 2)
        #expect(try navsim(["explore", "--idiom", "watch", Checkout.defects]).status == 2)
        #expect(try navsim(["explore"]).status == 2)
        #expect(try navsim(["explore", "/nonexistent/None.storyboard"]).status == 2)
    }

    /// A launch screen in the folder, however it sorts, is neither the entry nor reported as
    /// unreachable; two storyboards of one name are a usage error, not a silent mix.
    @Test func launchScreensAreSkippedAndNamesMustBeUnique() throws {
        let dir = try scratchFolder("launch")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let launch = storyboardDocument(
            #"launchScreen="YES" initialViewController="01J-lp-oVM""#,
            """
                <scenes>
                    <scene sceneID="EHf-IW-A2E">
                        <objects>
                            <viewController id="01J-lp-oVM" sceneMemberID="viewController"/>
                        </objects>
                    </scene>
                </scenes>
            """)
        try launch.write(toFile: "\(dir)/ALaunch.storyboard", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Checkout.defects, toPath: "\(dir)/Defects.storyboard")
        let run = try navsim(["explore", "--format", "json", dir])
        let report = try parse(run.out)
        let launchStep = report["setup"]?.array?.last
        #expect(launchStep?["body"]?["root"]?["storyboard"]?.string == "Defects", "\(run.out)\(run.err)")
        #expect(report["findings"]?.array?.contains { $0["file"]?.string?.hasSuffix("ALaunch.storyboard") == true } == false)

        for app in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/\(app)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Checkout.defects, toPath: "\(dir)/\(app)/Main.storyboard")
        }
        let clash = try navsim(["explore", "\(dir)/a/Main.storyboard", "\(dir)/b/Main.storyboard"])
        #expect(clash.status == 2)
        #expect(clash.err.contains("are both storyboard 'Main'"), "\(clash.err)")
    }

    /// A scene only a code-instantiable container builds (a tab of a tab bar with a Storyboard
    /// ID) is reachable by code, not unreachable.
    @Test func scenesInsideACodeReachableContainerAreReachableByCode() throws {
        let dir = try scratchFolder("bycode")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = storyboardDocument(
            #"initialViewController="home""#,
            """
                <scenes>
                    <scene sceneID="s1"><objects><viewController id="home" sceneMemberID="viewController"/></objects></scene>
                    <scene sceneID="s2"><objects>
                        <tabBarController storyboardIdentifier="Tabs" id="tabs" sceneMemberID="viewController">
                            <connections><segue destination="tab1" kind="relationship" relationship="viewControllers" id="r1"/></connections>
                        </tabBarController>
                    </objects></scene>
                    <scene sceneID="s3"><objects><viewController id="tab1" sceneMemberID="viewController"/></objects></scene>
                    <scene sceneID="s4"><objects><viewController id="orphan" sceneMemberID="viewController"/></objects></scene>
                </scenes>
            """)
        try xml.write(toFile: "\(dir)/Code.storyboard", atomically: true, encoding: .utf8)
        let report = try parse(try navsim(["explore", "--format", "json", "\(dir)/Code.storyboard"]).out)
        let kinds = Dictionary(
            uniqueKeysWithValues: (report["findings"]?.array ?? []).compactMap { f in f["scene"]?.string.map { ($0, f["kind"]?.string ?? "") } })
        #expect(kinds == ["tabs": "reachable-by-code-only", "tab1": "reachable-by-code-only", "orphan": "unreachable-scene"])
    }

    /// On an iPad a showDetail segue replaces the detail with a new instance of its scene: the
    /// same canonical state, but the segue was performed, and its flow replays.
    @Test func aShowDetailBackToTheSameStateIsPerformed() throws {
        let dir = try scratchFolder("detail")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = storyboardDocument(
            #"initialViewController="split""#,
            """
                <scenes>
                    <scene sceneID="s1"><objects>
                        <splitViewController id="split" sceneMemberID="viewController">
                            <connections>
                                <segue destination="master" kind="relationship" relationship="masterViewController" id="r1"/>
                                <segue destination="detail" kind="relationship" relationship="detailViewController" id="r2"/>
                            </connections>
                        </splitViewController>
                    </objects></scene>
                    <scene sceneID="s2"><objects>
                        <viewController id="master" sceneMemberID="viewController">
                            <view key="view" id="mv">
                                <subviews>
                                    <button id="open"><connections><segue destination="detail" kind="showDetail" id="sd"/></connections></button>
                                </subviews>
                            </view>
                        </viewController>
                    </objects></scene>
                    <scene sceneID="s3"><objects><viewController id="detail" sceneMemberID="viewController"/></objects></scene>
                </scenes>
            """)
        try xml.write(toFile: "\(dir)/Detail.storyboard", atomically: true, encoding: .utf8)
        let flows = "\(dir)/flows"
        let run = try navsim(["explore", "--idiom", "pad", "--format", "json", "--flows", flows, "\(dir)/Detail.storyboard"])
        let report = try parse(run.out)
        #expect(report["segues"]?["performed"]?.number == 1, "\(run.out)\(run.err)")
        let played = try navsim(["test", flows])
        #expect(played.status == 0 && played.out.hasSuffix("1 passed, 0 failed\n"), "\(played.out)\(played.err)")
    }

    /// An unwind that finds no destination only because a race's first action (the swipe that
    /// dismisses its sheet) took its source away is a timing warning, not a missing declaration.
    @Test func anUnwindRacingItsOwnDismissalIsAWarningNotUndeclared() throws {
        let dir = try scratchFolder("unwindrace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = storyboardDocument(
            #"initialViewController="nav""#,
            """
                <scenes>
                    <scene sceneID="s1"><objects>
                        <navigationController id="nav" sceneMemberID="viewController">
                            <connections><segue destination="first" kind="relationship" relationship="rootViewController" id="r1"/></connections>
                        </navigationController>
                    </objects></scene>
                    <scene sceneID="s2"><objects>
                        <viewController id="first" customClass="First" sceneMemberID="viewController">
                            <view key="view" id="fv"><subviews>
                                <button id="open"><connections><segue destination="second" kind="presentation" id="present"/></connections></button>
                            </subviews></view>
                        </viewController>
                    </objects></scene>
                    <scene sceneID="s3"><objects>
                        <viewController id="second" sceneMemberID="viewController">
                            <view key="view" id="sv"><subviews>
                                <button id="done"><connections><segue destination="exit" kind="unwind" unwindAction="goBack:" id="back"/></connections></button>
                            </subviews></view>
                        </viewController>
                        <exit id="exit" userLabel="Exit" sceneMemberID="exit"/>
                    </objects></scene>
                </scenes>
                <classes>
                    <class className="First" superclassName="UIViewController">
                        <relationships><relationship kind="action" name="goBack:" candidateClass="UIStoryboardSegue"/></relationships>
                    </class>
                </classes>
            """)
        try xml.write(toFile: "\(dir)/Race.storyboard", atomically: true, encoding: .utf8)
        let single = try parse(try navsim(["explore", "--format", "json", "\(dir)/Race.storyboard"]).out)
        #expect(single["segues"]?["performed"]?.number == 2)
        #expect(single["findings"]?.array?.isEmpty == true, "\(single)")
        let raced = try parse(try navsim(["explore", "--races", "--format", "json", "\(dir)/Race.storyboard"]).out)
        let findings = raced["findings"]?.array ?? []
        #expect(findings.contains { $0["segue"]?.string == "back" && $0["kind"]?.string == "uikit-warning" }, "\(raced)")
        #expect(!findings.contains { $0["kind"]?.string == "undeclared" }, "\(raced)")
    }

    /// Every reported uikit-exception, replayed through `navsim test` (the service handler in
    /// process) from its setup and path, gets that exception: none is false.
    @Test func everyReportedExceptionReplaysToTheSameException() throws {
        // Every fixture storyboard (D19 and D20 from references to a missing Storyboard ID and
        // storyboard, D24 from a push segue with no navigation controller, D12), and the shared
        // corpus when it is there.
        var files = [Checkout.defects]
        var roots = [Checkout.fixtures]
        if let shared = SharedFolder.directory?.appendingPathComponent("storyboards"), FileManager.default.fileExists(atPath: shared.path) {
            roots.append(shared)
        }
        for root in roots {
            files += (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".storyboard") }.sorted().map { root.appendingPathComponent($0).path }
        }
        let dir = try scratchFolder("exceptions")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var written = 0
        for file in files {
            let run = try navsim(["explore", "--format", "json", "--max-states", "200", "--max-depth", "6", file])
            // No entry point, not an iOS storyboard, an entry that cannot be built: nothing explored.
            guard run.status != 2 else { continue }
            let report = try parse(run.out)
            let setup = try #require(report["setup"]?.array, "\(run.err)")
            for f in report["findings"]?.array ?? [] where f["kind"]?.string == "uikit-exception" {
                let path = try #require(f["path"]?.array)
                let last = try #require(path.last)
                #expect(last["expect"]?["status"]?.number == 409)
                #expect(last["expect"]?["json"]?["uikit.code"]?.string == f["code"]?.string)
                written += 1
                let flow = JSON.object([("name", .string("exception \(written)")), ("steps", .array(setup + path))])
                try Data(flow.bytes).write(to: URL(fileURLWithPath: "\(dir)/exception-\(written).json"))
            }
        }
        #expect(written >= 4)
        let played = try navsim(["test", dir], seconds: 900)
        #expect(played.status == 0, "\(played.out)\(played.err)")
        #expect(played.out.contains("\(written) passed, 0 failed"))
    }

    /// `--flows` writes flows that replay green and together perform every segue the search
    /// performed, for every fixture storyboard the search can start from.
    @Test func generatedFlowsReplayGreenAndPerformEverySegueThatWasPerformed() throws {
        var targets = [Checkout.defects]
        targets += (FileManager.default.enumerator(atPath: Checkout.fixtures.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".storyboard") }.sorted().map { Checkout.fixtures.appendingPathComponent($0).path }
        let root = try scratchFolder("flows")
        defer { try? FileManager.default.removeItem(atPath: root) }
        var withFlows = 0
        var performedEverywhere = Set<String>()
        for (index, target) in targets.enumerated() {
            let dir = "\(root)/\(index)"
            let run = try navsim(["explore", "--format", "json", "--max-states", "300", "--max-depth", "8", "--flows", dir, target])
            // No entry point, not an iOS storyboard, an entry that cannot be built: a usage error, no flows.
            guard run.status != 2 else { continue }
            let report = try parse(run.out)
            let performed = Set(try #require(report["segues"]?["performedSegues"]?.array, "\(run.err)").compactMap { $0["segue"]?.string })
            var triggered = Set<String>()
            let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            for name in names {
                let flow = try parse(try String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8))
                for step in flow["steps"]?.array ?? [] where step["do"]?.string?.hasSuffix("/triggerSegue") == true {
                    if let segue = step["body"]?["segue"]?.string, step["expect"]?["status"]?.number == 200 { triggered.insert(segue) }
                }
            }
            #expect(triggered == performed, "\(target)")
            performedEverywhere.formUnion(performed)
            guard !names.isEmpty else { continue }
            withFlows += 1
        }
        #expect(withFlows >= 20)
        // Replayed with `--coverage`, the flows cover every segue the search performed.
        let coverage = "\(root).coverage.json"
        defer { try? FileManager.default.removeItem(atPath: coverage) }
        let played = try navsim(["test", "--coverage", coverage, root], seconds: 900)
        #expect(played.status == 0, "\(played.out)\(played.err)")
        #expect(played.out.hasSuffix(" 0 failed\n"), "\(played.out)")
        let report = try parse(try String(contentsOfFile: coverage, encoding: .utf8))
        var covered = Set<String>()
        for storyboard in report["storyboards"]?.array ?? [] {
            for segue in storyboard["segues"]?["covered"]?.array ?? [] { if let id = segue["id"]?.string { covered.insert(id) } }
        }
        #expect(!performedEverywhere.isEmpty)
        #expect(performedEverywhere.subtracting(covered).isEmpty, "performed but not covered: \(performedEverywhere.subtracting(covered).sorted())")
    }
}

@Suite("Exploration")
struct ExplorationTests {
    /// Every storyboard of the fixtures (and of ../shared/storyboards when present) explores
    /// within small bounds without a crash; truncation is reported when the bounds cut.
    @Test func everyFixtureStoryboardExploresWithinBounds() throws {
        var folders = [Checkout.fixtures, Checkout.root.appendingPathComponent("Tests/Fixtures/Explore")]
        if let shared = SharedFolder.directory?.appendingPathComponent("storyboards"),
            FileManager.default.fileExists(atPath: shared.path)
        {
            folders.append(shared)
        }
        var byFolder: [String: [String]] = [:]
        for root in folders {
            let found = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".storyboard") }.sorted()
            for relative in found {
                let path = root.appendingPathComponent(relative).path
                byFolder[(path as NSString).deletingLastPathComponent, default: []].append(path)
            }
        }
        var explored = 0
        for (_, paths) in byFolder.sorted(by: { $0.key < $1.key }) {
            var storyboards: [Storyboard] = []
            for path in paths {
                let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                guard let data = FileManager.default.contents(atPath: path),
                    let s = try? StoryboardParser.parse(name: name, data: Array(data))
                else { continue }
                storyboards.append(s)
            }
            let library = StoryboardLibrary(storyboards)
            for storyboard in storyboards where storyboard.initialViewController != nil {
                let explorer = Explorer(
                    instantiation: SceneInstantiation(library: library), entry: storyboard.name, reported: [storyboard.name],
                    maxStates: 150, maxDepth: 6)
                guard let report = try? explorer.explore() else { continue }
                #expect(report.states <= 150)
                #expect(report.states >= 1)
                explored += 1
            }
        }
        #expect(explored >= 10)
    }

    /// A state reached twice is one state: pushing and popping comes back to the entry, and the
    /// repeated instance's `~2` id does not make a new state.
    @Test func canonicalFormsNormaliseRepeatedInstances() {
        #expect(Canonical.baseID("detail~2") == "detail")
        #expect(Canonical.baseID("detail#12") == "detail")
        #expect(Canonical.baseID("a~b") == "a~b")
        #expect(Canonical.baseID("v~") == "v~")
    }

    /// States expanded on several threads are merged in order: the report is the one a single
    /// thread makes, finding for finding and path for path.
    @Test func parallelSearchReportsWhatOneThreadReports() throws {
        let folder = Checkout.fixtures.appendingPathComponent("handwritten/app").path
        var storyboards: [Storyboard] = []
        for name in ["Main", "Settings", "Library", "Legacy"] {
            let data = try #require(FileManager.default.contents(atPath: "\(folder)/\(name).storyboard"))
            storyboards.append(try StoryboardParser.parse(name: name, data: Array(data)))
        }
        let instantiation = SceneInstantiation(library: StoryboardLibrary(storyboards))
        func run(_ workers: Int) throws -> ExploreReport {
            try Explorer(instantiation: instantiation, entry: "Main", reported: ["Main"], maxStates: 600, maxDepth: 8, workers: workers)
                .explore()
        }
        let one = try run(1)
        let four = try run(4)
        #expect(one.states == four.states && one.transitions == four.transitions && one.truncated == four.truncated)
        #expect(one.findings == four.findings)
        #expect(one.performed.map(\.segue) == four.performed.map(\.segue))
        #expect(one.flows == four.flows)
        #expect(one.states > 100)
    }

    /// Bounds stop the search and say so.
    @Test func boundsTruncate() throws {
        let data = try #require(FileManager.default.contents(atPath: Checkout.defects))
        let library = StoryboardLibrary([try StoryboardParser.parse(name: "Defects", data: Array(data))])
        let small = Explorer(instantiation: SceneInstantiation(library: library), entry: "Defects", reported: ["Defects"], maxStates: 2)
        let report = try small.explore()
        #expect(report.states == 2)
        #expect(report.truncated)
        // A truncated search never calls a scene unreachable.
        #expect(!report.findings.contains { $0.kind == .unreachableScene })
        let shallow = Explorer(instantiation: SceneInstantiation(library: library), entry: "Defects", reported: ["Defects"], maxDepth: 0)
        #expect(try shallow.explore().truncated)
    }
}

@Suite("navsim explore declarations")
struct ExploreDeclarationTests {
    /// Declared unwind actions and custom segue classes: nothing is undeclared any more, the
    /// unwind now performs, and the flows, which upload the declarations, replay green.
    @Test func declarationsFilesApplyAndTheFlowsUploadThem() throws {
        let dir = try scratchFolder("declarations")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(#"{"Defects": {"HomeViewController": {"unwindActions": ["unwindToHome:"]}}}"#.utf8)
            .write(to: URL(fileURLWithPath: "\(dir)/classes.json"))
        try Data(#"{"Defects": {"FlipSegue": {"performs": "present"}}}"#.utf8).write(to: URL(fileURLWithPath: "\(dir)/segues.json"))
        let run = try navsim([
            "explore", "--format", "json", "--classes", "\(dir)/classes.json", "--custom-segues", "\(dir)/segues.json",
            "--flows", "\(dir)/flows", Checkout.defects,
        ])
        let report = try parse(run.out)
        let kinds = (report["findings"]?.array ?? []).compactMap { $0["kind"]?.string }
        #expect(kinds.sorted() == ["dead-end", "uikit-exception", "unreachable-scene"], "\(run.err)")
        let performed = (report["segues"]?["performedSegues"]?.array ?? []).compactMap { $0["segue"]?.string }
        #expect(performed.contains("sheet-unwind-home"))
        let played = try navsim(["test", "\(dir)/flows"])
        #expect(played.status == 0, "\(played.out)")
        // A declarations file naming no storyboard given, or with a bad field, is a usage error.
        try Data(#"{"Nope": {}}"#.utf8).write(to: URL(fileURLWithPath: "\(dir)/bad.json"))
        #expect(try navsim(["explore", "--classes", "\(dir)/bad.json", Checkout.defects]).status == 2)
        try Data(#"{"Defects": {"HomeViewController": {"unwindAction": []}}}"#.utf8).write(to: URL(fileURLWithPath: "\(dir)/typo.json"))
        let typo = try navsim(["explore", "--classes", "\(dir)/typo.json", Checkout.defects])
        #expect(typo.status == 2)
        #expect(typo.err.contains("unwindAction"))
    }
}

@Suite("navsim explore --races")
struct ExploreRaceTests {
    /// A double tap on a presenting segue: the second presentation, in the same turn, is D6
    /// (already presenting), which one tap never gets; each race's path, played through
    /// `navsim test` as a turn, gets the same answer.
    @Test func doubleTapsFindWhatOnlyTimingCausesAndReplayAsTurns() throws {
        let run = try navsim(["explore", "--races", "--format", "json", Checkout.defects])
        let report = try parse(run.out)
        let setup = try #require(report["setup"]?.array, "\(run.err)")
        let races = (report["findings"]?.array ?? []).filter { $0["path"]?.array?.last?["do"]?.string?.hasSuffix("/turns") == true }
        #expect(races.contains { $0["code"]?.string == "D6" && $0["segue"]?.string == "home-present-sheet" })
        // The single taps' findings stay as they were, each once.
        #expect((report["findings"]?.array ?? []).count { $0["code"]?.string == "D12" } == 1)
        let dir = try scratchFolder("races")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (index, race) in races.enumerated() {
            let flow = JSON.object([("name", .string("race \(index)")), ("steps", .array(setup + (race["path"]?.array ?? [])))])
            try Data(flow.bytes).write(to: URL(fileURLWithPath: "\(dir)/race-\(index).json"))
        }
        #expect(races.count >= 3)
        let played = try navsim(["test", dir])
        #expect(played.status == 0, "\(played.out)\(played.err)")
        // Without --races there is none.
        let single = try parse(try navsim(["explore", "--format", "json", Checkout.defects]).out)
        #expect(!(single["findings"]?.array ?? []).contains { $0["path"]?.array?.last?["do"]?.string?.hasSuffix("/turns") == true })
    }
}

@Suite("navsim explore flows against a server")
struct ExploreServerTests {
    /// The flows `--flows` writes replay green over HTTP against a running `navsim serve` too.
    @Test func generatedFlowsReplayAgainstAServer() throws {
        let dir = try scratchFolder("server")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flows = "\(dir)/flows"
        let run = try navsim(["explore", "--format", "json", "--flows", flows, Checkout.defects])
        #expect(run.status == 1, "\(run.err)")
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("navsim").path)
        }
        candidates.append(Checkout.root.appendingPathComponent(".build/debug/navsim").path)
        let binary = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
        var environment = ProcessInfo.processInfo.environment
        environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
        let log = "\(dir)/server.log"
        // Port 0, read back from the `listening` line: a port picked beforehand could be taken.
        let server = try ChildProcess(
            executable: binary, arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--db", "\(dir)/navsim.sqlite"],
            environment: environment, standardOutput: .appending(toFile: log), standardError: .appending(toFile: log))
        defer { if server.signal(SIGKILL) { server.wait(timeout: 5) } }
        var url: String?
        for _ in 0..<500 where url == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let object = try? parse(String(line)), object["message"]?.string == "listening" else { continue }
                url = object["url"]?.string
            }
            if url == nil { usleep(20_000) }
        }
        let base = try #require(url, "navsim serve logged no listening line: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let played = try navsim(["test", "--base", base, flows])
        #expect(played.status == 0, "\(played.out)\(played.err)")
        #expect(played.out.contains("4 passed, 0 failed"), "\(played.out)")
    }
}
