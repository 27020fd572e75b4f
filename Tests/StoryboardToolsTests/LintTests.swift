import Foundation
import Storyboards
import Testing
import TestSupport

@testable import StoryboardTools

/// A scene holding one controller; `body` goes inside the controller element.
func scene(_ id: String, element: String = "viewController", attributes: String = "", body: String = "") -> String {
    """
            <scene sceneID="\(id)-scene">
                <objects>
                    <\(element) id="\(id)" \(attributes) sceneMemberID="viewController">
    \(body)
                    </\(element)>
                </objects>
            </scene>
    """
}

/// `<connections>` with the given segues.
func connections(_ segues: String...) -> String {
    "<connections>\n" + segues.joined(separator: "\n") + "\n</connections>"
}

func lint(_ files: [String: String], disable: Set<String> = [], configuration: LintConfiguration = LintConfiguration()) throws -> [LintFinding] {
    try Linter(disabled: disable).lint(
        folder: files.keys.sorted().map { (file: "\($0).storyboard", data: Array(files[$0]!.utf8)) },
        configuration: configuration)
}

func rules(_ findings: [LintFinding]) -> [String] { findings.map(\.rule) }

@Suite struct LintRuleTests {
    @Test func ruleIdsAreUniqueAndCoverEveryUploadCode() {
        #expect(Set(LintRule.all.map(\.id)).count == LintRule.all.count)
        for code in StoryboardDiagnostic.Code.allCases { #expect(LintRule.named(code.rawValue) != nil) }
    }

    @Test func duplicateSegueIdentifierFromOneScene() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene(
                    "a", attributes: "storyboardIdentifier=\"A\"",
                    body: connections(
                        #"<segue destination="b" kind="presentation" identifier="go" id="s1"/>"#,
                        #"<segue destination="b" kind="presentation" identifier="go" id="s2"/>"#,
                        #"<segue destination="b" kind="presentation" identifier="other" id="s3"/>"#)),
                scene("b"),
            ])
        let found = try lint(["Main": xml]).filter { $0.rule == "duplicate-segue-identifier" }
        #expect(found.map(\.element) == ["s2"])
        #expect(found.first?.severity == .warning)
    }

