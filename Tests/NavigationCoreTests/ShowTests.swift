import Testing
import NavigationCore

/// §10: `show`, `showDetailViewController` and the target lookup.
@Suite("show and showDetail (R63–R67)")
struct ShowTests {
    let pushEventsOfB = [
        "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
        "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
    ]

    @Test("R63/R65/R77: show from a navigation child pushes (S47)")
    func showPushes() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.show("A", vc("B")))
        #expect(names(r) == pushEventsOfB)
        #expect(w.stack("N") == ["A", "B"])
        #expect(r.transition?.operation == .push)
        #expect(r.transition?.animated == true)
        #expect(w.presented("A") == nil)
    }

    @Test("R63: the lookup starts at the receiver and walks up the parent chain")
    func showOnNavigationController() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.show("N", vc("B")))
        #expect(names(r) == pushEventsOfB)

        // From deeper down, the lookup walks up the parent chain to the nearest navigation controller.
        var deep = Window(root: tabs("T", [nav("N", container("A", children: [vc("A1")]))]))
        deep.perform(Op.show("A1", vc("B")))
        #expect(deep.stack("N") == ["A", "B"])
    }

    @Test("R64: with no target show presents modally, animated, in the controller's own style, no completion (S48)")
    func showPresentsWithoutTarget() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.show("A", vc("B")))
        #expect(w.presenting("B") == "A")
        #expect(w.style("B") == .pageSheet)
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear"])
        #expect(r.transition?.operation == .present)
        #expect(r.transition?.animated == true)

        // The controller's own style decides.
        var full = Window(root: vc("A"))
        let r2 = full.perform(Op.show("A", vc("B") { $0.modalPresentationStyle = .fullScreen }))
        #expect(full.style("B") == .fullScreen)
        #expect(
            names(r2) == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "B.viewDidAppear", "A.viewDidDisappear",
            ])
    }

    @Test("R65/R76: show on a navigation controller validates like push (D12, D13)")
    func showValidatesLikePush() {
        var w = Window(root: nav("N", vc("A")))
        expectDiagnostic(
            w.refuse(Op.show("A", nav("N2", vc("X")))), code: "D12", slug: "push-navigation-controller",
            severity: .exception, name: "NSInvalidArgumentException",
            message: "Pushing a navigation controller is not supported")
        expectDiagnostic(
            w.refuse(Op.show("A", id("A"))), code: "D13", slug: "push-duplicate",
            severity: .exception, name: "NSInvalidArgumentException",
            message:
                "\(desc("N", .navigationController)) is pushing the same view controller instance (\(desc("A"))) more than once which is not supported and is most likely an error in the application"
        )
    }

    @Test("R66: showDetail with no split view controller presents modally, even inside a navigation controller")
    func showDetailFallsBackToModal() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.showDetail("A", vc("B")))
        #expect(w.presenting("B") == "N")
        #expect(w.stack("N") == ["A"])
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear"])
    }

    /// iPad; classic split S{N1[M], D1} expanded.
    func expandedSplit(secondary: ControllerRef = vc("D1")) -> Window {
        Window(root: split("S", primary: nav("N1", vc("M")), secondary: secondary), traits: iPadRegular)
    }

    @Test("R67: expanded, showDetail replaces the secondary column (S49)")
    func showDetailReplacesSecondary() {
        var w = expandedSplit()
        #expect(w["S"].split?.isCollapsed == false)
        #expect(w.isAppeared("D1") && w.isAppeared("M"))
        let r = w.perform(Op.showDetail("M", vc("D2")))
        #expect(w["S"].split?.primary == "N1" && w["S"].split?.secondary == "D2")
        #expect(w["D1"].parent == nil && w.isDisappeared("D1"))
        #expect(w["D2"].parent == "S" && w.isAppeared("D2"))
        let events = names(r)
        expectGroups(
            events,
            [
                [
                    "D1.willMoveToParent(nil)", "D1.viewWillDisappear", "D1.viewDidDisappear", "D1.didMoveToParent(nil)",
                    "D2.willMoveToParent(S)", "D2.viewDidLoad", "D2.viewWillAppear", "D2.viewIsAppearing", "D2.viewDidAppear",
                    "D2.didMoveToParent(S)",
                ]
            ])
        // R38/R69/R70: each controller's own callbacks stay in order.
        #expect(of("D1", events) == ["D1.willMoveToParent(nil)", "D1.viewWillDisappear", "D1.viewDidDisappear", "D1.didMoveToParent(nil)"])
        #expect(
            of("D2", events) == [
                "D2.willMoveToParent(S)", "D2.viewDidLoad", "D2.viewWillAppear", "D2.viewIsAppearing",
                "D2.viewDidAppear", "D2.didMoveToParent(S)",
            ])
        #expect(of("M", events).isEmpty)
        w.checkInvariants()
    }

    @Test("R67: showDetail of the current secondary, or of nil, is a no-op (S50)")
    func showDetailOfCurrentSecondary() {
        var w = expandedSplit()
        let before = w.state
        let r = w.perform(Op.showDetail("M", id("D1")))
        #expect(r.events.isEmpty && r.transition == nil)
        #expect(w.state == before)
        // So is nil.
        let none = w.perform(Op.showDetail("M", .none))
        #expect(none.events.isEmpty)
        #expect(w.state == before)
    }

    @Test("R67: expanded, a navigation secondary does not push showDetail's controller: it is replaced (S49)")
    func showDetailReplacesNavigationSecondary() {
        var w = expandedSplit(secondary: nav("N2", vc("D1")))
        let r = w.perform(Op.showDetail("M", vc("X")))
        #expect(w.stack("N2") == ["D1"] && w["N2"].parent == nil)
        #expect(w["S"].split?.secondary == "X" && w["S"].children == ["N1", "X"])
        #expect(
            names(r) == [
                "N2.willMoveToParent(nil)", "N2.viewWillDisappear", "D1.viewWillDisappear", "N2.viewDidDisappear",
                "D1.viewDidDisappear", "N2.didMoveToParent(nil)", "X.willMoveToParent(S)", "X.viewDidLoad",
                "X.viewWillAppear", "X.viewIsAppearing", "X.viewDidAppear", "X.didMoveToParent(S)",
            ])
    }

    @Test("R67/R91: collapsed on iPhone, showDetail pushes onto the primary navigation controller (S51)")
    func showDetailWhenCollapsed() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D1"), collapseSecondaryOntoPrimary: true))
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("N1") == ["M"], "the secondary was discarded at collapse")
        let r = w.perform(Op.showDetail("M", vc("D2")))
        #expect(w.stack("N1") == ["M", "D2"])
        #expect(
            names(r) == [
                "D2.willMoveToParent(N1)", "D2.viewDidLoad", "M.viewWillDisappear", "D2.viewWillAppear",
                "D2.viewIsAppearing", "M.viewDidDisappear", "D2.viewDidAppear", "D2.didMoveToParent(N1)",
            ])
        w.checkInvariants()
    }
}

// MARK: - Exhaustive: the whole state change of show and showDetail

extension ShowTests {
    @Test("R63/R65 exhaustive: show from a navigation child is exactly a push")
    func exhaustiveShowPushes() {
        var w = Window(root: nav("N", vc("A")))
        w.send(Op.show("A", vc("B")), events: pushEventsOfB) {
            $0.pushedNew("B", onto: "N", over: ["A"])
        }
    }

    @Test("R64 exhaustive: with no target show presents in the controller's own style")
    func exhaustiveShowPresents() {
        var w = Window(root: vc("A"))
        w.send(Op.show("A", vc("B"))) {
            $0.create("B") { $0.presentation = presentationRecord("A", requested: .automatic, style: .pageSheet) }
            $0.appeared("B")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R65/R76 exhaustive: show validates like push; a refused show changes nothing")
    func exhaustiveShowRefused() {
        var w = Window(root: nav("N", vc("A")))
        w.sendRefused(Op.show("A", nav("N2", vc("X"))), code: "D12", slug: "push-navigation-controller")
        w.sendRefused(Op.show("A", id("A")), code: "D13", slug: "push-duplicate")
    }
}
