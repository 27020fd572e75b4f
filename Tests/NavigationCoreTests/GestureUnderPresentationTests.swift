import Testing
import NavigationCore

/// R160: a user's gesture acts only on a view that takes touches; a presentation's own view or
/// dimming view above it takes the touch instead. Code calls still reach their receiver.
@Suite("gestures under a presentation (R160)")
struct GestureUnderPresentationTests {
    let iOS17 = Options(iOS: .iOS17)

    /// Sheet settings resting at `medium`, undimmed up to `undimmedUpTo` (nil: every detent dims).
    func detents(undimmedUpTo: String?) -> SheetSettings {
        SheetSettings(detents: [.medium, .large], largestUndimmedDetentIdentifier: undimmedUpTo)
    }

    /// N(A, B) on an iPhone with a page sheet S presented from B (so by N, R20).
    func stackUnderSheet(_ sheet: SheetSettings? = nil) -> Window {
        var w = Window(root: nav("N", vc("A")), options: iOS17)
        w.perform(Op.push("N", vc("B"), animated: false))
        w.perform(Op.present("B", vc("S") { $0.sheetPresentationController = sheet }, .pageSheet, animated: false))
        return w
    }

    @Test("R160 exhaustive: interactivePop under a dimmed sheet does nothing; pop, code, still pops")
    func swipeBackUnderDimmedSheet() {
        var w = stackUnderSheet()
        #expect(w.state.viewsInWindow == ["N", "B", "S"])
        w.send(.interactivePop(receiver: "N", completes: true), events: []) { _ in }
        w.send(.interactivePop(receiver: "B", completes: false), events: []) { _ in }
        let popped = w.perform(Op.pop("N"))
        #expect(popped.returned == ["B"])
        #expect(w.stack("N") == ["A"])
    }

    @Test("R160/R112: under a sheet resting at an undimmed detent the swipe back pops; at a dimmed detent it does not")
    func swipeBackUnderUndimmedSheet() {
        var open = stackUnderSheet(detents(undimmedUpTo: "medium"))
        #expect(open.state.undimmedViews.contains("B"))
        let r = open.perform(.interactivePop(receiver: "N", completes: true))
        #expect(r.transition?.operation == .interactivePop)
        #expect(open.stack("N") == ["A"])

        var dimmed = stackUnderSheet(detents(undimmedUpTo: nil))
        dimmed.send(.interactivePop(receiver: "N", completes: true), events: []) { _ in }
        // Dragged up past the undimmed detents, the dimming view comes back.
        var dragged = stackUnderSheet(detents(undimmedUpTo: "medium"))
        dragged.perform(.dragSheet(receiver: "S", detent: "large"))
        dragged.send(.interactivePop(receiver: "N", completes: true), events: []) { _ in }
    }

    /// T(A, B) with a tab bar delegate and a page sheet S presented from A (by T).
    func tabsUnderSheet(_ sheet: SheetSettings? = nil) -> Window {
        var w = Window(
            root: make("T", .tabBarController) {
                $0.viewControllers = [vc("A"), vc("B")]
                $0.tabBarDelegate = TabBarDelegate()
            }, options: iOS17)
        w.perform(Op.present("A", vc("S") { $0.sheetPresentationController = sheet }, .pageSheet, animated: false))
        return w
    }

    @Test("R160 exhaustive: customizeTabs on a More list under a dimmed sheet tells no delegate and moves no tab")
    func customizeTabsUnderDimmedSheet() throws {
        let seven: [ControllerID] = ["A", "B", "C", "D", "E", "F", "G"]
        var w = Window(
            root: make("T", .tabBarController) {
                $0.viewControllers = seven.map { vc($0) }
                $0.tabBarDelegate = TabBarDelegate()
            }, options: iOS17)
        let more = try #require(w["T"].moreNavigationController)
        w.perform(.select(receiver: "T", index: nil, viewController: more))
        w.perform(Op.present("T", vc("S"), .pageSheet, animated: false))
        w.send(.customizeTabs(receiver: "T", viewControllers: ["B", "A", "C", "D", "E", "F", "G"]), events: []) { _ in }
    }

