import Testing
import NavigationCore

/// §13: UITabBarController.
@Suite("tab bar controller (R84–R88)")
struct TabBarControllerTests {
    let sevenTabs = (0..<7).map { vc("V\($0)") }

    @Test("R87: only the selected tab's view is loaded at launch")
    func onlySelectedLoaded() {
        let w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")]))
        #expect(w["T"].selectedViewController == "A")
        #expect(w["A"].isViewLoaded && w.isAppeared("A"))
        #expect(!w["B"].isViewLoaded && !w["C"].isViewLoaded)
        #expect(w["A"].parent == "T" && w["B"].parent == "T")
    }

    @Test("R86/R87: selecting a tab: the new tab's will-appear comes before the old tab's will-disappear (S65)")
    func tabSwitchOrder() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")]))
        let r = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        // Where viewIsAppearing falls on a tab switch is left open (§0.5); the rest is R87's order.
        #expect(
            withoutIsAppearing(names(r)) == [
                "B.viewDidLoad", "B.viewWillAppear", "A.viewWillDisappear",
                "A.viewDidDisappear", "B.viewDidAppear",
            ])
        let isAppearing = names(r).firstIndex(of: "B.viewIsAppearing")
        #expect(isAppearing != nil)
        #expect(isAppearing.map { $0 > names(r).firstIndex(of: "B.viewWillAppear")! && $0 < names(r).firstIndex(of: "B.viewDidAppear")! } == true)
        #expect(w["T"].selectedViewController == "B")
        #expect(w.state.selectedIndex("T") == 1)
        #expect(w.isAppeared("B") && w.isDisappeared("A"))

        // Selecting by controller works the same; re-selecting the current tab changes nothing.
        w.perform(.select(receiver: "T", index: nil, viewController: "C"))
        #expect(w.state.selectedIndex("T") == 2)
        #expect(w.perform(.select(receiver: "T", index: nil, viewController: "C")).events.isEmpty)
    }

    @Test("R85: selecting a controller that is not a tab raises D16 (S68)")
    func selectNonChild() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]))
        w.perform(.createController(ControllerSpec(id: "X")))
        let d = w.refuse(.select(receiver: "T", index: nil, viewController: "X"))
        expectDiagnostic(
            d, code: "D16", slug: "select-non-child", severity: .exception, name: "NSInternalInconsistencyException",
            message: "Attempting to select a view controller that isn't a child! \(desc("X"))")
    }

    @Test("R84: replacing the tabs keeps the selection by identity; removed tabs get containment events only (S66)")
    func setTabsKeepsSelectionByIdentity() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")], selected: 1))
        let r = w.perform(Op.setViewControllers("T", [id("B"), id("C")]))
        #expect(names(r) == ["A.willMoveToParent(nil)", "A.didMoveToParent(nil)"])
        #expect(w["T"].selectedViewController == "B")
        #expect(w.state.selectedIndex("T") == 0)
        #expect(w.stack("T") == ["B", "C"])
        #expect(!w["T"].children.contains("A"))
        #expect(w["A"].parent == nil)
        #expect(w.isAppeared("B"))
        w.checkInvariants()
    }

    @Test("R84/R87: a selection that is gone falls back to the same index, else index 0 (S67)")
    func setTabsFallsBackToFirst() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")], selected: 2))
        let r = w.perform(Op.setViewControllers("T", [vc("D"), vc("E")]))
        #expect(w["T"].selectedViewController == "D")
        #expect(w.state.selectedIndex("T") == 0)
        // [INF order]: membership only.
        expectGroups(
            withoutIsAppearing(names(r).filter { !$0.contains("MoveToParent") }),
            [["D.viewDidLoad", "D.viewWillAppear", "C.viewWillDisappear", "C.viewDidDisappear", "D.viewDidAppear"]])
        expectGroups(
            names(r).filter { $0.contains("MoveToParent") },
            [
                [
                    "A.willMoveToParent(nil)", "B.willMoveToParent(nil)", "C.willMoveToParent(nil)",
                    "D.willMoveToParent(T)", "E.willMoveToParent(T)",
                    "A.didMoveToParent(nil)", "B.didMoveToParent(nil)", "C.didMoveToParent(nil)",
                    "D.didMoveToParent(T)", "E.didMoveToParent(T)",
                ]
            ])
        #expect(w.isAppeared("D") && w.isDisappeared("C"))
        #expect(!w["E"].isViewLoaded)

        // A selection that is gone but whose index is still valid: the tab at the same index.
        var same = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")], selected: 1))
        same.perform(Op.setViewControllers("T", [vc("D"), vc("E")]))
        #expect(same["T"].selectedViewController == "E")
        #expect(same.state.selectedIndex("T") == 1)
    }

    @Test("R88: the More navigation controller always exists and is never one of the tabs")
    func moreAlwaysExists() {
        let w = Window(root: tabs("T", [vc("A"), vc("B")]))
        let more = w["T"].moreNavigationController
        #expect(more != nil)
        #expect(more.map { w.state[$0]?.kind } == .navigationController)
        #expect(!w.stack("T").contains(more ?? ""))
    }

    @Test("R85/R88: on iPhone a 6th+ tab is shown inside the More navigation controller (S69)")
    func selectTabUnderMore() throws {
        var w = Window(root: tabs("T", sevenTabs))
        let more = try #require(w["T"].moreNavigationController)
        let r = w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        #expect(w["V5"].parent == more)
        #expect(w.stack(more) == ["T.more.list", "V5"], "R165: pushed above the More list")
        #expect(w.stack("T") == (0..<7).map { "V\($0)" }, "viewControllers still lists every tab and never More")
        #expect(w["T"].selectedViewController == "V5")
        #expect(w.state.selectedIndex("T") == 5)
        #expect(w.isAppeared("V5") && w.isDisappeared("V0"))
        #expect(withoutIsAppearing(of("V5", names(r))) == ["V5.viewDidLoad", "V5.viewWillAppear", "V5.viewDidAppear"])
        #expect(of("V0", names(r)) == ["V0.viewWillDisappear", "V0.viewDidDisappear"])
        w.checkInvariants()
    }

    @Test("R88: on iPhone with more than five tabs, tabs 0–3 are shown directly and tabs from index 4 on live under More")
    func moreBoundary() throws {
        var w = Window(root: tabs("T", sevenTabs))
        let more = try #require(w["T"].moreNavigationController)
        w.perform(.select(receiver: "T", index: 3, viewController: nil))
        #expect(w["V3"].parent == "T")
        w.perform(.select(receiver: "T", index: 4, viewController: nil))
        #expect(w["V4"].parent == more)

        // With five tabs everything fits.
        var five = Window(root: tabs("T", (0..<5).map { vc("V\($0)") }))
        five.perform(.select(receiver: "T", index: 4, viewController: nil))
        #expect(five["V4"].parent == "T")
    }

    @Test("R86: while the More list itself is selected, selectedIndex is NSNotFound (S70)")
    func moreListSelected() throws {
        var w = Window(root: tabs("T", sevenTabs))
        let more = try #require(w["T"].moreNavigationController)
        w.perform(.select(receiver: "T", index: nil, viewController: more))
        #expect(w["T"].selectedViewController == more)
        #expect(w.state.selectedIndex("T") == nil)
        #expect(w.isDisappeared("V0"))
    }
}

