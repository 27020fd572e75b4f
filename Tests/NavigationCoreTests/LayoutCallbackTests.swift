import Testing
import NavigationCore

/// `viewWillLayoutSubviews`/`viewDidLayoutSubviews` (R114–R117, Layout.swift): one pass for each
/// view that enters the window, after its `viewIsAppearing` (its `viewWillAppear` on iOS 12),
/// parents before children, before the `viewDidAppear` calls; none for a view that stays; reported
/// only with `options.layoutCallbacks`, and the state change is the one without it.
@Suite("layout callbacks (R114–R117)")
struct LayoutCallbackTests {
    let on = Options(iOS: .iOS17, layoutCallbacks: true)

    func launch(_ root: ControllerRef, _ options: Options) -> (state: SessionState, events: [String])? {
        guard case .success(let made) = Navigator.makeSessionReporting(traits: .phonePortrait, options: options, root: root) else {
            Issue.record("makeSession refused")
            return nil
        }
        return (made.state, names(made.result))
    }

    @Test("R114/R115: at launch the navigation controller lays out, then its top child, each after its viewIsAppearing")
    func firstAppearance() throws {
        let made = try #require(launch(nav("N", vc("A")), on))
        #expect(
            made.events == [
                "N.viewDidLoad", "A.viewDidLoad",
                "N.viewWillAppear", "N.viewIsAppearing", "N.viewWillLayoutSubviews", "N.viewDidLayoutSubviews",
                "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews",
                "N.viewDidAppear", "A.viewDidAppear",
            ])
        // The option changes what is reported, nothing of the state.
        var off = try #require(launch(nav("N", vc("A")), Options(iOS: .iOS17))).state
        off.options.layoutCallbacks = true
        expectSameState(off, made.state, "the option changes no controller", sourceLocation: #_sourceLocation)
    }