    @Test("R160 exhaustive: tapTab under a dimmed sheet asks no delegate and selects nothing; select, code, still selects")
    func tapTabUnderDimmedSheet() {
        var w = tabsUnderSheet()
        w.send(.tapTab(receiver: "T", index: 1, viewController: nil), events: []) { _ in }
        // Bad input is still bad input under a sheet.
        #expect(w.sendInvalid(.tapTab(receiver: "T", index: 7, viewController: nil))?.field == "index")
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(w.state["T"]?.selectedViewController == "B")
    }

    @Test("R160/R112: tapTab under an undimmed sheet tells the delegate and selects")
    func tapTabUnderUndimmedSheet() {
        var w = tabsUnderSheet(detents(undimmedUpTo: "medium"))
        let r = w.perform(.tapTab(receiver: "T", index: 1, viewController: nil))
        // R161: the delegate gives no shouldSelect answer, so it is not asked; it is told didSelect.
        #expect(names(r).last == "B.tabBarControllerDidSelect" && !names(r).contains("B.tabBarControllerShouldSelect"))
        #expect(w.state["T"]?.selectedViewController == "B")
    }

    /// PV showing P1 (data source P1, P2), with a page sheet S presented from P1 (by PV).
    func bookUnderSheet(_ sheet: SheetSettings? = nil) -> Window {
        var w = Window(
            root: make("PV", .pageViewController) {
                $0.viewControllers = [vc("P1")]
                $0.pageDataSource = PageDataSource(pages: ["P1", "P2"])
                $0.pageDelegate = PageDelegate()
            }, options: iOS17)
        w.perform(.createController(ControllerSpec(id: "P2")))
        w.perform(Op.present("P1", vc("S") { $0.sheetPresentationController = sheet }, .pageSheet, animated: false))
        return w
    }

    @Test("R160 exhaustive: turnPage under a dimmed sheet turns nothing; setViewControllers, code, still sets the page")
    func turnPageUnderDimmedSheet() {
        var w = bookUnderSheet()
        w.send(.turnPage(receiver: "PV", direction: .forward, completes: true), events: []) { _ in }
        w.perform(Op.setViewControllers("PV", [id("P2")]))
        #expect(w.state["PV"]?.viewControllers == ["P2"])
    }

    @Test("R160/R112: turnPage under an undimmed sheet turns the page")
    func turnPageUnderUndimmedSheet() {
        var w = bookUnderSheet(detents(undimmedUpTo: "large"))
        let r = w.perform(.turnPage(receiver: "PV", direction: .forward, completes: true))
        #expect(names(r).first == "PV.pageViewControllerWillTransitionTo([P2])")
        #expect(w.state["PV"]?.viewControllers == ["P2"])
    }

    let showToC = SegueSpec(id: "seg-1", identifier: "toC", kind: .show, destinationScene: "C")
    func destination(_ id: ControllerID) -> ControllerSpec {
        var s = ControllerSpec(id: id)
        s.storyboard = StoryboardOrigin(name: "Main", identifier: id)
        return s
    }

    @Test("R160 exhaustive: triggerSegue on a controller under a dimmed sheet asks nothing and instantiates nothing; performSegue, code, still runs")
    func segueTapUnderDimmedSheet() {
        var w = Window(
            root: nav(
                "N",
                vc("A") {
                    $0.storyboard = StoryboardOrigin(name: "Main", identifier: "A")
                    $0.segues = [showToC]
                }), options: iOS17)
        w.perform(Op.present("A", vc("S"), .pageSheet, animated: false))
        w.send(.triggerSegue(receiver: "A", identifier: "toC", destination: destination("C")), events: []) { _ in }
        // An unknown segue is still D18 (R97): the control does not exist, covered or not.
        w.sendRefused(.triggerSegue(receiver: "A", identifier: "nope", destination: nil), code: "D18", slug: "unknown-segue")
        let r = w.perform(.performSegue(receiver: "A", identifier: "toC", destination: destination("C")))
        #expect(names(r).first == "A.prepareForSegue")
        #expect(w.stack("N") == ["A", "C"])
    }

