import Testing
import NavigationCore

/// R165: the More navigation controller's root is the More list, and a re-tap of the More item
/// pops back to it.
@Suite("the More list (R165)")
struct MoreListTests {
    let sevenTabs = (0..<7).map { vc("V\($0)") }
    let ios17 = Options(iOS: .iOS17)

    @Test("R165: the More navigation controller is created with the More list (UIMoreListController) as its root")
    func moreStartsWithItsList() {
        let w = Window(root: tabs("T", sevenTabs), options: ios17)
        #expect(w["T"].moreNavigationController == "T.more")
        #expect(w.stack("T.more") == ["T.more.list"])
        #expect(w["T.more"].children == ["T.more.list"])
        #expect(w["T.more.list"].className == "UIMoreListController")
        #expect(w["T.more.list"].kind == .viewController)
        #expect(w["T.more.list"].parent == "T.more")
        #expect(w.state.moreList("T") == "T.more.list")
        #expect(w.state.relations("T.more.list").navigationController == "T.more")
        w.checkInvariants()
    }

    @Test("R165: a tab under More is pushed above the list; tapping More again pops back to the list")
    func retapMorePopsToList() {
        var w = Window(root: tabs("T", sevenTabs), options: ios17)
        w.send(.select(receiver: "T", index: nil, viewController: "V5")) {
            $0.modify("V5") { $0.parent = "T.more" }
            $0.modify("T") { $0.children.removeAll { $0 == "V5" } }
            $0.modify("T.more") { $0.children = ["T.more.list", "V5"] }
            $0.setStack("T.more", ["T.more.list", "V5"])
            $0.appeared("V5", "T.more")
            $0.disappeared("V0")
            $0.setSelected("T", "V5")
            $0.nextTransitionNumber += 1
        }
        #expect(w.state.visibleViewController == "V5")
        w.send(
            .tapTab(receiver: "T", index: nil, viewController: "T.more"),
            events: [
                "T.more.list.viewDidLoad", "V5.viewWillDisappear", "T.more.list.viewWillAppear", "T.more.list.viewIsAppearing",
                "V5.viewDidDisappear", "T.more.list.viewDidAppear",
            ]
        ) {
            // V5 stays a tab: back to the tab bar as its parent, in tab order.
            $0.modify("V5") { $0.parent = "T" }
            $0.modify("T") { $0.children = (0..<7).map { "V\($0)" } }
            $0.modify("T.more") { $0.children = ["T.more.list"] }
            $0.setStack("T.more", ["T.more.list"])
            $0.disappeared("V5")
            $0.appeared("T.more.list")
            $0.setSelected("T", "T.more")
            $0.nextTransitionNumber += 1
        }
        #expect(w.state.selectedIndex("T") == nil, "R86: the More list is selected")
        #expect(w.state.visibleViewController == "T.more.list")
        #expect(w["T"].viewControllers == (0..<7).map { "V\($0)" })
        // Tapping More on the list itself pops nothing.
        w.send(.tapTab(receiver: "T", index: nil, viewController: "T.more"), events: []) { _ in }
        // The popped tab is reached through the list again, pushed above it.
        w.perform(.select(receiver: "T", index: nil, viewController: "V6"))
        #expect(w.stack("T.more") == ["T.more.list", "V6"])
        w.checkInvariants()
    }