// MARK: - Exhaustive: the whole state change of selection and of the tab list

extension TabBarControllerTests {
    @Test("R86/R87 exhaustive: selecting a tab loads and shows it and hides the old one; nothing else moves")
    func exhaustiveSelect() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")]))
        w.send(.select(receiver: "T", index: 1, viewController: nil)) {
            $0.appeared("B")
            $0.disappeared("A")
            $0.setSelected("T", "B")
            $0.nextTransitionNumber += 1
        }
        // Re-selecting the current tab changes nothing at all.
        w.send(.select(receiver: "T", index: nil, viewController: "B"), events: []) { _ in }
    }

    @Test("R85 exhaustive: selecting a controller that is not a tab is refused and changes nothing")
    func exhaustiveSelectNonChild() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]))
        w.send(.createController(ControllerSpec(id: "X"))) { $0.create("X") }
        w.sendRefused(.select(receiver: "T", index: nil, viewController: "X"), code: "D16", slug: "select-non-child")
    }

    @Test("R84 exhaustive: replacing the tabs keeps the selection by identity and detaches the removed tab")
    func exhaustiveSetTabs() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")], selected: 1))
        w.send(Op.setViewControllers("T", [id("B"), id("C")])) {
            $0.modify("A") { $0.parent = nil }
            $0.modify("T") { $0.children.removeAll { $0 == "A" } }
            $0.setTabs("T", ["B", "C"])
        }
    }

    @Test("R88 exhaustive: a sixth tab is shown inside the More navigation controller")
    func exhaustiveSelectUnderMore() throws {
        var w = Window(root: tabs("T", sevenTabs))
        let more = try #require(w["T"].moreNavigationController)
        w.send(.select(receiver: "T", index: nil, viewController: "V5")) {
            $0.modify("V5") { $0.parent = more }
            $0.modify("T") { $0.children.removeAll { $0 == "V5" } }
            $0.modify(more) { $0.children = ["T.more.list", "V5"] }
            $0.setStack(more, ["T.more.list", "V5"])
            $0.appeared("V5", more)
            $0.disappeared("V0")
            $0.setSelected("T", "V5")
            $0.nextTransitionNumber += 1
        }
    }
}