    @Test("R160/R152: under a real popover a gesture reaches only a passthrough view or a view inside one")
    func popoverPassthrough() {
        func stack(passthrough: [ControllerID]?) -> Window {
            var w = Window(root: nav("N", vc("A")), traits: iPadRegular, options: iOS17)
            w.perform(Op.push("N", vc("B"), animated: false))
            w.perform(
                Op.present(
                    "B",
                    vc("P") {
                        if let passthrough { $0.popoverPresentationController = PopoverSettings(passthroughViews: passthrough) }
                    }, .popover, popover: PopoverAnchor(sourceView: "button"), animated: false))
            return w
        }
        var blocked = stack(passthrough: nil)
        blocked.send(.interactivePop(receiver: "N", completes: true), events: []) { _ in }
        // B is inside the passthrough view N: the swipe reaches it.
        var through = stack(passthrough: ["N"])
        #expect(through.perform(.interactivePop(receiver: "N", completes: true)).transition?.operation == .interactivePop)
        #expect(through.stack("N") == ["A"])
    }

    @Test("R160/R21: a context presentation covers only the context's views: the tab bar outside it still takes a tap")
    func contextPresentationCoversItsContext() {
        var w = Window(root: tabs("T", [nav("N", vc("A")), vc("X")]), options: iOS17)
        w.perform(Op.push("N", vc("B"), animated: false))
        w.perform(Op.present("B", vc("C"), .overCurrentContext, animated: false))
        #expect(w.state["C"]?.presentation?.contextViewController == "N")
        // The swipe starts on B, under C.
        w.send(.interactivePop(receiver: "N", completes: true), events: []) { _ in }
        #expect(!w.state.isCoveredByPresentation("T"))
        #expect(w.state.isCoveredByPresentation("B"))
        #expect(!w.state.isCoveredByPresentation("C"))
        w.perform(.tapTab(receiver: "T", index: 1, viewController: nil))
        #expect(w.state["T"]?.selectedViewController == "X")
    }

    @Test("R160/R21: what a context presentation presents over the full screen covers the tab bar outside the context too")
    func overFullScreenAboveAContextPresentation() {
        var w = Window(root: tabs("T", [nav("N", vc("A")), vc("X")]), options: iOS17)
        w.perform(Op.present("A", vc("C"), .overCurrentContext, animated: false))
        w.perform(Op.present("C", vc("D"), .overFullScreen, animated: false))
        #expect(w.state.isViewInWindow("T"))
        #expect(w.state.isCoveredByPresentation("T"))
        #expect(w.state.isCoveredByPresentation("C"))
        #expect(!w.state.isCoveredByPresentation("D"))
        w.send(.tapTab(receiver: "T", index: 1, viewController: nil), events: []) { _ in }
    }

    @Test("R160/R112: stacked sheets: an undimmed sheet over a dimmed one leaves only the dimmed one reachable")
    func stackedSheets() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), options: iOS17)
        w.perform(Op.present("A", vc("S1") { $0.sheetPresentationController = detents(undimmedUpTo: nil) }, .pageSheet, animated: false))
        w.perform(Op.present("S1", vc("S2") { $0.sheetPresentationController = detents(undimmedUpTo: "large") }, .pageSheet, animated: false))
        #expect(!w.state.isCoveredByPresentation("S2"))
        #expect(!w.state.isCoveredByPresentation("S1"))
        #expect(w.state.isCoveredByPresentation("T"))
        w.send(.tapTab(receiver: "T", index: 1, viewController: nil), events: []) { _ in }
    }

    @Test("R160 exhaustive: an alert with something presented over it takes no tap; a controller no longer in the window takes none either")
    func coveredAlertAndOffScreen() {
        var w = Window(root: vc("A"), options: iOS17)
        w.perform(
            Op.present(
                "A",
                make("Alert", .alertController) { $0.actions = [AlertAction(title: "OK", style: .cancel)] },
                animated: false))
        w.perform(Op.present("Alert", vc("Over"), .fullScreen, animated: false))
        w.send(.tapAlertAction(receiver: "Alert", index: 0, title: nil, animated: false), events: []) { _ in }

        var full = Window(root: tabs("T", [vc("A"), vc("B")]), options: iOS17)
        full.perform(Op.present("A", vc("F"), .fullScreen, animated: false))
        #expect(!full.state.isViewInWindow("T"))
        full.send(.tapTab(receiver: "T", index: 1, viewController: nil), events: []) { _ in }
    }
}
