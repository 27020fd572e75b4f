import Testing
import NavigationCore

/// §1: the root, relationship invariants, inherited links, container getters, the in-window test.
@Suite("Hierarchy (R1–R6)")
struct HierarchyTests {
    @Test("R1: installing a root on a visible window loads it and makes it appear")
    func rootAppears() {
        var w = Window(root: nil)
        let r = w.perform(.setRoot(vc("A"), animated: false))
        #expect(names(r) == ["A.viewDidLoad", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear"])
        #expect(r.events.filter { appearanceCallbacks.contains($0.callback) }.allSatisfy { $0.animated == false })
        #expect(w.state.rootViewController == "A")
        #expect(w["A"].parent == nil)
        #expect(w.presenting("A") == nil)
        #expect(w["A"].isViewLoaded && w.isAppeared("A") && w["A"].viewInWindow)
        w.checkInvariants()
    }

    @Test("R1: makeSession installs the root appeared, without reporting the launch")
    func makeSessionInstallsRoot() {
        let w = Window(root: nav("N", vc("A")))
        #expect(w.state.rootViewController == "N")
        #expect(w.isAppeared("N") && w.isAppeared("A"))
        #expect(w["N"].viewInWindow && w["A"].viewInWindow)
        #expect(w.state.transitions.isEmpty)
        w.checkInvariants()
    }

    @Test("R1: replacing the root makes the old one disappear and the new one appear")
    func replacingRoot() {
        var w = Window(root: vc("A"))
        let r = w.perform(.setRoot(vc("B"), animated: false))
        let events = names(r)
        // The spec fixes each controller's sequence, not the interleaving of the two.
        #expect(of("A", events) == ["A.viewWillDisappear", "A.viewDidDisappear"])
        #expect(of("B", events) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear"])
        #expect(events.count == 6)
        #expect(w.state.rootViewController == "B")
        #expect(w.isDisappeared("A") && !w["A"].viewInWindow)
        #expect(w.isAppeared("B"))
    }