    @Test func showOutsideNavigationOnlyWhenNoNavigationControllerCanHoldTheSource() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene(
                    "a",
                    body: connections(
                        #"<segue destination="b" kind="show" id="lonely"/>"#,
                        #"<segue destination="nav" kind="presentation" id="p"/>"#)),
                scene("b"),
                scene(
                    "nav", element: "navigationController",
                    body: connections(#"<segue destination="root" kind="relationship" relationship="rootViewController" id="r"/>"#)),
                scene("root", body: connections(#"<segue destination="c" kind="show" id="pushed"/>"#)),
                scene("c", body: connections(#"<segue destination="b" kind="show" id="pushed-again"/>"#)),
            ])
        let found = try lint(["Main": xml]).filter { $0.rule == "show-outside-navigation" }
        #expect(found.map(\.element) == ["lonely"])
    }

    @Test func showOutsideNavigationLeavesMissingDestinationsToUnknownDestination() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene(
                    "a",
                    body: connections(
                        #"<segue destination="gone" kind="show" id="dangling"/>"#,
                        #"<segue destination="b" kind="show" id="lonely"/>"#)),
                scene("b"),
            ])
        let found = try lint(["Main": xml])
        #expect(found.filter { $0.rule == "show-outside-navigation" }.map(\.element) == ["lonely"])
        #expect(found.filter { $0.rule == "unknown-destination" }.map(\.element) == ["dangling"])
    }

    @Test func showToANavigationControllerFromANavigationStackIsD12() throws {
        // R76: inside a navigation stack a show pushes, and pushing a navigation controller raises.
        let xml = StoryboardXML.document(
            initial: "nav",
            scenes: [
                scene(
                    "nav", element: "navigationController",
                    body: connections(#"<segue destination="root" kind="relationship" relationship="rootViewController" id="r"/>"#)),
                scene(
                    "root",
                    body: connections(
                        #"<segue destination="other-nav" kind="show" id="crash"/>"#,
                        #"<segue destination="c" kind="show" id="pushed"/>"#,
                        #"<segue destination="other-nav" kind="presentation" id="fine"/>"#,
                        #"<segue destination="other-nav" kind="show" customClass="SheetSegue" id="classed"/>"#)),
                scene("c", body: connections(#"<segue destination="split" kind="show" id="crash-too"/>"#)),
                scene(
                    "other-nav", element: "navigationController",
                    body: connections(#"<segue destination="d" kind="relationship" relationship="rootViewController" id="r2"/>"#)),
                scene("d"),
                scene("split", element: "splitViewController"),
                scene(
                    "lone", attributes: "storyboardIdentifier=\"Lone\"",
                    body: connections(#"<segue destination="other-nav" kind="show" id="unknown-context"/>"#)),
            ])
        let found = try lint(["Main": xml]).filter { $0.rule == "show-pushes-navigation-controller" }
        #expect(found.map(\.element) == ["crash", "crash-too"])
        #expect(found.allSatisfy { $0.severity == .error })
        #expect(found.first?.message.contains("'other-nav'") == true)
        #expect(found.first?.message.contains("D12") == true)
    }

    @Test func showFromASceneWithAStoryboardIDIsNotReported() throws {
        // Code may push an identified scene onto a navigation stack: no evidence either way.
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", attributes: "storyboardIdentifier=\"A\"", body: connections(#"<segue destination="b" kind="show" id="s"/>"#)),
                scene("b"),
            ])
        #expect(try lint(["Main": xml]).filter { $0.rule == "show-outside-navigation" }.isEmpty)
    }

    @Test func unreachedCustomClass() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", body: connections(#"<segue destination="b" kind="presentation" id="s"/>"#)),
                scene("b", attributes: #"customClass="Reached""#),
                scene("lost", attributes: #"customClass="LostViewController""#),
                scene("named", attributes: #"customClass="Named" storyboardIdentifier="Named""#),
                scene("plain"),
            ])
        let found = try lint(["Main": xml]).filter { $0.rule == "unreached-custom-class" }
        #expect(found.map(\.element) == ["lost"])
    }

    @Test func undeclaredUnwindActionWithoutAnyCustomClass() throws {
        let unwind = scene("a", body: connections(#"<segue destination="exit-a" kind="unwind" unwindAction="back:" id="u"/>"#))
            .replacingOccurrences(of: "</objects>", with: #"<exit id="exit-a" userLabel="Exit" sceneMemberID="exit"/></objects>"#)
        let bare = StoryboardXML.document(initial: "a", scenes: [unwind, scene("b")])
        #expect(rules(try lint(["Main": bare])).contains("undeclared-unwind-action"))
        // A scene with a custom class elsewhere in the folder could declare it.
        let declared = StoryboardXML.document(initial: "b", scenes: [scene("b", attributes: #"customClass="Home""#)])
        #expect(!rules(try lint(["Main": bare, "Other": declared])).contains("undeclared-unwind-action"))
    }

    @Test func undeclaredUnwindActionAgainstAClassesOutline() throws {
        let unwind = scene(
            "a", attributes: #"customClass="A""#,
            body: connections(#"<segue destination="exit-a" kind="unwind" unwindAction="back:" id="u"/>"#)
        )
        .replacingOccurrences(of: "</objects>", with: #"<exit id="exit-a" userLabel="Exit" sceneMemberID="exit"/></objects>"#)
        func file(_ action: String) -> String {
            StoryboardXML.document(initial: "a", scenes: [unwind, scene("b", attributes: #"customClass="B""#)])
                .replacingOccurrences(
                    of: "</scenes>",
                    with: """
                        </scenes>
                        <classes><class className="B" superclassName="UIViewController">
                        <relationships><relationship kind="action" name="\(action)" candidateClass="UIStoryboardSegue"/></relationships>
                        </class></classes>
                        """)
        }
        #expect(!rules(try lint(["Main": file("back:")])).contains("undeclared-unwind-action"))
        #expect(rules(try lint(["Main": file("elsewhere:")])).contains("undeclared-unwind-action"))
    }

    @Test func deprecatedSegueKinds() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene(
                    "a", attributes: #"storyboardIdentifier="A""#,
                    body: connections(
                        #"<segue destination="b" kind="push" id="k1"/>"#, #"<segue destination="b" kind="modal" id="k2"/>"#,
                        #"<segue destination="b" kind="replace" id="k3"/>"#,
                        #"<segue destination="b" kind="popover" popoverAnchorView="a" id="k4"/>"#,
                        #"<segue destination="b" kind="presentation" id="k5"/>"#)),
                scene("b"),
            ])
        let found = try lint(["Main": xml]).filter { $0.rule == "deprecated-segue-kind" }
        #expect(found.map(\.element) == ["k1", "k2", "k3", "k4"])
    }

    @Test func positionsAreTheElementsLineAndColumn() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", body: connections(#"<segue destination="missing" kind="presentation" id="bad"/>"#))
            ])
        let finding = try #require(try lint(["Main": xml]).first { $0.rule == "unknown-destination" })
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines[finding.line - 1]
        #expect(line.contains(#"id="bad""#))
        let column = line.distance(from: line.startIndex, to: line.firstIndex(of: "<")!) + 1
        #expect(finding.column == column)
    }

    @Test func disableAndConfigurationOverrides() throws {
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", attributes: #"storyboardIdentifier="A""#, body: connections(#"<segue destination="b" kind="push" id="k"/>"#)),
                scene("b"),
            ])
        #expect(rules(try lint(["Main": xml])) == ["deprecated-segue-kind"])
        #expect(try lint(["Main": xml], disable: ["deprecated-segue-kind"]).isEmpty)
        let config = try LintConfiguration.decode(Data(#"{"severity": {"deprecated-segue-kind": "error"}}"#.utf8), path: "c")
        #expect(try lint(["Main": xml], configuration: config).first?.severity == .error)
        #expect(throws: LintError.self) { try Linter(disabled: ["no-such-rule"]) }
        #expect(throws: LintError.self) { try LintConfiguration.decode(Data(#"{"disable": ["nope"]}"#.utf8), path: "c") }
        #expect(throws: LintError.self) { try LintConfiguration.decode(Data(#"{"colour": 1}"#.utf8), path: "c") }
    }

    @Test func configurationIsFoundUpwardAndExitStatusFollowsSeverity() throws {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("lint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/app/ui", withIntermediateDirectories: true)
        let warning = StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", attributes: #"storyboardIdentifier="A""#, body: connections(#"<segue destination="b" kind="push" id="k"/>"#)),
                scene("b"),
            ])
        try warning.write(toFile: root + "/app/ui/Main.storyboard", atomically: true, encoding: .utf8)
        let report = try Linter().lint(paths: [root])
        #expect(report.warningCount == 1)
        #expect(report.exitStatus(strict: false) == 0)
        #expect(report.exitStatus(strict: true) == 1)
        try #"{"disable": ["deprecated-segue-kind"]}"#.write(toFile: root + "/app/.navsim-lint.json", atomically: true, encoding: .utf8)
        #expect(try Linter().lint(paths: [root]).findings.isEmpty)
        try #"<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"><scenes>"#.write(toFile: root + "/app/ui/Broken.storyboard", atomically: true, encoding: .utf8)
        let broken = try Linter().lint(paths: [root])
        #expect(broken.findings.map(\.rule) == ["invalid-storyboard"])
        #expect(broken.exitStatus(strict: false) == 1)
        #expect(throws: LintError.noSuchPath(root + "/nothing")) { try Linter().lint(paths: [root + "/nothing"]) }
    }

    /// A file linted alone still resolves its references against the storyboards beside it
    /// (Main refers to Settings and Library), and only the named file is reported on.
    @Test func aFileLintedAloneSeesTheStoryboardsBesideIt() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let main = corpus.folder.appendingPathComponent("handwritten/app/Main.storyboard").path
        let report = try Linter().lint(paths: [main])
        #expect(report.files == [main])
        #expect(!report.findings.contains { $0.rule == "unresolved-reference" }, "\(report.findings.map(\.message))")
        #expect(report.findings.allSatisfy { $0.file == main })
        #expect(!report.findings.isEmpty, "Main has findings of its own (a custom segue, a shared identifier)")
    }

    @Test func fixturesLintWithFindingsOnTheirElementsLines() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let report = try Linter().lint(paths: [corpus.folder.path])
        #expect(report.files.count == corpus.entries.count)
        var checked = 0
        for finding in report.findings {
            guard let element = finding.element,
                let text = try? String(contentsOfFile: finding.file, encoding: .utf8)
            else { continue }
            let line = text.split(separator: "\n", omittingEmptySubsequences: false)[finding.line - 1]
            // The element's start tag is on that line (or, for a dangling initialViewController, the document's).
            #expect(line.contains("id=\"\(element)\"") || line.contains("<document"), "\(finding.file):\(finding.line) \(element)")
            checked += 1
        }
        #expect(checked > 50)
    }
}

@Suite struct LintFormatTests {
    let report = LintReport(
        files: ["a b/Main.storyboard"],
        findings: [
            LintFinding(
                file: "a b/Main.storyboard", line: 12, column: 9, severity: .warning, rule: "deprecated-segue-kind",
                message: "Segue 'k' uses push, 100%: old.", element: "k"),
            LintFinding(
                file: "a b/Main.storyboard", line: 20, column: 5, severity: .error, rule: "unknown-destination",
                message: "Bad,\nreally.", element: "x"),
        ])

    @Test func text() {
        let lines = LintFormat.text.render(report).split(separator: "\n")
        #expect(lines[0] == "a b/Main.storyboard:12:9: warning: Segue 'k' uses push, 100%: old. [deprecated-segue-kind]")
        #expect(lines.last == "1 storyboard: 1 error, 1 warning")
    }

    @Test func github() {
        let lines = LintFormat.github.render(report).split(separator: "\n")
        #expect(lines[0] == "::warning file=a b/Main.storyboard,line=12,col=9,title=deprecated-segue-kind::Segue 'k' uses push, 100%25: old.")
        #expect(lines[1] == "::error file=a b/Main.storyboard,line=20,col=5,title=unknown-destination::Bad,%0Areally.")
    }

    @Test func githubPathsHaveNoLeadingDotSlash() {
        let dotted = LintReport(
            files: ["./App/Main.storyboard"],
            findings: [
                LintFinding(
                    file: "./App/Main.storyboard", line: 3, column: 1, severity: .error, rule: "unknown-destination",
                    message: "Bad.", element: "x"),
                LintFinding(
                    file: "././Other.storyboard", line: 4, column: 2, severity: .warning, rule: "unreachable-scene",
                    message: "Lost.", element: "y"),
            ])
        let lines = LintFormat.github.render(dotted).split(separator: "\n")
        #expect(lines[0] == "::error file=App/Main.storyboard,line=3,col=1,title=unknown-destination::Bad.")
        #expect(lines[1] == "::warning file=Other.storyboard,line=4,col=2,title=unreachable-scene::Lost.")
    }

    @Test func jsonAndSarifShapes() throws {
        let json = try JSONSerialization.jsonObject(with: Data(LintFormat.json.render(report).utf8)) as? [String: Any]
        #expect(json?["errors"] as? Int == 1)
        #expect((json?["findings"] as? [[String: Any]])?.first?["line"] as? Int == 12)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(LintFormat.sarif.render(report).utf8)) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["warning", "error"])
        let location = (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect((location?["artifactLocation"] as? [String: Any])?["uri"] as? String == "a%20b/Main.storyboard")
        #expect((location?["region"] as? [String: Any])?["startLine"] as? Int == 12)
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
        #expect(rules?.count == LintRule.all.count)
    }
}
