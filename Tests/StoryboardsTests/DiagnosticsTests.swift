import NavigationCore
import Testing
import Storyboards
import TestSupport

/// One test per diagnostic code (docs/storyboards.md "Upload diagnostics"), with severities and elements.
@Suite struct DiagnosticsTests {
    @Test func cleanStoryboardHasNoDiagnostics() throws {
        let storyboard = try parse(
            XML.document(
                initial: "N",
                XML.navigation("N", root: "A"),
                XML.viewController("A", buttonSegues: #"<segue destination="B" kind="show" identifier="toB" id="s"/>"#),
                XML.viewController("B")))
        #expect(storyboard.diagnostics.isEmpty)
        #expect(StoryboardLibrary([storyboard]).diagnostics(for: "Main").isEmpty)
    }

    @Test func unknownDestination() throws {
        let storyboard = try parse(
            XML.document(
                initial: "Ghost",
                XML.viewController(
                    "A",
                    buttonSegues: #"<segue destination="Missing" kind="show" id="s1"/><segue destination="A-exit" kind="show" id="s2"/>"#,
                    connections: #"<segue kind="presentation" identifier="x" id="s3"/><segue destination="Nowhere" kind="unwind" unwindAction="u:" id="s4"/>"#,
                    extra: #"<exit id="A-exit" userLabel="Exit" sceneMemberID="exit"/>"#)))
        let found = storyboard.diagnostics.filter { $0.code == .unknownDestination }
        #expect(found.map(\.element) == ["Ghost", "s1", "s2", "s3", "s4"])
        #expect(found.allSatisfy { $0.severity == .error })
        #expect(found[1].message.contains("'Missing'"))
        #expect(found[2].message.contains("exit"))
    }

    /// A value the core has no case for is a warning naming the element, the attribute and the
    /// line, never a silent nil; the element is still built, without the attribute.
    @Test func unsupportedValue() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController(
                    "A", attributes: #"modalPresentationStyle="blurOverFullScreen" modalTransitionStyle="spin""#,
                    buttonSegues: #"<segue destination="B" kind="presentation" modalPresentationStyle="UIModalPresentationBlurOverFullScreen" id="s1"/>"#),
                XML.viewController("B", attributes: #"modalPresentationStyle="formSheet""#),
                XML.scene(#"<pageViewController transitionStyle="fold" id="P" sceneMemberID="viewController"/>"#)))
        let found = storyboard.diagnostics.filter { $0.code == .unsupportedValue }
        #expect(found.map(\.element) == ["A", "A", "s1", "P"], "\(found)")
        #expect(found.allSatisfy { $0.severity == .warning && $0.message.contains("(line ") })
        #expect(found[0].message.contains("modalPresentationStyle 'blurOverFullScreen'"))
        #expect(found[1].message.contains("modalTransitionStyle 'spin'"))
        #expect(found[2].message.contains("'blurOverFullScreen'"), "the Objective-C name is spelled as UIKit's case")
        #expect(found[3].message.contains("transitionStyle 'fold'"))
        #expect(storyboard.scene(id: "A")?.modalPresentationStyle == nil)
        #expect(storyboard.scene(id: "A")?.segues.first?.modalPresentationStyle == Spelled(spelling: "blurOverFullScreen", value: nil))
        #expect(storyboard.scene(id: "B")?.modalPresentationStyle == .formSheet)
        #expect(storyboard.scene(id: "P")?.page?.transitionStyle == nil)
    }

    @Test func duplicateStoryboardIdentifier() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController("A", attributes: #"storyboardIdentifier="Detail""#),
                XML.viewController("B", attributes: #"storyboardIdentifier="Detail""#),
                XML.viewController("C", attributes: #"storyboardIdentifier="Other""#)))
        let found = storyboard.diagnostics.filter { $0.code == .duplicateStoryboardIdentifier }
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.element == "B")
        #expect(found.first?.message.contains("'A'") == true)
        #expect(storyboard.scene(withStoryboardIdentifier: "Detail")?.id == "A")
    }

    @Test func navigationWithoutRootIsAWarning() throws {
        let storyboard = try parse(XML.document(initial: "N", XML.navigation("N", root: nil)))
        #expect(
            storyboard.diagnostics == [
                StoryboardDiagnostic(
                    severity: .warning, code: .navigationWithoutRoot,
                    message: "Navigation controller 'N' has no rootViewController relationship; its stack starts empty unless code sets one.",
                    element: "N")
            ])
    }

    @Test func relationshipCycleWithinAFile() throws {
        let selfRoot = try parse(XML.document(initial: "N", XML.navigation("N", root: "N")))
        #expect(selfRoot.codes(.error) == [.relationshipCycle])

        let tabNavTab = try parse(
            XML.document(
                initial: "T",
                XML.scene(
                    """
                    <tabBarController id="T" sceneMemberID="viewController"><connections>
                    <segue destination="N" kind="relationship" relationship="viewControllers" id="t1"/>
                    </connections></tabBarController>
                    """),
                XML.navigation("N", root: "T")))
        let cycle = tabNavTab.diagnostics.filter { $0.code == .relationshipCycle }
        #expect(cycle.count == 1)
        #expect(cycle.first?.element == "T")
        #expect(cycle.first?.message.contains("'T' → 'N' → 'T'") == true)

        let embedLoop = try parse(
            XML.document(
                initial: "A",
                XML.scene(
                    """
                    <viewController id="A" sceneMemberID="viewController"><view key="view" id="v"><subviews>
                    <containerView id="c"><connections><segue destination="A" kind="embed" id="e"/></connections></containerView>
                    </subviews></view></viewController>
                    """)))
        #expect(embedLoop.codes(.error) == [.relationshipCycle])

        // A push to itself is fine (IQKeyboardManager does it, §9 item 13).
        let selfPush = try parse(
            XML.document(
                initial: "N", XML.navigation("N", root: "A"),
                XML.viewController("A", buttonSegues: #"<segue destination="A" kind="push" id="p"/>"#)))
        #expect(selfPush.diagnostics.isEmpty)
    }

    @Test func relationshipCycleThroughReferences() throws {
        let main = try parse(
            XML.document(
                initial: "N",
                XML.navigation("N", root: "ref", attributes: #"storyboardIdentifier="Nav""#),
                XML.placeholder("ref", storyboardName: "Tabs")), name: "Main")
        let tabs = try parse(
            XML.document(
                initial: "T",
                XML.scene(
                    """
                    <tabBarController id="T" sceneMemberID="viewController"><connections>
                    <segue destination="back" kind="relationship" relationship="viewControllers" id="t1"/>
                    </connections></tabBarController>
                    """),
                XML.placeholder("back", storyboardName: "Main", referencedIdentifier: "Nav")), name: "Tabs")
        #expect(main.codes(.error).isEmpty)
        let library = StoryboardLibrary([main, tabs])
        let found = library.diagnostics(for: "Main").filter { $0.code == .relationshipCycle }
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.element == "N")
        #expect(library.diagnostics(for: "Tabs").filter { $0.code == .relationshipCycle }.count == 1)
        // Without the other file there is no cycle, only an unresolved reference.
        #expect(StoryboardLibrary([main]).diagnostics(for: "Main").map(\.code) == [.unresolvedReference])
    }

    @Test func popoverWithoutAnchor() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController(
                    "A",
                    buttonSegues: #"<segue destination="B" kind="popoverPresentation" popoverAnchorView="A-btn" id="anchored"/>"#,
                    connections:
                        #"<segue destination="B" kind="popoverPresentation" identifier="manualPopover" id="bare"/><segue destination="B" kind="popover" identifier="legacy" id="legacy"/>"#
                ),
                XML.viewController("B")))
        let found = storyboard.diagnostics.filter { $0.code == .popoverWithoutAnchor }
        #expect(found.map(\.element) == ["bare", "legacy"])
        #expect(found.allSatisfy { $0.severity == .warning })
    }

    @Test func unreachableScene() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController("A", buttonSegues: #"<segue destination="B" kind="show" id="s"/>"#),
                XML.viewController("B"),
                XML.viewController(
                    "ByIdentifier", attributes: #"storyboardIdentifier="Code""#,
                    buttonSegues: #"<segue destination="FromIdentified" kind="show" id="s2"/>"#),
                XML.viewController("FromIdentified"),
                XML.viewController("Orphan", buttonSegues: #"<segue destination="FromOrphan" kind="show" id="s3"/>"#),
                XML.viewController("FromOrphan"),
                XML.viewController(
                    "OnlyUnwinds", buttonSegues: #"<segue destination="x-exit" kind="unwind" unwindAction="u:" id="u"/>"#,
                    extra: #"<exit id="x-exit" sceneMemberID="exit"/>"#)))
        let found = storyboard.diagnostics.filter { $0.code == .unreachableScene }
        #expect(found.map(\.element) == ["Orphan", "FromOrphan", "OnlyUnwinds"])
        #expect(found.allSatisfy { $0.severity == .warning })
        #expect(storyboard.codes(.error).isEmpty)
    }

    @Test func unreachableSceneWithoutEntryPoint() throws {
        // Files without an entry point are bags of identified scenes (§9 item 2): only scenes
        // that nothing at all can instantiate are reported.
        let bag = try parse(
            XML.document(
                XML.viewController("A", attributes: #"storyboardIdentifier="A""#),
                XML.viewController("Lost")))
        #expect(bag.diagnostics.map(\.element) == ["Lost"])
        #expect(bag.diagnostics.first?.message.contains("no entry point") == true)
    }

    @Test func undeclaredCustomSegue() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController(
                    "A",
                    buttonSegues: """
                        <segue destination="B" kind="custom" customClass="FadeSegue" id="fade"/>
                        <segue destination="B" kind="custom" id="classless"/>
                        <segue destination="B" kind="futureKind" id="future"/>
                        <segue destination="B" kind="presentation" customClass="LoggingSegue" id="subclassed"/>
                        """),
                XML.viewController("B")))
        #expect(storyboard.diagnostics.isEmpty)
        let library = StoryboardLibrary([storyboard])
        let undeclared = library.diagnostics(for: "Main").filter { $0.code == .undeclaredCustomSegue }
        // R98: a class on a segue of another kind is app code too: reported until declared.
        #expect(undeclared.map(\.element) == ["fade", "classless", "future", "subclassed"])
        #expect(undeclared.allSatisfy { $0.severity == .warning })
        #expect(undeclared.first?.message.contains("FadeSegue") == true)
        #expect(undeclared.last?.message.contains("it will do what a 'presentation' segue does") == true)
        let declared = library.diagnostics(for: "Main", customSegueClasses: ["FadeSegue"])
        #expect(declared.map(\.element) == ["classless", "future", "subclassed"])
        #expect(library.diagnostics(for: "Main", customSegueClasses: ["LoggingSegue"]).map(\.element) == ["fade", "classless", "future"])
    }

    @Test func unresolvedReferenceClearsOnceUploaded() throws {
        let main = try parse(
            XML.document(
                initial: "A",
                XML.viewController(
                    "A",
                    buttonSegues: """
                        <segue destination="toSecond" kind="show" id="s1"/><segue destination="toDetail" kind="show" id="s2"/>
                        """),
                XML.placeholder("toSecond", storyboardName: "Second"),
                XML.placeholder("toDetail", storyboardName: "Second", referencedIdentifier: "Detail")), name: "Main")
        var library = StoryboardLibrary([main])
        let missing = library.diagnostics(for: "Main")
        #expect(missing.map(\.code) == [.unresolvedReference, .unresolvedReference])
        #expect(missing.map(\.element) == ["toSecond", "toDetail"])
        #expect(missing.allSatisfy { $0.severity == .warning })
        #expect(missing.first?.message.contains("'Second' is not uploaded") == true)

        // Uploaded, but without an entry point and without the identifier: still warnings.
        library.insert(try parse(XML.document(XML.viewController("X", attributes: #"storyboardIdentifier="X""#)), name: "Second"))
        let incomplete = library.diagnostics(for: "Main")
        #expect(incomplete.map(\.code) == [.unresolvedReference, .unresolvedReference])
        #expect(incomplete[0].message.contains("no initial view controller"))
        #expect(incomplete[1].message.contains("Storyboard ID 'Detail'"))

        library.insert(
            try parse(
                XML.document(
                    initial: "X",
                    XML.viewController("X"), XML.viewController("D", attributes: #"storyboardIdentifier="Detail""#)), name: "Second"))
        #expect(library.diagnostics(for: "Main").isEmpty)

        library.remove(named: "Second")
        #expect(library.diagnostics(for: "Main").count == 2)
    }

    @Test func referenceCycle() throws {
        let one = try parse(XML.document(initial: "p1", XML.placeholder("p1", storyboardName: "Two")), name: "One")
        let two = try parse(XML.document(initial: "p2", XML.placeholder("p2", storyboardName: "One")), name: "Two")
        let library = StoryboardLibrary([one, two])
        let found = library.diagnostics(for: "One")
        #expect(found.map(\.code) == [.referenceCycle])
        #expect(found.first?.severity == .error)
        #expect(found.first?.element == "p1")
        #expect(found.first?.message.contains("One/p1 → Two/p2 → One/p1") == true)

        let selfReference = try parse(
            XML.document(
                XML.placeholder("me", storyboardName: nil, referencedIdentifier: "Me", attributes: #"storyboardIdentifier="Me""#)))
        #expect(StoryboardLibrary([selfReference]).diagnostics(for: "Main").map(\.code) == [.referenceCycle])
    }

    @Test func unknownStoryboardHasNoDiagnostics() {
        #expect(StoryboardLibrary().diagnostics(for: "Nope").isEmpty)
    }

    @Test func everyCodeHasItsAPISpelling() {
        #expect(
            StoryboardDiagnostic.Code.allCases.map(\.rawValue) == [
                "unsupported-document-type", "unknown-destination", "unresolved-reference", "reference-cycle",
                "duplicate-storyboard-identifier", "navigation-without-root", "relationship-cycle",
                "popover-without-anchor", "unreachable-scene", "undeclared-custom-segue", "unsupported-value",
            ])
    }
}

/// A chain of embed segues far deeper than any cycle search cut-off is no cycle.
@Suite struct DeepRelationshipChainTests {
    private func chain(_ depth: Int, back: Bool) -> String {
        let scenes = (0..<depth).map { i -> String in
            let next = i + 1 < depth ? "V\(i + 1)" : (back ? "V0" : nil)
            let embed = next.map { #"<containerView id="V\#(i)-c"><connections><segue destination="\#($0)" kind="embed" id="V\#(i)-e"/></connections></containerView>"# } ?? ""
            return
                #"<scene sceneID="S\#(i)"><objects><viewController id="V\#(i)" sceneMemberID="viewController"><view key="view" id="V\#(i)-v"><subviews>\#(embed)</subviews></view></viewController></objects></scene>"#
        }
        return StoryboardXML.document(initial: "V0", scenes: scenes)
    }

    @Test func deepChainIsNoCycleAndClosingItIsOne() throws {
        #expect(try parse(chain(2_000, back: false)).codes(.error).isEmpty)
        let loop = try parse(chain(2_000, back: true))
        #expect(loop.codes(.error) == [.relationshipCycle])
    }
}