    @Test("R2: a presented controller never has a parent; presenting a child raises instead of re-parenting")
    func presentedHasNoParent() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        _ = w.refuse(Op.present("B", id("A")))
        #expect(w["A"].parent == "N")
        w.perform(Op.present("B", vc("C"), .fullScreen))
        #expect(w["C"].parent == nil)
        #expect(w.presenting("C") == "N")
        w.checkInvariants()
    }

    // R3, R4, R20 (S5): links are inherited down the parent chain; the source and its siblings see them.
    @Test("R3/R4: presentingViewController and presentedViewController are inherited (S5)")
    func inheritedLinks() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.perform(Op.present("B", vc("C"), .fullScreen))
        #expect(w.presenting("C") == "N")
        #expect(w.presented("N") == "C")
        #expect(w.presented("B") == "C")
        #expect(w.presented("A") == "C")
        #expect(w["B"].presentedID == nil, "only the real presenter holds the link")
        #expect(w.presenting("A") == nil && w.presenting("N") == nil)
        w.checkInvariants()
    }

    @Test("R3: a child of a presented navigation controller reports the navigation controller's presenter")
    func childOfPresentedContainer() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", nav("N", vc("R"), vc("S")), .fullScreen))
        #expect(w.presenting("N") == "A")
        #expect(w.presenting("R") == "A")
        #expect(w.presenting("S") == "A")
        #expect(w.presented("A") == "N")
        #expect(w.presented("R") == nil)
    }

    @Test("R5: navigationController/tabBarController/splitViewController are the nearest ancestors of that kind")
    func containerGetters() {
        var w = Window(root: tabs("T", [nav("N", vc("A")), vc("B")]))
        #expect(w.state.nearestAncestor("A", kind: .navigationController) == "N")
        #expect(w.state.nearestAncestor("A", kind: .tabBarController) == "T")
        #expect(w.state.nearestAncestor("N", kind: .tabBarController) == "T")
        #expect(w.state.nearestAncestor("B", kind: .navigationController) == nil)
        #expect(w.state.nearestAncestor("A", kind: .splitViewController) == nil)
        #expect(w.state.nearestAncestor("N", kind: .navigationController) == nil, "an ancestor, never the controller itself")
        #expect(w.state.nearestAncestor("T", kind: .tabBarController) == nil)

        // A modal not embedded in its own navigation controller has none (parent chain only).
        w.perform(Op.present("A", vc("M"), .fullScreen))
        #expect(w.state.nearestAncestor("M", kind: .navigationController) == nil)
        // Wrapped in its own navigation controller, it gets that one.
        w.perform(Op.dismiss("A"))
        w.perform(Op.present("A", nav("N2", vc("M2"))))
        #expect(w.state.nearestAncestor("M2", kind: .navigationController) == "N2")

        let s = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")), traits: iPadRegular)
        #expect(s.state.nearestAncestor("M", kind: .splitViewController) == "S")
        #expect(s.state.nearestAncestor("D", kind: .splitViewController) == "S")
        #expect(s.state.nearestAncestor("M", kind: .navigationController) == "N1")
    }

    @Test("R6: views attach on viewWillAppear and detach on viewDidDisappear; a full-screen cover removes the presenter's")
    func inWindowFlags() {
        var w = Window(root: vc("A"), options: manual)
        let start = w.perform(Op.present("A", vc("B"), .fullScreen))
        #expect(names(start) == ["B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing"])
        #expect(w["B"].viewInWindow, "attached once viewWillAppear returned")
        #expect(w["A"].viewInWindow, "still attached until viewDidDisappear")
        w.perform(Op.tick)
        #expect(w["B"].viewInWindow)
        #expect(!w["A"].viewInWindow, "removed by the full-screen presentation (R24)")
        #expect(w.state.settledViewsInWindow == ["B"])
    }

    @Test("R6/R13: a controller created but never installed is not in the window (S22)")
    func detachedControllerIsNotInWindow() {
        var w = Window(root: vc("A"))
        w.perform(.createController(ControllerSpec(id: "D")))
        #expect(!w["D"].viewInWindow && !w["D"].isViewLoaded)
        let d = w.refuse(Op.present("D", vc("E")))
        expectDiagnostic(
            d, code: "D7", slug: "not-in-window-hierarchy", severity: .warning, name: nil,
            message: "Attempt to present \(desc("E")) on \(desc("D")) (from \(desc("D"))) whose view is not in the window hierarchy.")
        #expect(w.state["E"] == nil)
    }

    @Test("R6/R13: presenting from a root installed in the same turn fails: its view is not in the window yet (S23)")
    func presentFromLoadingRoot() {
        var w = Window(root: nil)
        let outcomes = w.turn([.setRoot(vc("A"), animated: false), Op.present("A", vc("B"))])
        #expect(outcomes[0].result != nil)
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D7", slug: "not-in-window-hierarchy", severity: .warning, name: nil,
            message: "Attempt to present \(desc("B")) on \(desc("A")) (from \(desc("A"))) whose view is not in the window hierarchy.")
        #expect(w.state.rootViewController == "A")
        #expect(w.presented("A") == nil)
        #expect(w.state["B"] == nil)
    }

    @Test("R6/R13: a context presenter in an unselected tab is not in the window")
    func hiddenContextPresenter() {
        var w = Window(root: tabs("T", [nav("N1", vc("A")), vc("B")], selected: 1))
        let d = w.refuse(Op.present("A", vc("C"), .currentContext))
        expectDiagnostic(
            d, code: "D7", slug: "not-in-window-hierarchy", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("N1", .navigationController)) (from \(desc("A"))) whose view is not in the window hierarchy.")
    }

    @Test("R6/R13: presenting from a controller whose own presentation was accepted but not started this turn")
    func presentFromNotYetStartedPresentation() {
        // §0.3/R27: the presentation of B starts at the end of the turn; until then B's view is not
        // attached (R6: "any presented VC whose presentation has started"), so R13 decides.
        var w = Window(root: vc("A"), options: manual)
        let outcomes = w.turn([Op.present("A", vc("B"), .fullScreen), Op.present("B", vc("C"))])
        #expect(outcomes[0].result != nil)
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D7", slug: "not-in-window-hierarchy", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("B")) (from \(desc("B"))) whose view is not in the window hierarchy.")
    }

    @Test("R14: once B's presentation has started, presenting on B is refused as in progress")
    func presentOnStartedPresentation() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen))
        #expect(w["B"].viewInWindow)
        let d = w.refuse(Op.present("B", vc("C")))
        expectDiagnostic(
            d, code: "D8", slug: "presentation-in-progress", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("B")) (from \(desc("B"))) while a presentation is in progress.")
    }

    @Test("R75: visibleViewController is the controller presented on the navigation controller, else its top")
    func navigationVisibleViewController() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        #expect(w.state.topViewController("N") == "B")
        #expect(w.state.navigationVisibleViewController("N") == "B")
        #expect(w.state.visibleViewController == "B")
        w.perform(Op.present("A", vc("C")))
        #expect(w.state.navigationVisibleViewController("N") == "C")
        #expect(w.state.topViewController("N") == "B")
        #expect(w.state.visibleViewController == "C")
    }
}

// MARK: - Exhaustive: the root and the hierarchy's refusals

extension HierarchyTests {
    @Test("R1 exhaustive: installing a root: the root, its creation and its appearance, nothing else")
    func exhaustiveRootAppears() {
        var w = Window(root: nil)
        w.send(.setRoot(vc("A"), animated: false)) {
            $0.create("A")
            $0.appeared("A")
            $0.rootViewController = "A"
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R1 exhaustive: replacing the root: the old root leaves the window and stays a controller")
    func exhaustiveReplacingRoot() {
        var w = Window(root: vc("A"))
        w.send(.setRoot(vc("B"), animated: false)) {
            $0.create("B")
            $0.appeared("B")
            $0.disappeared("A")
            $0.rootViewController = "B"
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R2 exhaustive: presenting a child is refused (D3) and re-parents nothing")
    func exhaustivePresentChildRefused() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.sendRefused(Op.present("B", id("A")), code: "D3", slug: "has-parent")
    }
}