    @Test("R115: on the iOS 12 profile (no viewIsAppearing) the pass follows viewWillAppear")
    func firstAppearanceIOS12() throws {
        let made = try #require(launch(nav("N", vc("A")), Options(iOS: .iOS12, layoutCallbacks: true)))
        #expect(
            made.events == [
                "N.viewDidLoad", "A.viewDidLoad",
                "N.viewWillAppear", "N.viewWillLayoutSubviews", "N.viewDidLayoutSubviews",
                "A.viewWillAppear", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews",
                "N.viewDidAppear", "A.viewDidAppear",
            ])
    }

    @Test("R114 exhaustive: a push lays out the pushed controller before the old top's viewDidDisappear; the state is a push's")
    func push() {
        var w = Window(root: nav("N", vc("A")), options: on)
        w.send(
            Op.push("N", vc("B")),
            events: [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear",
                "B.viewWillAppear", "B.viewIsAppearing", "B.viewWillLayoutSubviews", "B.viewDidLayoutSubviews",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
            ]
        ) {
            $0.pushedNew("B", onto: "N", over: ["A"])
        }
    }

    @Test("R114 exhaustive: a pop lays out the controller it uncovers, whose view comes back into the window")
    func pop() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: on)
        w.send(
            Op.pop("N"),
            events: [
                "B.willMoveToParent(nil)", "A.viewDidLoad", "B.viewWillDisappear",
                "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews",
                "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
            ]
        ) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R114/R116 exhaustive: full screen: the presented controller lays out; its dismissal lays out the presenter again")
    func fullScreenPresentationAndDismissal() {
        var w = Window(root: vc("A"), options: on)
        w.send(
            Op.present("A", vc("M"), .fullScreen),
            events: [
                "M.viewDidLoad", "A.viewWillDisappear",
                "M.viewWillAppear", "M.viewIsAppearing", "M.viewWillLayoutSubviews", "M.viewDidLayoutSubviews",
                "M.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ]
        ) {
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "M" }
            $0.create("M") {
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("M")
            $0.nextTransitionNumber += 1
        }
        w.send(
            Op.dismiss("A"),
            events: [
                "M.viewWillDisappear",
                "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews",
                "A.viewDidAppear", "M.viewDidDisappear", "A.completion",
            ]
        ) {
            $0.appeared("A")
            $0.modify("A") { $0.presentedID = nil }
            $0.disappeared("M")
            $0.modify("M") { $0.presentation = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R116 exhaustive: a page sheet lays out only the sheet; the presenter's view stays in the window and gets no pass either way")
    func pageSheet() {
        var w = Window(root: vc("A"), options: on)
        w.send(
            Op.present("A", vc("S"), .pageSheet),
            events: [
                "S.viewDidLoad", "S.viewWillAppear", "S.viewIsAppearing", "S.viewWillLayoutSubviews", "S.viewDidLayoutSubviews",
                "S.viewDidAppear", "A.completion",
            ]
        ) {
            $0.modify("A") { $0.presentedID = "S" }
            $0.create("S") {
                $0.modalPresentationStyle = .pageSheet
                $0.presentation = presentationRecord("A", requested: .pageSheet)
            }
            $0.appeared("S")
            $0.nextTransitionNumber += 1
        }
        w.send(Op.dismiss("A"), events: ["S.viewWillDisappear", "S.viewDidDisappear", "A.completion"]) {
            $0.modify("A") { $0.presentedID = nil }
            $0.disappeared("S")
            $0.modify("S") { $0.presentation = nil }
            $0.nextTransitionNumber += 1
        }
        #expect(w["A"].viewInWindow && w.isAppeared("A"))
    }

    @Test("R114 exhaustive: a tab switch lays out the tab that appears")
    func tabSwitch() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), options: on)
        w.send(
            .select(receiver: "T", index: 1, viewController: nil),
            events: [
                "B.viewDidLoad",
                "B.viewWillAppear", "B.viewIsAppearing", "B.viewWillLayoutSubviews", "B.viewDidLayoutSubviews",
                "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear",
            ]
        ) {
            $0.appeared("B")
            $0.disappeared("A")
            $0.setSelected("T", "B")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R114 exhaustive: addChild lays out nothing (no view moves); addSubview on screen lays out the child")
    func containment() {
        var w = Window(root: vc("P"), options: on)
        w.send(.addChild(receiver: "P", viewController: vc("C")), events: ["C.willMoveToParent(P)"]) {
            $0.create("C") {
                $0.parent = "P"; $0.isMovingToParent = true
            }
            $0.modify("P") { $0.children = ["C"] }
        }
        w.send(
            .addSubview(receiver: "P", viewController: "C", animated: false),
            events: [
                "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewWillLayoutSubviews", "C.viewDidLayoutSubviews",
                "C.viewDidAppear",
            ]
        ) {
            $0.appeared("C")
            $0.modify("C") { $0.viewAddedToParent = true }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R116 exhaustive: a cancelled edge-swipe pop lays out the controller beneath as it starts, and not the top, whose view never left")
    func cancelledInteractivePop() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: on)
        let r = w.send(.interactivePop(receiver: "N", completes: false)) {
            // A loaded its view to appear, then left again; B is where it was.
            $0.modify("A") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
        let layout = names(r).filter { $0.hasSuffix("LayoutSubviews") }
        #expect(layout == ["A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews"])
        let a = of("A", names(r))
        #expect(a.firstIndex(of: "A.viewWillLayoutSubviews").map { $0 > a.firstIndex(of: "A.viewIsAppearing")! } == true)
        #expect(w.stack("N") == ["A", "B"] && w.isAppeared("B"))
    }

    @Test("R114/R37 exhaustive: a non-forwarding container's child is laid out when its view enters the window, after its container")
    func manualChildLaysOut() {
        var w = windowWithManualContainer(options: on)
        w.send(
            Op.present("A", .existing("C"), .fullScreen, animated: true),
            events: [
                "C.viewDidLoad", "K.viewDidLoad", "A.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
                "C.viewWillLayoutSubviews", "C.viewDidLayoutSubviews", "K.viewWillLayoutSubviews", "K.viewDidLayoutSubviews",
                "C.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ]
        ) {
            // Nothing told K it appears (its container forwards by hand), yet its view is in the window, laid out.
            $0.presentedManualContainer()
        }
    }

    @Test("R114/R105 exhaustive: begin appearing, then addSubview: the view enters the window and is laid out, no appearance callback")
    func beginThenAddSubviewLaysOut() {
        var w = windowWithManualContainer(options: on)
        w.perform(Op.present("A", .existing("C"), .fullScreen, animated: false))
        w.perform(.addChild(receiver: "C", viewController: vc("K2")))
        w.perform(.beginAppearanceTransition(receiver: "K2", isAppearing: true, animated: true))
        w.send(
            .addSubview(receiver: "C", viewController: "K2", animated: false),
            events: ["K2.viewWillLayoutSubviews", "K2.viewDidLayoutSubviews"]
        ) {
            $0.modify("K2") {
                $0.viewAddedToParent = true
                $0.viewInWindow = true
            }
            $0.nextTransitionNumber += 1
        }
    }

    static let upright = Traits(
        userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .regular, size: .init(width: 393, height: 852))
    static let turned = Traits(
        userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact, size: .init(width: 852, height: 393))

    @Test("R114/R106 exhaustive: a rotation lays out each view in the window, root first, after the trait notifications")
    func rotationLaysOut() {
        var w = Window(root: nav("N", vc("A"), vc("B")), traits: Self.upright, options: on)
        w.send(
            .setTraits(Self.turned),
            events: [
                "N.willTransitionToTraitCollection", "B.willTransitionToTraitCollection",
                "N.viewWillTransitionToSize", "B.viewWillTransitionToSize",
                "N.traitCollectionDidChange", "B.traitCollectionDidChange",
                "N.viewWillLayoutSubviews", "N.viewDidLayoutSubviews", "B.viewWillLayoutSubviews", "B.viewDidLayoutSubviews",
            ]
        ) {
            $0.traits = Self.turned
        }
        // A size change that keeps the size classes (an iPad turned) lays out too; new size
        // classes alone, from a trait override, do not resize the window: no pass.
        var o = Window(root: nav("N", vc("A")), traits: Self.upright, options: on)
        var patch = ControllerPatch()
        patch.traitOverrides = TraitOverrides(horizontalSizeClass: .regular)
        let r = o.perform(.updateController("N", patch))
        #expect(!names(r).contains { $0.hasSuffix("LayoutSubviews") }, "\(names(r))")
    }

    @Test("R117: without the option the same push reports no layout callback")
    func offByDefault() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.push("N", vc("B")))
        #expect(!names(r).contains { $0.hasSuffix("LayoutSubviews") })
        #expect(!Options().layoutCallbacks)
    }
}