    @Test("R165: the re-tap pop tells the tab bar delegate, and a controller pushed above the More tab is popped with containment calls")
    func retapMoreWithDelegateAndPushed() {
        let tabBar = make("T", .tabBarController) {
            $0.viewControllers = sevenTabs
            $0.tabBarDelegate = TabBarDelegate(shouldSelect: true)
        }
        var w = Window(root: tabBar, options: ios17)
        w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        w.perform(Op.push("T.more", vc("D"), animated: false))
        #expect(w.stack("T.more") == ["T.more.list", "V5", "D"])
        let r = w.perform(.tapTab(receiver: "T", index: nil, viewController: "T.more"))
        #expect(
            names(r) == [
                "T.more.tabBarControllerShouldSelect", "D.willMoveToParent(nil)", "T.more.tabBarControllerDidSelect",
                "T.more.list.viewDidLoad", "D.viewWillDisappear", "T.more.list.viewWillAppear", "T.more.list.viewIsAppearing",
                "D.viewDidDisappear", "T.more.list.viewDidAppear", "D.didMoveToParent(nil)",
            ])
        #expect(w.stack("T.more") == ["T.more.list"])
        #expect(w["D"].parent == nil)
        #expect(w["V5"].parent == "T")
        #expect(w["T"].selectedViewController == "T.more")
        w.checkInvariants()
    }

    @Test("R165: a swipe back on the More navigation controller pops the tab to the list and keeps it a tab; given up, the tab is shown and selected again")
    func swipeBackOnMore() {
        var w = Window(root: tabs("T", sevenTabs), options: ios17)
        w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        let before = w.state
        let cancelled = w.perform(.interactivePop(receiver: "T.more", completes: false))
        #expect(!names(cancelled).contains { $0.contains("MoveToParent") }, "a tab under More gets no containment calls")
        #expect(w.stack("T.more") == ["T.more.list", "V5"])
        #expect(w["T"].selectedViewController == "V5")
        #expect(w["V5"].parent == "T.more")
        #expect(w.isAppeared("V5"))
        #expect(w["T.more"] == before["T.more"] && w["T"] == before["T"])

        w.send(
            .interactivePop(receiver: "T.more", completes: true),
            events: [
                "V5.viewWillDisappear", "T.more.list.viewWillAppear", "T.more.list.viewIsAppearing",
                "V5.viewDidDisappear", "T.more.list.viewDidAppear",
            ]
        ) {
            $0.modify("V5") { $0.parent = "T" }
            $0.modify("T") { $0.children = (0..<7).map { "V\($0)" } }
            $0.modify("T.more") { $0.children = ["T.more.list"] }
            $0.setStack("T.more", ["T.more.list"])
            $0.disappeared("V5")
            $0.appeared("T.more.list")
            $0.setSelected("T", "T.more")
            $0.nextTransitionNumber += 1
        }  // the list's view loaded when the given-up swipe began
        #expect(w["T"].viewControllers == (0..<7).map { "V\($0)" }, "V5 is still a tab")
        w.checkInvariants()
    }

    @Test("R165: code popping the More navigation controller sends the tab back to the tab bar too")
    func codePopsMore() {
        var w = Window(root: tabs("T", sevenTabs), options: ios17)
        w.perform(.select(receiver: "T", index: nil, viewController: "V6"))
        let r = w.perform(Op.pop("T.more", animated: false))
        #expect(r.returned == ["V6"])
        #expect(w.stack("T.more") == ["T.more.list"])
        #expect(w["V6"].parent == "T")
        #expect(w["T"].viewControllers.contains("V6"))
        #expect(w["T"].selectedViewController == "T.more")
        #expect(w.state.visibleViewController == "T.more.list")
        w.checkInvariants()
    }

    @Test("R165: setViewControllers on the More navigation controller is invalid input and changes nothing, whatever the list")
    func setViewControllersOnMoreIsRefused() {
        var w = Window(root: tabs("T", sevenTabs), options: ios17)
        for list: [ControllerRef] in [[], [id("V5")], [id("T.more.list")], [id("T.more.list"), id("V6")], [vc("X")]] {
            let e = w.sendInvalid(Op.setViewControllers("T.more", list, animated: false))
            #expect(e?.field == "viewControllers")
            #expect(e?.message.contains("More navigation controller") == true, "\(String(describing: e))")
        }
        // With a tab under More shown above the list, too: the tab stays a tab and the list the root.
        w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        #expect(w.sendInvalid(Op.setViewControllers("T.more", [id("V5")], animated: false))?.field == "viewControllers")
        #expect(w.sendInvalid(Op.setViewControllers("T.more", [], animated: false))?.field == "viewControllers")
        #expect(w["T"].viewControllers == (0..<7).map { "V\($0)" })
        #expect(w.stack("T.more") == ["T.more.list", "V5"])
        #expect(w["T.more.list"].parent == "T.more")
        w.checkInvariants()
    }

    @Test("R165/R79: push, pop, popTo and popToRoot on the More navigation controller keep the More list at the root")
    func popsKeepTheList() {
        var w = Window(root: tabs("T", sevenTabs), options: ios17)
        // Only the list: a pop or a pop to the root pops nothing (UIKit never pops the root).
        #expect(w.perform(Op.pop("T.more", animated: false)).returned == nil)
        w.perform(Op.popToRoot("T.more", animated: false))
        w.perform(Op.popTo("T.more", "T.more.list", animated: false))
        #expect(w.stack("T.more") == ["T.more.list"])
        // Code pushes onto the list, then pops back past everything it pushed: the list stays.
        w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        w.perform(Op.push("T.more", vc("D"), animated: false))
        w.perform(Op.push("T.more", vc("E"), animated: false))
        #expect(w.stack("T.more") == ["T.more.list", "V5", "D", "E"])
        #expect(w.perform(Op.pop("T.more", animated: false)).returned == ["E"])
        #expect(w.perform(Op.popTo("T.more", "T.more.list", animated: false)).returned == ["V5", "D"])
        #expect(w.stack("T.more") == ["T.more.list"])
        #expect(w["T.more.list"].parent == "T.more")
        #expect(w["V5"].parent == "T" && w["D"].parent == nil)
        #expect(w["T"].viewControllers == (0..<7).map { "V\($0)" })
        w.checkInvariants()
        // popToRoot from a pushed tab and a controller above it.
        w.perform(.select(receiver: "T", index: nil, viewController: "V6"))
        w.perform(Op.push("T.more", vc("F"), animated: false))
        #expect(w.perform(Op.popToRoot("T.more", animated: false)).returned == ["V6", "F"])
        #expect(w.stack("T.more") == ["T.more.list"])
        #expect(w["T"].selectedViewController == "T.more")
        #expect(w.state.visibleViewController == "T.more.list")
        // A popTo naming a controller that is not on the stack is UIKit's exception, as anywhere.
        _ = w.refuse(Op.popTo("T.more", "V0", animated: false))
        // The list is never pushed again (it is on the stack) and stays the root.
        _ = w.refuse(Op.push("T.more", id("T.more.list"), animated: false))
        #expect(w.stack("T.more") == ["T.more.list"])
        w.perform(.select(receiver: "T", index: nil, viewController: "V5"))
        #expect(w.stack("T.more") == ["T.more.list", "V5"])
        w.checkInvariants()
    }

    @Test(
        "R165: the More list cannot be taken from its More navigation controller: push elsewhere, another stack, a tab, addChild, removeFromParent are invalid input, nothing changed"
    )
    func moreListStaysInMore() {
        var w = Window(
            root: make("Root", .tabBarController) {
                $0.viewControllers = [tabs("T", sevenTabs), nav("N", vc("A"))]
            }, options: ios17)
        #expect(w.sendInvalid(Op.push("N", id("T.more.list"), animated: false))?.field == "viewController")
        #expect(w.sendInvalid(Op.setViewControllers("N", [id("A"), id("T.more.list")], animated: false))?.field == "viewControllers")
        #expect(w.sendInvalid(Op.setViewControllers("Root", [id("T"), id("N"), id("T.more.list")], animated: false))?.field == "viewControllers")
        #expect(w.sendInvalid(.addChild(receiver: "A", viewController: id("T.more.list")))?.field == "viewController")
        let removed = w.sendInvalid(.removeFromParent(receiver: "T.more.list"))
        #expect(removed?.kind == .wrongReceiver && removed?.message.contains("More list") == true, "\(String(describing: removed))")
        #expect(w.stack("T.more") == ["T.more.list"] && w["T.more.list"].parent == "T.more")
        w.checkInvariants()
    }
}
