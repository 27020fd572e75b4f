import NavigationCore
import Testing
import Storyboards

/// Resolution across storyboards (storyboard-format.md §6, R101, R102).
@Suite struct LibraryTests {
    static func library() throws -> StoryboardLibrary {
        let main = try parse(
            XML.document(
                initial: "N",
                XML.navigation("N", root: "Menu"),
                XML.viewController(
                    "Menu",
                    buttonSegues: """
                        <segue destination="refInitial" kind="push" id="toInitial"/>
                        <segue destination="refDetail" kind="presentation" id="toDetail"/>
                        <segue destination="Menu-exit" kind="unwind" unwindAction="back:" id="unwind"/>
                        """, extra: #"<exit id="Menu-exit" sceneMemberID="exit"/>"#),
                XML.placeholder("refInitial", storyboardName: "Second"),
                XML.placeholder("refDetail", storyboardName: "Second", referencedIdentifier: "Detail"),
                XML.placeholder("local", storyboardName: nil, referencedIdentifier: "Local", attributes: #"storyboardIdentifier="Alias""#),
                XML.viewController("L", attributes: #"storyboardIdentifier="Local""#)), name: "Main")
        let second = try parse(
            XML.document(
                initial: "T",
                XML.scene(
                    """
                    <tabBarController id="T" sceneMemberID="viewController"><connections>
                    <segue destination="D" kind="relationship" relationship="viewControllers" id="t1"/>
                    </connections></tabBarController>
                    """),
                XML.viewController("D", attributes: #"storyboardIdentifier="Detail""#)), name: "Second")
        return StoryboardLibrary([main, second])
    }

    @Test func followsReferences() throws {
        let library = try Self.library()
        #expect(library.names == ["Main", "Second"])
        let menu = try #require(library["Main"]?.scene(id: "Menu"))
        let segues = Dictionary(uniqueKeysWithValues: menu.segues.map { ($0.id, $0) })

        let initial = try library.resolveDestination(of: try #require(segues["toInitial"]), in: "Main").get()
        #expect(initial.address == SceneAddress(storyboard: "Second", sceneID: "T"))
        #expect(initial.scene.kind == .tabBarController)

        let detail = try library.resolveDestination(of: try #require(segues["toDetail"]), in: "Main").get()
        #expect(detail.address == SceneAddress(storyboard: "Second", sceneID: "D"))

        #expect(library.resolveDestination(of: try #require(segues["unwind"]), in: "Main") == .failure(.unwind(exitID: "Menu-exit")))

        #expect(try library.resolve(identifier: "Alias", in: "Main").get().scene.id == "L")
        #expect(try library.resolveInitial(of: "Main").get().scene.id == "N")
        #expect(try library.resolve(SceneAddress(storyboard: "Main", sceneID: "Menu")).get().scene.id == "Menu")
        #expect(library.diagnostics(for: "Main").isEmpty)
        #expect(library.diagnostics(for: "Second").isEmpty)
    }

    @Test func resolutionFailuresMatchUIKit() throws {
        var library = try Self.library()
        #expect(library.resolve(identifier: "missing", in: "Main") == .failure(.identifierNotFound(identifier: "missing", storyboard: "Main")))
        #expect(library.resolveInitial(of: "Nope") == .failure(.storyboardNotFound("Nope")))
        #expect(
            library.resolve(SceneAddress(storyboard: "Main", sceneID: "zzz"))
                == .failure(.elementNotFound(id: "zzz", storyboard: "Main")))
        library.remove(named: "Second")
        #expect(library.resolve(SceneAddress(storyboard: "Main", sceneID: "refInitial")) == .failure(.storyboardNotFound("Second")))
        library.insert(try parse(XML.document(XML.viewController("X")), name: "Second"))
        #expect(
            library.resolve(SceneAddress(storyboard: "Main", sceneID: "refInitial"))
                == .failure(.noInitialViewController(storyboard: "Second")))
        #expect(library.resolveInitial(of: "Second") == .failure(.noInitialViewController(storyboard: "Second")))
    }

    @Test func insertReplacesByName() throws {
        var library = try Self.library()
        let replaced = library.insert(try parse(XML.document(initial: "Z", XML.viewController("Z")), name: "Second"))
        #expect(replaced?.initialViewController == "T")
        #expect(library["Second"]?.initialViewController == "Z")
    }
}
