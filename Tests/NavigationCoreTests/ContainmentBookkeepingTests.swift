import Testing
import NavigationCore

/// R2 bookkeeping of the containers' `setViewControllers` and the More list: a parent lists its
/// children and each child names its parent, whatever else the client did with the controllers
/// in between (the cases RelationshipInvariantTests' random calls found). Containers here are
/// off screen, so the state change is the bookkeeping alone (no appearance, no transition number).
@Suite("R2: container bookkeeping agrees both ways")
struct ContainmentBookkeepingTests {
    func create(_ w: inout Window, _ ref: ControllerRef) {
        guard case .new(let spec) = ref else { return }
        w.perform(.createController(spec))
    }

    @Test("R80: setViewControllers keeps a navigation controller's children added with addChild")
    func navigationKeepsCustomChildren() {
        var w = Window(root: vc("R"))
        create(&w, nav("N", vc("A")))
        create(&w, vc("C"))
        create(&w, vc("X"))
        w.perform(.addChild(receiver: "N", viewController: id("C")))
        w.send(
            Op.setViewControllers("N", [id("X")], animated: false),
            events: ["A.willMoveToParent(nil)", "X.willMoveToParent(N)", "A.didMoveToParent(nil)", "X.didMoveToParent(N)"]
        ) {
            $0.setStack("N", ["X"])
            $0.modify("N") { $0.children = ["X", "C"] }
            $0.modify("A") { $0.parent = nil }
            $0.modify("X") { $0.parent = "N" }
        }
    }

    @Test("R94: setViewControllers keeps a page view controller's children added with addChild")
    func pagesKeepCustomChildren() {
        var w = Window(root: vc("R"))
        create(&w, make("PG", .pageViewController) { $0.viewControllers = [vc("P1")] })
        create(&w, vc("C"))
        create(&w, vc("P2"))
        w.perform(.addChild(receiver: "PG", viewController: id("C")))
        w.send(
            Op.setViewControllers("PG", [id("P2")], direction: .forward, animated: false),
            events: [
                "P2.willMoveToParent(PG)", "P1.willMoveToParent(nil)", "P1.didMoveToParent(nil)", "P2.didMoveToParent(PG)",
                "PG.completion",
            ]
        ) {
            $0.setPages("PG", ["P2"])
            $0.modify("PG") { $0.children = ["P2", "C"] }
            $0.modify("P1") { $0.parent = nil }
            $0.modify("P2") { $0.parent = "PG" }
        }
    }

    @Test("R84: setViewControllers keeps a tab bar controller's children added with addChild")
    func tabsKeepCustomChildren() {
        var w = Window(root: vc("R"))
        create(&w, tabs("T", [vc("A"), vc("B")]))
        create(&w, vc("C"))
        w.perform(.addChild(receiver: "T", viewController: id("C")))
        w.send(
            Op.setViewControllers("T", [id("B")], animated: false),
            events: ["A.willMoveToParent(nil)", "A.didMoveToParent(nil)"]
        ) {
            $0.setTabs("T", ["B"])
            $0.setSelected("T", "B")
            $0.modify("T") { $0.children = ["B", "C"] }
            $0.modify("A") { $0.parent = nil }
        }
    }

    @Test("R84: a tab moved into another container leaves the tab list; listing it again takes it back")
    func movedTabLeavesTheTabList() {
        var w = Window(root: vc("R"))
        create(&w, tabs("T", [vc("A"), vc("B")]))
        create(&w, vc("P"))
        w.send(.addChild(receiver: "P", viewController: id("A")), events: ["A.willMoveToParent(P)"]) {
            $0.modify("A") {
                $0.parent = "P"; $0.isMovingToParent = true
            }
            $0.modify("P") { $0.children = ["A"] }
            $0.modify("T") { $0.children = ["B"] }
            $0.setTabs("T", ["B"])
            $0.setSelected("T", "B")
        }
        w.send(
            Op.setViewControllers("T", [id("A"), id("B")], animated: false),
            events: ["A.willMoveToParent(T)", "A.didMoveToParent(T)"]
        ) {
            $0.modify("A") {
                $0.parent = "T"; $0.isMovingToParent = false
            }
            $0.modify("P") { $0.children = [] }
            $0.modify("T") { $0.children = ["A", "B"] }
            $0.setTabs("T", ["A", "B"])
        }
    }

    @Test("R88: the More navigation controller cannot join another container")
    func moreNavigationStaysWithItsTabBar() {
        var w = Window(root: vc("R"))
        create(&w, tabs("T", [vc("A"), vc("B")]))
        create(&w, vc("P"))
        create(&w, make("TX", .tabBarController))
        let e = w.sendInvalid(.addChild(receiver: "P", viewController: id("T.more")))
        #expect(e?.message == "\(desc("T.more", .navigationController)) is a tab bar's More navigation controller; it cannot join another container.")
        w.sendInvalid(Op.setViewControllers("TX", [id("T.more")], animated: false))
    }

    @Test("R88: selecting another tab under More sends the previous one back to the tab bar; what was pushed on More leaves")
    func moreSelectionKeepsLinks() {
        var w = Window(root: vc("R"))
        create(&w, tabs("T", ["A", "B", "C", "D", "E", "F"].map { vc($0) }))
        create(&w, vc("X"))
        w.perform(.select(receiver: "T", index: 4, viewController: nil))
        #expect(w["E"].parent == "T.more" && w.stack("T.more") == ["T.more.list", "E"])
        w.perform(Op.push("T.more", id("X"), animated: false))
        #expect(w.stack("T.more") == ["T.more.list", "E", "X"])
        w.send(.select(receiver: "T", index: 5, viewController: nil)) {
            $0.setStack("T.more", ["T.more.list", "F"])
            $0.modify("T.more") { $0.children = ["T.more.list", "F"] }
            $0.modify("F") { $0.parent = "T.more" }
            $0.modify("E") { $0.parent = "T" }
            $0.modify("X") { $0.parent = nil }
            $0.modify("T") { $0.children = ["A", "B", "C", "D", "E"] }
            $0.setSelected("T", "F")
        }
    }
}
