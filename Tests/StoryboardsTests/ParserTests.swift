import NavigationCore
import Testing
import Storyboards
import Foundation

/// Mapping of the XML vocabulary onto the model (storyboard-format.md §1–§8, R98).
@Suite struct ParserTests {
    @Test func documentBasicsAndSceneOrder() throws {
        let storyboard = try parse(
            XML.document(
                initial: "B",
                XML.viewController("A", attributes: #"title="First" storyboardIdentifier="first""#),
                XML.viewController("B")))
        #expect(storyboard.name == "Main")
        #expect(storyboard.initialViewController == "B")
        #expect(storyboard.targetRuntime == "iOS.CocoaTouch")
        #expect(storyboard.scenes.map(\.id) == ["A", "B"])
        #expect(storyboard.initialScene?.id == "B")
        #expect(storyboard.scene(withStoryboardIdentifier: "first")?.id == "A")
        #expect(storyboard.scene(id: "A")?.title == "First")
        #expect(storyboard.scene(id: "nope") == nil)
    }

    @Test(arguments: [
        ("viewController", ControllerKind.viewController, "UIViewController"),
        ("tableViewController", .tableViewController, "UITableViewController"),
        ("collectionViewController", .collectionViewController, "UICollectionViewController"),
        ("navigationController", .navigationController, "UINavigationController"),
        ("tabBarController", .tabBarController, "UITabBarController"),
        ("splitViewController", .splitViewController, "UISplitViewController"),
        ("pageViewController", .pageViewController, "UIPageViewController"),
        ("avPlayerViewController", .viewController, "AVPlayerViewController"),
        ("glkViewController", .viewController, "GLKViewController"),
        ("hostingController", .viewController, "UIHostingController"),
        ("viewControllerPlaceholder", .viewController, "UIStoryboardReference"),
        ("someFutureViewController", .viewController, "UIViewController"),
    ])
    func controllerElementMapsToKindAndClass(element: String, kind: ControllerKind, className: String) throws {
        let storyboard = try parse(XML.document(XML.scene(#"<\#(element) id="X" sceneMemberID="viewController"/>"#)))
        let scene = try #require(storyboard.scene(id: "X"))
        #expect(scene.kind == kind)
        #expect(scene.isReference == (element == "viewControllerPlaceholder"))
        #expect(scene.className == className)
        #expect(scene.elementName == element)
        #expect(scene.customClass == nil)
    }

    @Test func customClassWinsOverTheUIKitClass() throws {
        let storyboard = try parse(
            XML.document(
                XML.scene(
                    """
                    <navigationController id="N" customClass="SideMenuNavigationController" customModule="SideMenu" \
                    sceneMemberID="viewController"/>
                    """)))
        let scene = try #require(storyboard.scene(id: "N"))
        #expect(scene.kind == .navigationController)
        #expect(scene.className == "SideMenuNavigationController")
        #expect(scene.customModule == "SideMenu")
    }

    @Test(arguments: ["fullScreen", "pageSheet", "formSheet", "currentContext", "overFullScreen", "overCurrentContext", "popover"])
    func controllerPresentationStyleKeepsUIKitSpelling(style: String) throws {
        let storyboard = try parse(XML.document(XML.viewController("A", attributes: #"modalPresentationStyle="\#(style)""#)))
        #expect(storyboard.scene(id: "A")?.modalPresentationStyle?.rawValue == style)
    }

    @Test(arguments: ["coverVertical", "flipHorizontal", "crossDissolve", "partialCurl"])
    func transitionStyleKeepsUIKitSpelling(style: String) throws {
        let storyboard = try parse(
            XML.document(
                XML.viewController(
                    "A", attributes: #"modalTransitionStyle="\#(style)""#,
                    connections: #"<segue destination="A" kind="presentation" modalTransitionStyle="\#(style)" identifier="x" id="s1"/>"#)))
        let scene = try #require(storyboard.scene(id: "A"))
        #expect(scene.modalTransitionStyle?.rawValue == style)
        #expect(scene.segues.first?.modalTransitionStyle == Spelled(spelling: style, value: TransitionStyle(rawValue: style)))
    }

    @Test func objectiveCConstantNamesAreTranslated() throws {
        let storyboard = try parse(
            XML.document(
                XML.viewController(
                    "A",
                    attributes: #"modalPresentationStyle="UIModalPresentationFormSheet" modalTransitionStyle="UIModalTransitionStyleCrossDissolve""#)))
        #expect(storyboard.scene(id: "A")?.modalPresentationStyle == .formSheet)
        #expect(storyboard.scene(id: "A")?.modalTransitionStyle == .crossDissolve)
    }

    @Test func presentationContextFlags() throws {
        let storyboard = try parse(
            XML.document(
                XML.viewController(
                    "A",
                    attributes: """
                        definesPresentationContext="YES" providesPresentationContextTransitionStyle="YES" modalInPresentation="YES"
                        """),
                XML.viewController("B")))
        let a = try #require(storyboard.scene(id: "A"))
        #expect(a.definesPresentationContext == true)
        #expect(a.providesPresentationContextTransitionStyle == true)
        #expect(a.isModalInPresentation == true)
        let b = try #require(storyboard.scene(id: "B"))
        #expect(b.definesPresentationContext == nil)
        #expect(b.isModalInPresentation == nil)
    }

    @Test func splitStyles() throws {
        func split(_ id: String, _ attributes: String, _ relationships: [String]) -> String {
            let segues = relationships.enumerated().map { index, name in
                #"<segue destination="leaf" kind="relationship" relationship="\#(name)" id="\#(id)-\#(index)"/>"#
            }.joined()
            return XML.scene(#"<splitViewController id="\#(id)" \#(attributes) sceneMemberID="viewController"><connections>\#(segues)</connections></splitViewController>"#)
        }
        let storyboard = try parse(
            XML.document(
                split("classic", "", ["masterViewController", "detailViewController"]),
                split("double", #"allowDoubleColumnStyle="YES""#, ["masterViewController", "detailViewController"]),
                split(
                    "triple", #"allowDoubleColumnStyle="YES""#,
                    ["supplementaryViewController", "detailViewController", "masterViewController"]),
                XML.viewController("leaf"),
                XML.viewController("notASplit")))
        #expect(storyboard.scene(id: "classic")?.splitStyle == .unspecified)
        #expect(storyboard.scene(id: "double")?.splitStyle == .doubleColumn)
        #expect(storyboard.scene(id: "triple")?.splitStyle == .tripleColumn)
        #expect(storyboard.scene(id: "notASplit")?.splitStyle == nil)
        // Resolve columns by name, never by position (§5).
        #expect(
            storyboard.scene(id: "triple")?.relationships.map(\.relationship)
                == ["supplementaryViewController", "detailViewController", "masterViewController"])
    }

    @Test func pageSettings() throws {
        let storyboard = try parse(
            XML.document(
                XML.scene(
                    """
                    <pageViewController autoresizesArchivedViewToFullSize="NO" transitionStyle="pageCurl" \
                    navigationOrientation="vertical" spineLocation="mid" doubleSided="YES" id="P" sceneMemberID="viewController"/>
                    """)))
        let page = try #require(storyboard.scene(id: "P")?.page)
        #expect(
            page
                == PageSettings(
                    transitionStyle: .pageCurl, navigationOrientation: "vertical",
                    spineLocation: .mid, isDoubleSided: true))
    }

    @Test func placeholders() throws {
        let storyboard = try parse(
            XML.document(
                XML.placeholder("toInitial", storyboardName: "Second"),
                XML.placeholder("toIdentifier", storyboardName: "General", referencedIdentifier: "TextField"),
                XML.placeholder("emptyIdentifier", storyboardName: "Second", referencedIdentifier: ""),
                XML.placeholder(
                    "sameFile", storyboardName: nil, referencedIdentifier: "Detail",
                    attributes: #"storyboardIdentifier="Alias""#)))
        #expect(storyboard.scene(id: "toInitial")?.isReference == true)
        #expect(storyboard.scene(id: "toInitial")?.placeholder == StoryboardReference(storyboardName: "Second"))
        #expect(
            storyboard.scene(id: "toIdentifier")?.placeholder
                == StoryboardReference(storyboardName: "General", referencedIdentifier: "TextField"))
        #expect(storyboard.scene(id: "emptyIdentifier")?.placeholder?.referencedIdentifier == nil)
        #expect(storyboard.scene(id: "sameFile")?.placeholder == StoryboardReference(referencedIdentifier: "Detail"))
        #expect(storyboard.scene(withStoryboardIdentifier: "Alias")?.id == "sameFile")
        #expect(storyboard.scene(id: "toInitial")?.placeholder != nil)
        #expect(storyboard.scene(id: "toInitial")?.segues.isEmpty == true)
    }

    @Test(arguments: [
        ("show", SegueSpec.Kind.show), ("showDetail", .showDetail), ("presentation", .presentation),
        ("popoverPresentation", .popoverPresentation), ("custom", .custom), ("embed", .embed),
        ("push", .push), ("modal", .presentation), ("replace", .showDetail), ("popover", .popoverPresentation),
    ])
    func segueKindsAndLegacyMapping(spelled: String, kind: SegueSpec.Kind) throws {
        let storyboard = try parse(
            XML.document(
                XML.viewController("A", buttonSegues: #"<segue destination="B" kind="\#(spelled)" popoverAnchorView="A-btn" customClass="C" id="s"/>"#),
                XML.viewController("B")))
        let segue = try #require(storyboard.scene(id: "A")?.segues.first)
        #expect(segue.kind == kind)
        #expect(segue.spelledKind == spelled)
        #expect(SegueSpec.Kind.isLegacy(spelled: spelled) == ["push", "modal", "replace", "popover"].contains(spelled))
    }

    @Test func legacyPushIsNotShow() {
        // R98: a legacy push has no modal fallback, so it must stay distinguishable.
        #expect(SegueSpec.Kind(spelled: "push") == .push)
        #expect(SegueSpec.Kind(spelled: "show") == .show)
        #expect(SegueSpec.Kind(spelled: "nonsense") == nil)
    }

    @Test func seguesBelongToTheEnclosingController() throws {
        let storyboard = try parse(
            XML.document(
                initial: "T",
                XML.scene(
                    """
                    <tableViewController id="T" sceneMemberID="viewController">
                        <tableView key="view" id="tv">
                            <prototypes>
                                <tableViewCell reuseIdentifier="Cell" id="cell">
                                    <tableViewCellContentView key="contentView" id="ccv"/>
                                    <connections>
                                        <segue destination="D" kind="show" identifier="showDetail" id="fromCell"/>
                                        <segue destination="D" kind="push" trigger="accessoryAction" identifier="accessory" id="fromAccessory"/>
                                    </connections>
                                </tableViewCell>
                            </prototypes>
                        </tableView>
                        <navigationItem key="navigationItem" title="Inbox" id="ni">
                            <barButtonItem key="rightBarButtonItem" systemItem="add" id="add">
                                <connections>
                                    <segue destination="D" kind="presentation" identifier="add" id="fromBar"/>
                                </connections>
                            </barButtonItem>
                        </navigationItem>
                        <connections>
                            <segue destination="D" kind="show" identifier="manual" id="manual"/>
                            <outlet property="tableView" destination="tv" id="o1"/>
                        </connections>
                    </tableViewController>
                    <tapGestureRecognizer id="tap">
                        <connections><segue destination="D" kind="presentation" identifier="tap" id="fromGesture"/></connections>
                    </tapGestureRecognizer>
                    """),
                XML.viewController("D")))
        let table = try #require(storyboard.scene(id: "T"))
        #expect(table.segues.map(\.id) == ["fromCell", "fromAccessory", "fromBar", "manual", "fromGesture"])
        #expect(table.navigationItemTitle == "Inbox")
        let byID = Dictionary(uniqueKeysWithValues: table.segues.map { ($0.id, $0) })
        #expect(byID["fromCell"]?.source == SegueSource(element: "tableViewCell", id: "cell"))
        #expect(byID["fromCell"]?.isManual == false)
        #expect(byID["fromAccessory"]?.trigger == "accessoryAction")
        #expect(byID["fromBar"]?.source == SegueSource(element: "barButtonItem", id: "add", key: "rightBarButtonItem"))
        #expect(byID["manual"]?.isManual == true)
        #expect(byID["manual"]?.source.element == "tableViewController")
        #expect(byID["fromGesture"]?.source.element == "tapGestureRecognizer")
        #expect(byID["fromGesture"]?.isManual == false)
        #expect(table.segues(withIdentifier: "manual").map(\.id) == ["manual"])
        #expect(storyboard.scene(id: "D")?.segues.isEmpty == true)
    }

    @Test func embedFromContainerView() throws {
        let storyboard = try parse(
            XML.document(
                initial: "P",
                XML.scene(
                    """
                    <viewController id="P" sceneMemberID="viewController">
                        <view key="view" id="pv">
                            <subviews>
                                <containerView opaque="NO" id="cv">
                                    <connections><segue destination="C" kind="embed" identifier="Embed" id="e1"/></connections>
                                </containerView>
                            </subviews>
                        </view>
                    </viewController>
                    """),
                XML.viewController("C")))
        let segue = try #require(storyboard.scene(id: "P")?.segues.first)
        #expect(segue.kind == .embed)
        #expect(segue.identifier == "Embed")
        #expect(segue.source.element == "containerView")
        #expect(segue.destination == "C")
    }

    @Test func unwindWithUnwindActionTargetsTheSceneExit() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController("A", buttonSegues: #"<segue destination="C" kind="presentation" id="toC"/>"#),
                XML.viewController(
                    "C",
                    buttonSegues: #"<segue destination="C-exit" kind="unwind" identifier="save" unwindAction="unwindToInbox:" id="u1"/>"#,
                    connections: #"<segue destination="C-exit" kind="unwind" identifier="manualUnwind" unwindAction="unwindToInbox:" id="u2"/>"#,
                    extra: #"<exit id="C-exit" userLabel="Exit" sceneMemberID="exit"/>"#)))
        let scene = try #require(storyboard.scene(id: "C"))
        #expect(scene.exitIDs == ["C-exit"])
        #expect(storyboard.scene(containingExit: "C-exit")?.id == "C")
        #expect(scene.segues.map(\.kind) == [.unwind, .unwind])
        #expect(scene.segues.map(\.unwindAction) == ["unwindToInbox:", "unwindToInbox:"])
        #expect(scene.segues.map(\.isManual) == [false, true])
        #expect(storyboard.codes(.error).isEmpty)
    }

    @Test func relationshipsKeepTabOrderAndNames() throws {
        let storyboard = try parse(
            XML.document(
                initial: "Tab",
                XML.scene(
                    """
                    <tabBarController id="Tab" sceneMemberID="viewController">
                        <tabBar key="tabBar" id="tb"/>
                        <connections>
                            <segue destination="Third" kind="relationship" relationship="viewControllers" id="r3"/>
                            <segue destination="First" kind="relationship" relationship="viewControllers" id="r1"/>
                            <segue destination="Second" kind="relationship" relationship="viewControllers" id="r2"/>
                        </connections>
                    </tabBarController>
                    """),
                XML.scene(
                    """
                    <viewController id="First" sceneMemberID="viewController">
                        <tabBarItem key="tabBarItem" title="One" id="ti1"/>
                    </viewController>
                    """),
                XML.viewController("Second"), XML.viewController("Third")))
        let tab = try #require(storyboard.scene(id: "Tab"))
        #expect(tab.relationships.map(\.destination) == ["Third", "First", "Second"])
        #expect(tab.relationships.allSatisfy { $0.kind == .relationship && $0.relationship == "viewControllers" })
        #expect(storyboard.scene(id: "First")?.tabBarItemTitle == "One")
    }

    @Test func tieBreakersAndNestedPreviewSeguesAreNotEdges() throws {
        let xml = XML.document(
            initial: "A",
            XML.viewController(
                "A",
                buttonSegues: """
                    <segue destination="B" kind="show" id="s1">
                        <segue key="commit" inheritsFrom="parent" id="s1c"/>
                        <segue key="preview" inheritsFrom="commit" id="s1p"/>
                    </segue>
                    """),
            XML.viewController("B")
        )
        .replacingOccurrences(of: "</scenes>", with: "</scenes><inferredMetricsTieBreakers><segue reference=\"s1\"/></inferredMetricsTieBreakers>")
        let storyboard = try parse(xml)
        #expect(storyboard.allSegues.map(\.segue.id) == ["s1"])
    }

    @Test func segueAttributes() throws {
        let storyboard = try parse(
            XML.document(
                initial: "A",
                XML.viewController(
                    "A",
                    buttonSegues: """
                        <segue destination="B" kind="popoverPresentation" identifier="" popoverAnchorView="A-btn" \
                        customClass="MyPopoverSegue" customModule="App" id="pop">
                            <popoverArrowDirection key="popoverArrowDirection" up="YES" down="YES" left="YES" right="YES"/>
                        </segue>
                        <segue destination="B" kind="presentation" modalPresentationStyle="overCurrentContext" \
                        modalTransitionStyle="crossDissolve" animates="NO" destinationCreationSelector="makeB:" id="pres"/>
                        <segue destination="B" kind="replace" splitViewControllerTargetIndex="1" identifier="r" id="rep"/>
                        """,
                    extra: """
                        <toolbar id="bar"><items><barButtonItem title="Info" id="info"><connections>
                        <segue destination="B" kind="popover" popoverAnchorBarButtonItem="info" identifier="info" id="legacyPop"/>
                        </connections></barButtonItem></items></toolbar>
                        """),
                XML.viewController("B")))
        let segues = Dictionary(uniqueKeysWithValues: storyboard.allSegues.map { ($0.segue.id, $0.segue) })
        let pop = try #require(segues["pop"])
        #expect(pop.identifier == nil)
        #expect(pop.popoverAnchor == PopoverAnchor(sourceView: "A-btn"))
        #expect(pop.customClass == "MyPopoverSegue")
        #expect(pop.customModule == "App")
        #expect(pop.animates)
        let presentation = try #require(segues["pres"])
        #expect(presentation.modalPresentationStyle?.spelling == "overCurrentContext")
        #expect(presentation.modalTransitionStyle?.spelling == "crossDissolve")
        #expect(presentation.animates == false)
        #expect(presentation.destinationCreationSelector == "makeB:")
        #expect(segues["rep"]?.kind == .showDetail)
        #expect(segues["rep"]?.splitViewControllerTargetIndex == 1)
        let legacy = try #require(segues["legacyPop"])
        #expect(legacy.kind == .popoverPresentation)
        #expect(legacy.popoverAnchor == PopoverAnchor(barButtonItem: "info"))
        // The toolbar is a top-level object of A's scene, so its segue still belongs to A.
        #expect(storyboard.allSegues.first { $0.segue.id == "legacyPop" }?.sceneID == "A")
    }

    @Test func legacyClassesSectionGivesUnwindHints() throws {
        let xml = XML.document(initial: "A", XML.viewController("A", attributes: #"customClass="PresentedViewController""#))
            .replacingOccurrences(
                of: "</scenes>",
                with: """
                    </scenes>
                    <classes>
                        <class className="PresentedViewController" superclassName="UIViewController">
                            <source key="sourceIdentifier" type="project" relativePath="./Classes/PresentedViewController.h"/>
                            <relationships>
                                <relationship kind="action" name="unwind:" candidateClass="UIStoryboardSegue"/>
                                <relationship kind="outlet" name="label" candidateClass="UILabel"/>
                            </relationships>
                        </class>
                    </classes>
                    """)
        let storyboard = try parse(xml)
        #expect(storyboard.unwindActionsByClass == ["PresentedViewController": ["unwind:"]])
    }

    @Test func parseAllKeepsOrderAndIsolatesFailures() {
        let good = Array(XML.document(XML.viewController("A")).utf8)
        let results = StoryboardParser.parseAll([
            (name: "One", data: good), (name: "Bad", data: Array("<document".utf8)),
            (name: "Two", data: good),
        ])
        #expect(results.count == 3)
        #expect((try? results[0].get())?.name == "One")
        #expect((try? results[1].get()) == nil)
        #expect((try? results[2].get())?.name == "Two")
    }
}
